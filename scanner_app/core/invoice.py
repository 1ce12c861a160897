"""Invoice and receipt fields of a page (no Qt): the public entry point.

``extract_fields(page)`` reads vendor, address, document number, date (ISO 8601), net, tax, tax
rate, total and currency from a PageResult's lines, plus, on Chinese VAT invoices, 发票代码,
价税合计 (大写), and the 名称 / 纳税人识别号 of buyer and seller. Each field carries its value, a
confidence and the indices of the lines it came from; checks (net + tax = total, 大写 = 小写,
USCC check character) flag what disagrees. Rules are data: resources/fields/ (see its README).
"""

from scanner_app.core.fields import (
    FIELD_NAMES,
    LOW_CONFIDENCE,
    Check,
    Field,
    InvoiceFields,
    Rules,
    RulesError,
    default_rules,
    extract_fields,
    load_rules,
)

__all__ = [
    "FIELD_NAMES",
    "LOW_CONFIDENCE",
    "Check",
    "Field",
    "InvoiceFields",
    "Rules",
    "RulesError",
    "default_rules",
    "extract_fields",
    "load_rules",
]
