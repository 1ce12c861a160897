"""The batch store: one SQLite file (WAL) of files, page results and people's edits.

``batch_store`` is the store itself, ``db`` its file and schema, ``records`` what it returns,
``edits`` a person's corrections and checks, ``apply_edits`` those corrections applied to a page.

May import: the core's shared modules only (``results``, ``errors``).
"""
