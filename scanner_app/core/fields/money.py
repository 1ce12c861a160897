"""Total, net, tax, tax rate, rounding and currency: keyword-anchored amounts with fallbacks."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import Decimal

from scanner_app.core.fields.amounts import find_amounts
from scanner_app.core.fields.layout import Layout, LayoutLine
from scanner_app.core.fields.rules import Rules
from scanner_app.core.fields.text import Keyword, any_keyword, best_keyword

_PERCENT = re.compile(r"(?<![\d.])(\d{1,2}(?:\.\d{1,2})?)\s*%")


@dataclass(frozen=True)
class Amount:
    """An amount read for a field: value, the lines it came from, keyword weight, confidence."""

    value: Decimal
    lines: tuple[LayoutLine, ...]
    weight: float
    confidence: float
    raw: str


def value_for(
    layout: Layout, line: LayoutLine, start: int = 0, below: bool = True
) -> tuple[Decimal, tuple[LayoutLine, ...]] | None:
    """The amount a label line carries: the last amount after ``start`` in its own text, else in
    the nearest line to its right holding one, else (``below``) a line just below that is only an
    amount (a value stacked under its label)."""
    own = find_amounts(line.norm[start:])
    if own:
        return own[-1].value, (line,)
    for other in layout.right_of(line):
        found = find_amounts(other.norm)
        if found:
            return found[-1].value, (line, other)
    if below:
        for other in layout.below(line, 1.2)[:1]:
            found = find_amounts(other.norm)
            if len(found) == 1 and len(other.norm) <= found[0].end - found[0].start + 4:
                return found[0].value, (line, other)
    return None


def labelled(layout: Layout, include: tuple[Keyword, ...], exclude: tuple[Keyword, ...]) -> list[Amount]:
    """Every amount carried by a line holding an ``include`` keyword and no ``exclude`` one."""
    out = []
    for line in layout.lines:
        hit = best_keyword(line.norm, include)
        if hit is None or any_keyword(line.norm, exclude):
            continue
        found = value_for(layout, line, hit[1].end())
        if found:
            value, lines = found
            conf = 0.95 if hit[0].weight >= 8 else 0.85 if hit[0].weight >= 5 else 0.6
            raw = " ".join(ln.text for ln in lines)
            out.append(Amount(value, lines, hit[0].weight, conf, raw))
    return out


def find_total(layout: Layout, rules: Rules) -> Amount | None:
    """The heaviest-keyword total (non-zero first, then larger, then lower on the page), adjusted by a
    rounding line printed below it; else the largest amount in the page's lower part."""
    cands = _after_rounding(
        layout, rules, labelled(layout, rules.words("total"), rules.words("total_exclude"))
    )
    pool = [c for c in cands if c.value > 0] or cands
    if pool:
        best = max(pool, key=lambda c: (c.weight, c.value, c.lines[0].cy))
        return _rounded(layout, rules, best)
    lower = [ln for ln in layout.lines if ln.cy > layout.height / 3]
    amounts = [(a.value, ln) for ln in lower for a in find_amounts(ln.norm)]
    if not amounts:
        return None
    value, line = max(amounts, key=lambda a: (a[0], a[1].cy))
    return Amount(value, (line,), 0.0, 0.4, line.text)


def _after_rounding(layout: Layout, rules: Rules, cands: list[Amount]) -> list[Amount]:
    """The total label right below a rounding line shows the rounded total: +1 weight."""
    rounding = find_rounding(layout, rules)
    if rounding is None:
        return cands
    below = [c for c in cands if c.lines[0].cy > rounding.lines[0].cy]
    if not below:
        return cands
    nearest = min(below, key=lambda c: c.lines[0].cy)
    return [replace(c, weight=c.weight + 1) if c is nearest else c for c in cands]


def find_rounding(layout: Layout, rules: Rules) -> Amount | None:
    """A non-zero rounding adjustment line, if the page has one."""
    for cand in labelled(layout, rules.words("rounding"), ()):
        if cand.value != 0 and abs(cand.value) < 1:
            return cand
    return None


def _rounded(layout: Layout, rules: Rules, best: Amount) -> Amount:
    """``best`` plus a rounding adjustment printed below it (preferring the line showing the sum)."""
    rounding = find_rounding(layout, rules)
    if rounding is None or rounding.lines[0].cy <= best.lines[0].cy:
        return best
    expected = best.value + rounding.value
    for line in sorted(layout.lines, key=lambda ln: ln.cy):
        if line.cy > rounding.lines[0].cy and any(a.value == expected for a in find_amounts(line.norm)):
            label = layout.left_of(line)[:1]
            lines = (*label, line)
            return Amount(
                expected, lines, best.weight, best.confidence * 0.9, " ".join(ln.text for ln in lines)
            )
    return Amount(expected, best.lines + rounding.lines, best.weight, best.confidence * 0.8, best.raw)


def find_net(layout: Layout, rules: Rules) -> Amount | None:
    cands = labelled(layout, rules.words("net"), rules.words("net_exclude"))
    return max(cands, key=lambda c: (c.weight, -c.lines[0].cy), default=None)


def find_tax(layout: Layout, rules: Rules) -> Amount | None:
    cands = labelled(layout, rules.words("tax"), rules.words("tax_exclude") + rules.words("net"))
    return max(cands, key=lambda c: (c.weight, -c.lines[0].cy), default=None)


def find_tax_rate(
    layout: Layout, tax: Amount | None, rules: Rules
) -> tuple[str, tuple[LayoutLine, ...]] | None:
    """The percentage on the tax line's row, else one on a line naming a tax keyword."""
    rows = [tax.lines[0]] if tax else []
    rows += [ln for ln in layout.lines if any_keyword(ln.norm, rules.words("tax"))]
    for line in rows:
        m = _PERCENT.search(layout.row_text(line))
        if m and Decimal(m[1]) > 0:
            return f"{Decimal(m[1]).normalize():f}%", (line,)
    return None


def find_currency(layout: Layout, rules: Rules) -> tuple[str, tuple[LayoutLine, ...], float] | None:
    """ISO 4217 code: a "Currency:" label, else the currency token seen most often on the page."""
    for line in layout.lines:
        hit = best_keyword(line.norm, rules.words("currency_label"))
        if hit:
            tail = " ".join([line.norm[hit[1].end() :], *(ln.norm for ln in layout.right_of(line))])
            m = re.search(r"[A-Z]{3}", tail)
            if m:
                return rules.currencies.get(m[0], m[0]), (line,), 0.95
    counts: dict[str, list[LayoutLine]] = {}
    for line in layout.lines:
        for token, code in rules.currencies.items():
            pattern = rf"(?<![A-Z]){re.escape(token)}(?![A-Z])" if token[:1].isalpha() else re.escape(token)
            if re.search(pattern, line.norm):
                counts.setdefault(code, []).append(line)
                break
    if not counts:
        return None
    code, lines = max(counts.items(), key=lambda kv: len(kv[1]))
    return code, tuple(lines[:3]), 0.85 if len(lines) > 1 else 0.7
