"""PDF in and out: pages rendered with PDFium, their own text layer, searchable PDF export, fonts.

May import: the core's shared modules and ``scanner_app.contract``; never Qt.
"""
