"""E-invoices read exactly, without OCR: OFD files and the XML of the fully digital invoice (数电票).

``ofd`` and ``xml_invoice`` read the files; ``pages`` turns them into pages with exact field values.

May import: the core's shared modules and ``core.pdf`` (fonts); never Qt.
"""
