"""From a page's lines to InvoiceFields: generic rules, then VAT-invoice rules, then a vendor template."""

from __future__ import annotations

from decimal import Decimal

from scanner_app.core.fields.amounts import find_amounts, format_amount, to_decimal
from scanner_app.core.fields.checks import run_checks
from scanner_app.core.fields.dates import parse_date
from scanner_app.core.fields.exact import exact_invoice_fields
from scanner_app.core.fields.header import DERIVED_CONFIDENCE, TextField, find_address, find_vendor, is_title
from scanner_app.core.fields.ident import find_date, find_number
from scanner_app.core.fields.layout import Layout, LayoutLine
from scanner_app.core.fields.model import Field, InvoiceFields
from scanner_app.core.fields.money import (
    Amount,
    find_currency,
    find_net,
    find_rounding,
    find_tax,
    find_tax_rate,
    find_total,
)
from scanner_app.core.fields.qr_payload import first_fapiao_qr
from scanner_app.core.fields.rules import Rules, VendorTemplate, default_rules
from scanner_app.core.fields.text import cjk_share
from scanner_app.core.fields.values import DocumentKind
from scanner_app.core.fields.vat import extract_vat, is_vat_invoice
from scanner_app.core.fields.vat_qr import cross_check
from scanner_app.core.results import PageResult

AMOUNTS = ("net", "tax", "total", "rounding")


def _field(name: str, found: TextField | Amount) -> Field:
    lines = tuple(ln.index for ln in found.lines)
    raw = " ".join(ln.text for ln in found.lines)
    if isinstance(found, Amount):
        return Field(name, format_amount(found.value), round(found.confidence, 3), lines, raw)
    return Field(name, found.value, round(found.confidence, 3), lines, raw)


def _repair_total(layout: Layout, total: Amount, net: Amount, tax: Amount, rounding: Amount | None) -> Amount:
    """When net + tax (+ rounding) disagrees with the total read, and that sum is printed on a line
    below the net amount, two readings agree on it: take it (with lower confidence)."""
    base = net.value + tax.value
    targets = [base + rounding.value, base] if rounding else [base]
    if total.value in targets:
        return total
    if sum(any(a.value == total.value for a in find_amounts(ln.norm)) for ln in layout.lines) >= 2:
        return total  # printed twice (TOTAL, NET or CASH DUE): the net amount read is the doubtful one
    below = sorted(
        (ln for ln in layout.lines if ln.cy > net.lines[0].cy and ln not in tax.lines), key=lambda ln: ln.cy
    )
    for target in targets:
        for line in below:
            if any(a.value == target for a in find_amounts(line.norm)):
                return Amount(target, (line,), total.weight, 0.7 * line.score, line.text)
    return total


def _generic(layout: Layout, rules: Rules) -> dict[str, TextField | Amount]:
    found: dict[str, TextField | Amount | None] = {}
    found["vendor"] = vendor = find_vendor(layout, rules)
    found["address"] = find_address(layout, rules, vendor)
    found["number"] = find_number(layout, rules)
    found["date"] = find_date(layout, rules)
    total, net, tax = find_total(layout, rules), find_net(layout, rules), find_tax(layout, rules)
    rounding = find_rounding(layout, rules)
    if total and net and tax:
        total = _repair_total(layout, total, net, tax, rounding)
    found.update(total=total, net=net, tax=tax, rounding=rounding)
    rate = find_tax_rate(layout, tax, rules)
    if rate:
        found["tax_rate"] = TextField(rate[0], rate[1], DERIVED_CONFIDENCE * rate[1][0].score)
    currency = find_currency(layout, rules)
    if currency:
        found["currency"] = TextField(currency[0], currency[1], currency[2] * currency[1][0].score)
    return {k: v for k, v in found.items() if v is not None}


def _template_fields(layout: Layout, template: VendorTemplate, rules: Rules) -> dict[str, Field]:
    """A template's fixed values and its per-field patterns (group ``value``, else the whole match)."""
    out = {name: Field(name, value, 1.0, (), "template") for name, value in template.fields.items()}
    for name, patterns in template.patterns.items():
        hit = _first_match(layout, patterns)
        if hit is None:
            continue
        line, text = hit
        if name == "date":
            text = parse_date(text, rules.date_order, rules.months) or ""
        elif name in AMOUNTS:
            value = to_decimal(text.replace(" ", ""))
            text = format_amount(value) if value is not None else ""
        if text:
            out[name] = Field(name, text, round(0.95 * line.score, 3), (line.index,), line.text)
    return out


def _first_match(layout: Layout, patterns: tuple) -> tuple[LayoutLine, str] | None:
    for pattern in patterns:
        for line in layout.top_down():
            m = pattern.search(line.text)
            if m:
                return line, (m.groupdict().get("value") or m[0]).strip()
    return None


def extract_fields(page: PageResult, rules: Rules | None = None) -> InvoiceFields:
    """Vendor, address, number, date, net, tax, tax rate, total, currency (and the VAT invoice fields)
    of one page, each with its confidence and source lines, and the checks run on them."""
    if page.exact_fields:  # an e-invoice's own data (OFD, 数电票 XML): nothing to guess
        return exact_invoice_fields(page)
    rules = rules or default_rules()
    layout = Layout.of(page)
    template = rules.template_for(page.text)
    if template is not None:
        rules = rules.with_template(template)
    found = _generic(layout, rules)
    vat = is_vat_invoice(layout, rules)
    if vat:
        found.update(extract_vat(layout, rules))
        if "seller_name" in found:
            found["vendor"] = found["seller_name"]
            found.pop("address", None)
        if "currency" not in found or found["currency"].value != "CNY":
            lines = found["total"].lines if "total" in found else ()
            found["currency"] = TextField("CNY", lines, 0.9)
    fields = {name: _field(name, f) for name, f in found.items()}
    if "rounding" in fields and Decimal(fields["rounding"].value) == 0:
        del fields["rounding"]
    if template is not None:
        fields.update(_template_fields(layout, template, rules))
    kind: DocumentKind = "vat_invoice" if vat else "invoice" if _says_invoice(layout, rules) else "receipt"
    language = "zh" if cjk_share(page.text) > 0.3 else "en"
    checks = tuple(run_checks(fields, kind))
    found_fields = InvoiceFields(fields, checks, kind, language, template.name if template else "")
    qr = first_fapiao_qr(page.codes) if vat else None  # decoded from the image (core.fields.page_codes)
    return cross_check(found_fields, qr) if qr is not None else found_fields


def _says_invoice(layout: Layout, rules: Rules) -> bool:
    return any(is_title(ln, rules) and "INVOICE" in ln.norm for ln in layout.lines)
