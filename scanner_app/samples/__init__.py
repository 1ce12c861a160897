"""Rendered documents whose text and fields are known exactly, for tests, benchmarks and the demo.

``documents`` (receipts and invoices with known lines), ``invoices`` (known fields), ``fapiao``
(增值税电子普通发票 as printed), ``einvoice`` (OFD and XML files), ``glass`` (several receipts on a
scanner's bed).

May import: the core (fonts, fields, results); never Qt.
"""
