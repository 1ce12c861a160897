"""The item table of a VAT invoice: rows between the column headers (货物或应税劳务、服务名称,
规格型号, 单位, 数量, 单价, 金额, 税率, 税额) and the 合 计 row; each row's name, quantity, unit
price, amount, rate and tax, a name wrapped onto the next row joined back; and the 合计 row's
金额 and 税额 read under their column headers."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from statistics import median

from scanner_app.core.fields.amounts import find_amounts, to_decimal
from scanner_app.core.fields.layout import Layout, Line, same_row
from scanner_app.core.fields.money import Amount
from scanner_app.core.fields.rules import Rules
from scanner_app.core.fields.text import any_keyword, best_keyword, is_cjk

COLUMNS = ("spec", "unit", "qty", "price", "amount", "rate", "tax")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_RATE = re.compile(r"^(\d{1,2}(?:\.\d+)?)\s*%$|^(免税|不征税|\*+)$")


@dataclass(frozen=True)
class Item:
    """One item row as printed (numbers as their text), with the lines it was read from."""

    name: str
    quantity: str
    unit_price: str
    amount: str
    tax_rate: str
    tax: str
    lines: tuple[Line, ...]
    confidence: float


@dataclass(frozen=True)
class Table:
    """The header row's y, the 合计 row (if found) and each column header's x-centre."""

    top: float
    total_row: Line | None
    columns: dict[str, float]


def find_table(layout: Layout, rules: Rules) -> Table | None:
    header = next((ln for ln in layout.top_down() if any_keyword(ln.norm, rules.words("items_header"))), None)
    total = next((ln for ln in layout.top_down() if _is_total_row(ln, rules)
                  and (header is None or ln.cy > header.cy)), None)  # fmt: skip
    if header is None and total is None:
        return None
    columns: dict[str, float] = {}
    if header is not None:
        for line in layout.lines:
            if not same_row(line, header) or line is header:
                continue
            for name in COLUMNS:
                hit = best_keyword(line.norm, rules.words(f"col_{name}"))
                if hit and name not in columns and len(line.norm) <= len(hit[1][0]) + 2:
                    columns[name] = (line.x0 + line.x1) / 2
    top = header.y1 if header is not None else total.y0  # type: ignore[union-attr]
    return Table(top, total, columns)


def _is_total_row(line: Line, rules: Rules) -> bool:
    hit = best_keyword(line.norm, rules.words("net_tax_row"))
    return hit is not None and hit[1].start() <= 1 and "价税" not in line.norm and not any_keyword(
        line.norm, rules.words("total_words") + rules.words("total_figures")
    )


def _rows(lines: list[Line]) -> list[list[Line]]:
    """Lines grouped into rows top to bottom (boxes much taller than a row are left out)."""
    if not lines:
        return []
    h = median(ln.h for ln in lines)
    rows: list[list[Line]] = []
    for line in sorted((ln for ln in lines if ln.h <= 1.6 * h), key=lambda ln: ln.cy):
        if rows and abs(line.cy - sum(ln.cy for ln in rows[-1]) / len(rows[-1])) <= 0.45 * h:
            rows[-1].append(line)
        else:
            rows.append([line])
    return [sorted(r, key=lambda ln: ln.x0) for r in rows]


def _nearest(columns: dict[str, float], x: float, among: tuple[str, ...]) -> str | None:
    known = [c for c in among if c in columns]
    return min(known, key=lambda c: abs(columns[c] - x)) if known else None


def _cells(row: list[Line], table: Table) -> tuple[str, dict[str, str]]:
    """A row's name (its CJK/starred text at the left) and its cells by column."""
    name_parts, numbers, cells = [], [], {}
    for line in row:
        for token in unicodedata.normalize("NFKC", line.text).split():
            t = token.strip("¥")
            if _RATE.match(t):
                cells["rate"] = t
            elif _NUMBER.fullmatch(t):
                numbers.append((t, (line.x0 + line.x1) / 2))
            elif any(is_cjk(c) or c == "*" for c in t) and not numbers and "rate" not in cells:
                name_parts.append(t)
            elif "name" in cells or name_parts:
                cells.setdefault("unit" if len(t) <= 2 else "spec", t)
    name = ""
    if name_parts:
        name, rest = name_parts[0], name_parts[1:]
        for t in rest:  # spec / unit are short cells further right
            cells.setdefault("unit" if len(t) <= 2 else "spec", t)
    before = [n for n in numbers if "rate" not in cells or n[1] < _rate_x(row)]
    after = [n for n in numbers if n not in before]
    if after:
        cells["tax"] = after[-1][0]
    if before:
        cells["amount"] = before[-1][0]
        lead = before[:-1]
        if len(lead) >= 2:
            cells["qty"], cells["price"] = lead[-2][0], lead[-1][0]
        elif lead:
            col = _nearest(table.columns, lead[0][1], ("qty", "price")) or "qty"
            cells[col] = lead[0][0]
    return name, cells


