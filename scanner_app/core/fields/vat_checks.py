"""Checks over a VAT invoice's item lines (``itemN_*`` fields): the items add up to the 合计
金额 and 税额, and each line's quantity x unit price and amount x rate agree with what it prints."""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal

from scanner_app.core.fields.amounts import CENT, to_decimal
from scanner_app.core.fields.values import Check, Field

_ITEM = re.compile(r"item(\d+)_amount$")


def _number(fields: Mapping[str, Field], name: str) -> Decimal | None:
    f = fields.get(name)
    return to_decimal(f.value.strip().lstrip("¥").rstrip("%")) if f and f.value.strip() else None


def item_numbers(fields: Mapping[str, Field]) -> list[int]:
    """The item numbers present (those with an amount), in order."""
    return sorted(int(m[1]) for name in fields for m in [_ITEM.match(name)] if m)


def _sum(fields: Mapping[str, Field], items: list[int], key: str, target: str, what: str) -> list[Check]:
    total = _number(fields, target)
    read = [_number(fields, f"item{n}_{key}") for n in items]
    values = [v for v in read if v is not None]
    if total is None or not items or len(values) < len(read):
        return []
    got = sum(values, Decimal(0))
    ok = abs(got - total) <= CENT
    names = (target, *(f"item{n}_{key}" for n in items))
    return [Check(f"items_{target}", ok, f"items' {what} {got} {'=' if ok else '!='} 合计 {total}", names)]


def _line(fields: Mapping[str, Field], n: int) -> list[Check]:
    out = []
    qty, price, amount = (_number(fields, f"item{n}_{k}") for k in ("quantity", "unit_price", "amount"))
    if qty is not None and price is not None and amount is not None:
        expected = (qty * price).quantize(CENT)
        ok = abs(expected - amount) <= CENT
        out.append(Check(f"item{n}_amount", ok, f"item {n}: {qty} x {price} = {expected}, amount {amount}",
                         (f"item{n}_quantity", f"item{n}_unit_price", f"item{n}_amount")))  # fmt: skip
    rate, tax = _number(fields, f"item{n}_tax_rate"), _number(fields, f"item{n}_tax")
    if amount is not None and rate is not None and tax is not None:
        expected = (amount * rate / 100).quantize(CENT)
        ok = abs(expected - tax) <= CENT
        out.append(Check(f"item{n}_tax", ok, f"item {n}: {amount} x {rate}% = {expected}, tax {tax}",
                         (f"item{n}_amount", f"item{n}_tax_rate", f"item{n}_tax")))  # fmt: skip
    return out


def item_checks(fields: Mapping[str, Field]) -> list[Check]:
    """Items' amounts sum to net, their taxes to tax; each line's own arithmetic."""
    items = item_numbers(fields)
    if not items:
        return []
    out = [*_sum(fields, items, "amount", "net", "amounts"), *_sum(fields, items, "tax", "tax", "taxes")]
    for n in items:
        out += _line(fields, n)
    return out
