"""Resumable batch OCR: files found, sent, stored as they come back, exported; and its review.

``runner`` drives a batch over a BatchStore (``inputs`` what goes in, ``pages`` what is kept per
page, ``outage`` how a server outage is ridden out, ``events`` what it reports); ``export`` and
``fields`` turn the store into the export files and reimbursement rows; ``review`` is a clerk's
walk through the receipts.

May import: the core's shared modules, ``core.store``, ``core.export``, ``core.fields``. Not the
watcher, the scanners or the camera (they import the batch, not the other way round), never Qt.
"""
