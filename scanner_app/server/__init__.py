"""The embedded Triton server: install, start, supervise, stop; the model sets and their fetch.

May import: ``scanner_app.contract``, ``scanner_app.ocr`` and ``scanner_app.steps``; not the
client's core, never Qt.
"""
