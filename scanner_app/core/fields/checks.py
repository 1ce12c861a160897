"""Consistency checks over extracted fields; a failed check flags the fields it names."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal

from scanner_app.core.fields.amounts import CENT, parse_chinese_upper, to_decimal
from scanner_app.core.fields.uscc import LENGTH, is_valid_uscc, looks_like_tax_id
from scanner_app.core.fields.values import Check, DocumentKind, Field
from scanner_app.core.fields.vat_checks import item_checks

AMOUNT_FIELDS = ("net", "tax", "total", "rounding")


def _amount(fields: Mapping[str, Field], name: str) -> Decimal | None:
    f = fields.get(name)
    if f is None or not f.value.strip():
        return None
    return to_decimal(f.value.strip().lstrip("¥$€£").replace(" ", ""))


def _format_checks(fields: Mapping[str, Field]) -> list[Check]:
    out = []
    for name in AMOUNT_FIELDS:
        f = fields.get(name)
        if f is not None and f.value.strip() and _amount(fields, name) is None:
            out.append(Check(f"{name}_format", False, f"{name} {f.value!r} is not an amount", (name,)))
    date = fields.get("date")
    if date is not None and date.value:
        try:
            dt.date.fromisoformat(date.value)
        except ValueError:
            out.append(Check("date_format", False, f"date {date.value!r} is not YYYY-MM-DD", ("date",)))
    return out


def _sum_check(fields: Mapping[str, Field]) -> list[Check]:
    net, tax, total = (_amount(fields, n) for n in ("net", "tax", "total"))
    if net is None or tax is None or total is None:
        return []
    rounding = _amount(fields, "rounding") or Decimal(0)
    ok = abs(net + tax - total) <= CENT or abs(net + tax + rounding - total) <= CENT
    names = ("net", "tax", "total") + (("rounding",) if rounding else ())
    extra = f" {rounding:+}" if rounding else ""
    return [
        Check("net_tax_total", ok, f"net {net} + tax {tax}{extra} {'=' if ok else '!='} total {total}", names)
    ]


def _rate_check(fields: Mapping[str, Field]) -> list[Check]:
    net, tax = _amount(fields, "net"), _amount(fields, "tax")
    rate_field = fields.get("tax_rate")
    if net is None or tax is None or rate_field is None or not rate_field.value:
        return []
    rate = to_decimal(rate_field.value.strip().rstrip("%"))
    if rate is None:
        return [Check("tax_rate", False, f"tax rate {rate_field.value!r} is not a percentage", ("tax_rate",))]
    expected = net * rate / 100
    ok = abs(expected - tax) <= max(Decimal("0.05"), abs(expected) * Decimal("0.002"))
    return [
        Check(
            "tax_rate", ok, f"net {net} x {rate}% = {expected.quantize(CENT)}, tax {tax}", ("tax", "tax_rate")
        )
    ]


def _words_check(fields: Mapping[str, Field]) -> list[Check]:
    words, total = fields.get("total_words"), _amount(fields, "total")
    if words is None or not words.value or total is None:
        return []
    value = parse_chinese_upper(words.value)
    if value is None:
        return [
            Check("total_words", False, f"大写 {words.value!r} does not read as an amount", ("total_words",))
        ]
    ok = value == total.quantize(CENT)
    msg = f"大写 {value} {'=' if ok else '!='} 小写 {total.quantize(CENT)}"
    return [Check("total_words", ok, msg, ("total_words", "total"))]


def _tax_id_checks(fields: Mapping[str, Field]) -> list[Check]:
    out = []
    for name in ("buyer_tax_id", "seller_tax_id"):
        f = fields.get(name)
        if f is None or not f.value:
            continue
        code = f.value.strip().upper()
        if len(code) == LENGTH:
            ok = is_valid_uscc(code)
            msg = f"{code}: unified social credit code check character {'ok' if ok else 'wrong'}"
        else:
            ok = looks_like_tax_id(code)
            what = "an older taxpayer number" if ok else "not a taxpayer number"
            msg = f"{code}: {what} ({len(code)} characters)"
        out.append(Check(f"{name}_checksum", ok, msg, (name,)))
    return out


def run_checks(fields: Mapping[str, Field], kind: DocumentKind = "receipt") -> list[Check]:
    """Every check that applies to these fields (formats, sums, tax rate, 大写, USCC)."""
    return [
        *_format_checks(fields),
        *_sum_check(fields),
        *_rate_check(fields),
        *_words_check(fields),
        *_tax_id_checks(fields),
        *item_checks(fields),
    ]
