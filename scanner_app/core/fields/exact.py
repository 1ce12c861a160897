"""Fields of an e-invoice page read exactly from its own data (OFD tags or attachment, 数电票 XML):
confidence 1, each pointed at the page line that shows it, and the usual checks run on them."""

from __future__ import annotations

from scanner_app.core.fields.checks import run_checks
from scanner_app.core.fields.model import InvoiceFields
from scanner_app.core.fields.text import cjk_share
from scanner_app.core.fields.values import Field
from scanner_app.core.results import PageResult

EXACT_RAW = "e-invoice"  # Field.raw of an exact field: read from the file's data, not from pixels


def _shown_on(page: PageResult, value: str) -> tuple[int, ...]:
    """The first line whose text holds the value (amounts also with a ¥ or without decimals)."""
    bare = value.removesuffix(".00")
    for i, line in enumerate(page.lines):
        text = line.text.replace(",", "")
        if value in text or (bare != value and bare and bare in text):
            return (i,)
    return ()


def exact_invoice_fields(page: PageResult) -> InvoiceFields:
    """The page's ``exact_fields`` as a VAT invoice's fields, with the checks run on them."""
    values = dict(page.exact_fields)
    if values.get("seller_name"):
        values.setdefault("vendor", values["seller_name"])
    values.setdefault("currency", "CNY")  # every e-invoice these files carry is a fapiao
    fields = {name: Field(name, v, 1.0, _shown_on(page, v), EXACT_RAW) for name, v in values.items()}
    text = " ".join(values.values())
    language = "zh" if cjk_share(text) > 0.1 else "en"
    checks = tuple(run_checks(fields, "vat_invoice"))
    return InvoiceFields(fields, checks, "vat_invoice", language)
