"""Results out: text, JSON, CSV, searchable PDF, the reimbursement sheet, where each file's outputs go.

``formats`` writes the page exports, ``layout`` chooses each input's output paths and names,
``receipt_files`` one file per receipt, ``reimbursement`` and ``fields_sheet`` the field sheets.

May import: the core's shared modules, ``core.fields``, ``core.pdf``; never Qt.
"""