def _rate_x(row: list[Line]) -> float:
    for line in row:
        if any(_RATE.match(t.strip()) for t in line.text.split()):
            return (line.x0 + line.x1) / 2
    return float("inf")


def read_items(layout: Layout, table: Table) -> list[Item]:
    """Every item row between the header and the 合计 row (or the 价税合计 row)."""
    bottom = table.total_row.y0 if table.total_row is not None else layout.height
    body = [ln for ln in layout.lines if ln.cy > table.top and ln.cy < bottom]
    items: list[Item] = []
    for row in _rows(body):
        name, cells = _cells(row, table)
        if not cells.get("amount"):
            if name and items:  # the rest of a long name, wrapped onto its own row
                prev = items[-1]
                items[-1] = Item(prev.name + name, prev.quantity, prev.unit_price, prev.amount, prev.tax_rate,
                                 prev.tax, (*prev.lines, *row), min(prev.confidence, *(ln.score for ln in row)))  # fmt: skip
            continue
        items.append(Item(name, cells.get("qty", ""), cells.get("price", ""), cells["amount"],
                          cells.get("rate", ""), cells.get("tax", ""), tuple(row),
                          min(ln.score for ln in row)))  # fmt: skip
    return items


def total_row(layout: Layout, table: Table) -> tuple[Amount | None, Amount | None]:
    """The 合计 row's 金额 (net) and 税额 (tax): each amount on the row under its column header,
    else the first two amounts in order."""
    row = table.total_row
    if row is None:
        return None, None
    found: list[tuple[Decimal, Line, float]] = []
    for line in [row, *layout.right_of(row)]:
        text = line.norm[len(line.norm) - len(line.norm.lstrip("合计 ")) :] if line is row else line.norm
        for a in find_amounts(text.replace("¥", " ")):
            found.append((a.value, line, (line.x0 + line.x1) / 2))
    net = tax = None
    if {"amount", "tax"} <= table.columns.keys():
        for value, line, x in found:
            which = _nearest(table.columns, x, ("amount", "tax"))
            amount = Amount(value, (row, line), 9.0, 0.9 * line.score, line.text)
            if which == "amount" and net is None:
                net = amount
            elif which == "tax" and tax is None:
                tax = amount
    elif len(found) >= 2:
        (v1, l1, _), (v2, l2, _) = found[:2]
        net = Amount(v1, (row, l1), 9.0, 0.9 * l1.score, l1.text)
        tax = Amount(v2, (row, l2), 9.0, 0.9 * l2.score, l2.text)
    return net, tax


def item_fields(items: list[Item]) -> dict[str, tuple[str, tuple[Line, ...], float]]:
    """``item1_name`` ... ``itemN_tax``: value, lines, confidence."""
    out = {}
    for n, item in enumerate(items, 1):
        conf = 0.9 * item.confidence
        for key in ("name", "quantity", "unit_price", "amount", "tax_rate", "tax"):
            value = getattr(item, key)
            if key in ("amount", "tax") and to_decimal(value) is not None:
                value = f"{to_decimal(value):.2f}"
            if value:
                out[f"item{n}_{key}"] = (value, item.lines, conf)
    return out
