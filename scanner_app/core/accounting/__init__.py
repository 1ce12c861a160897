"""Hand-off to accounting: a library's receipts as files an accountant's software imports.

``records`` holds the one input, :class:`~scanner_app.core.accounting.records.AccountingReceipt`;
each writer takes a sequence of them and a path, writes atomically and returns an
``common.ExportSummary`` (written, skipped with the reason, notes): ``xero`` (bills import CSV),
``quickbooks`` (bank transactions CSV), ``datev`` (EXTF Buchungsstapel), ``sheet`` (our own CSV
and XLSX, every field) and ``report`` (the expense report PDF; its fonts and text in
``report_text``).

May import: the core's shared modules (``atomic_write``), ``core.pdf`` (fonts), ``core.export``
helpers (CSV encoding, formula neutralising); never Qt.
"""
