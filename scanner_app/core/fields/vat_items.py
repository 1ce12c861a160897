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
from scanner_app.core.fields.layout import Layout, LayoutLine, same_row
from scanner_app.core.fields.money import Amount
from scanner_app.core.fields.rules import Rules
from scanner_app.core.fields.text import any_keyword, best_keyword, is_cjk

COLUMNS = ("spec", "unit", "qty", "price", "amount", "rate", "tax")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_YUAN = re.compile(r"(?<![A-Z0-9])[Y¥](?=-?\d)")  # ¥, often read as Y
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
    lines: tuple[LayoutLine, ...]
    confidence: float


@dataclass(frozen=True)
class Table:
    """The header row's y, the 合计 row (if found) and each column header's x-centre."""

    top: float
    total_row: LayoutLine | None
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


def _is_total_row(line: LayoutLine, rules: Rules) -> bool:
    hit = best_keyword(line.norm, rules.words("net_tax_row"))
    return (
        hit is not None
        and hit[1].start() <= 1
        and "价税" not in line.norm
        and not any_keyword(line.norm, rules.words("total_words") + rules.words("total_figures"))
    )


def _rows(lines: list[LayoutLine]) -> list[list[LayoutLine]]:
    """Lines grouped into rows top to bottom, each box joined to the row whose rightmost box it
    overlaps most (left to right, so a slightly crooked scan still keeps its rows); boxes much
    taller than a row are left out."""
    if not lines:
        return []
    h = median(ln.h for ln in lines)
    rows: list[list[LayoutLine]] = []
    for line in sorted((ln for ln in lines if ln.h <= 1.6 * h), key=lambda ln: ln.x0):
        best = max(rows, key=lambda r: _overlap(r[-1], line), default=None)
        if best is not None and _overlap(best[-1], line) >= 0.5 * min(best[-1].h, line.h):
            best.append(line)
        else:
            rows.append([line])
    return sorted(rows, key=lambda r: min(ln.cy for ln in r))


def _overlap(a: LayoutLine, b: LayoutLine) -> float:
    return min(a.y1, b.y1) - max(a.y0, b.y0)


def _nearest(columns: dict[str, float], x: float, among: tuple[str, ...]) -> str | None:
    known = [c for c in among if c in columns]
    return min(known, key=lambda c: abs(columns[c] - x)) if known else None


def _tokens(row: list[LayoutLine]) -> list[tuple[str, float]]:
    """A row's whitespace-separated tokens with their estimated x-centres (OCR may glue two cells)."""
    out = []
    for line in row:
        text = unicodedata.normalize("NFKC", line.text)
        for m in re.finditer(r"\S+", text):
            out.append(
                (_YUAN.sub("", m[0]), line.x0 + line.w * (m.start() + m.end()) / 2 / max(len(text), 1))
            )
    return out


def _cells(row: list[LayoutLine], table: Table) -> tuple[str, dict[str, str]]:
    """A row's name (its CJK/starred text at the left) and its cells by column: numbers are read
    by their order around the rate (quantity, unit price, amount | rate | tax)."""
    name_parts: list[str] = []
    numbers: list[tuple[str, float]] = []
    cells: dict[str, str] = {}
    rate_x = float("inf")
    for t, x in _tokens(row):
        if _RATE.match(t):
            cells["rate"], rate_x = t, x
        elif _NUMBER.fullmatch(t):
            numbers.append((t, x))
        elif any(is_cjk(c) or c == "*" for c in t) and not numbers and "rate" not in cells and not name_parts:
            name_parts.append(t)
    name = name_parts[0] if name_parts else ""
    before = [n for n in numbers if n[1] < rate_x]
    after = [n for n in numbers if n[1] > rate_x]
    if not after and numbers and _nearest(table.columns, numbers[-1][1], ("amount", "tax")) == "tax":
        before, after = numbers[:-1], numbers[-1:]  # no rate printed (免税 as ***, or lost)
    if after:
        cells["tax"] = after[-1][0]
    if before:
        cells["amount"] = before[-1][0]
        lead = before[:-1]
        if len(lead) >= 2:
            cells["qty"], cells["price"] = lead[-2][0], lead[-1][0]
        elif lead:
            cells[_nearest(table.columns, lead[0][1], ("qty", "price")) or "qty"] = lead[0][0]
    return name, cells


def read_items(layout: Layout, table: Table) -> list[Item]:
    """Every item row between the header and the 合计 row (or the 价税合计 row)."""
    bottom = table.total_row.y0 if table.total_row is not None else layout.height
    body = [ln for ln in layout.lines if ln.cy > table.top and ln.cy < bottom]
    items: list[Item] = []
    for row in _rows(body):
        name, cells = _cells(row, table)
        if not cells.get("amount"):
            prev = items[-1] if items else None
            # the rest of a long name, wrapped onto its own row under the name's start
            if name and prev is not None and abs(row[0].x0 - prev.lines[0].x0) <= 2 * row[0].h:
                conf = min(prev.confidence, *(ln.score for ln in row))
                items[-1] = Item(prev.name + name, prev.quantity, prev.unit_price, prev.amount, prev.tax_rate,
                                 prev.tax, (*prev.lines, *row), conf)  # fmt: skip
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
    found: list[tuple[Decimal, LayoutLine, float]] = []
    for line in [row, *layout.right_of(row)]:
        text = line.norm[len(line.norm) - len(line.norm.lstrip("合计 ")) :] if line is row else line.norm
        for a in find_amounts(_YUAN.sub(" ", text)):
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


def item_fields(items: list[Item]) -> dict[str, tuple[str, tuple[LayoutLine, ...], float]]:
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
