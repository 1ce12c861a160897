"""The receipt library: every receipt the app reads, by any way in, in one SQLite file, as it is read.

A receipt is a document, not a file: each document on a glass page is an entry, a multi-page invoice
one. ``library`` opens it (``db`` the file: WAL, one connection per process, schema migrations in
``schema``; ``location`` where it lives and the refusal of network shares); ``sink`` is what a
batch store hands its pages to, ``ingest`` turns a page into entries (``crop`` the upright receipt
image: thumbnail and image hashes); ``receipts`` reads and edits entries, ``search`` finds them
(FTS5), ``duplicates`` flags the same receipt read twice, ``categories`` and ``rules`` file them,
``batch_import`` brings in existing batch folders, ``accounting`` hands receipts to
``core.accounting``'s writers, ``backup`` copies the file while it is in use. For the app's Library
tab: ``listing`` reads receipts in brief (a table's columns, for thousands of rows) and
``selection_export`` exports the receipts a person chose.

May import: the core's shared modules, ``core.store`` (records), ``core.fields``, ``core.page``,
``core.accounting`` and ``core.mounts``. Never the ways in (``core.watch``, ``core.devices``,
``core.camera``, ``core.client``): they, and the commands, hand pages to it. Never Qt.
"""
