"""Vendor and address: the prominent lines at the top of a page, before the first transaction line."""

from __future__ import annotations

import re
from dataclasses import dataclass

from scanner_app.core.fields.dates import find_dates
from scanner_app.core.fields.layout import Layout, Line
from scanner_app.core.fields.rules import Rules
from scanner_app.core.fields.text import any_keyword, best_keyword, clean_value, is_cjk

_PHONE = re.compile(r"^[\d\s()+\-/.]{7,}$")
MAX_SKIPPED = 4  # lines between the vendor and the first address line (registration no., branch names)


@dataclass(frozen=True)
class TextField:
    value: str
    lines: tuple[Line, ...]
    confidence: float


def is_title(line: Line, rules: Rules) -> bool:
    """A document title line such as "TAX INVOICE" or "-RECEIPT-" (the title and little else)."""
    hit = best_keyword(line.norm, rules.words("title"))
    if hit is None:
        return False
    letters = sum(c.isalpha() for c in line.norm)
    return letters <= sum(c.isalpha() for c in hit[0].text) + 8


def is_stop(line: Line, rules: Rules) -> bool:
    """A line that ends the header: a title, a date, a total, a document-number label."""
    return (
        is_title(line, rules)
        or bool(find_dates(line.norm, rules.date_order, rules.months))
        or any_keyword(line.norm, rules.words("total"))
        or any_keyword(line.norm, rules.words("number"))
    )


def is_registration(line: Line, rules: Rules) -> bool:
    return any(p.search(line.norm) for p in rules.pattern_list("registration"))


def address_score(line: Line, rules: Rules) -> float:
    hit = best_keyword(line.norm, rules.words("address"))
    score = hit[0].weight if hit else 0.0
    if any(p.search(line.norm) for p in rules.pattern_list("postcode")):
        score += 2
    if any(p.search(line.norm) for p in rules.pattern_list("street")):
        score += 1
    return score


def header_lines(layout: Layout, rules: Rules) -> list[Line]:
    """Lines above the first stop line (and on its row), stop lines themselves left out."""
    ordered = layout.top_down()
    stops = [ln for ln in ordered if is_stop(ln, rules)]
    limit = stops[0].y1 if stops else layout.height * 0.4
    return [ln for ln in ordered if ln.cy <= limit and ln not in stops]


def _vendor_score(line: Line, rank: int, layout: Layout, rules: Rules) -> float | None:
    letters = [c for c in line.norm if c.isalpha()]
    if len(letters) < 3 or sum(c.isdigit() for c in line.norm) > len(letters):
        return None
    if is_registration(line, rules) or any_keyword(line.norm, rules.words("vendor_exclude")):
        return None
    company = best_keyword(line.norm, rules.words("company"))
    score = 1.0 + (company[0].weight if company else 0.0)
    if not company and address_score(line, rules) >= 2:
        return None
    raw_letters = [c for c in line.text if c.isalpha()]
    if all(is_cjk(c) for c in raw_letters) or sum(c.isupper() for c in raw_letters) >= 0.8 * len(raw_letters):
        score += 1.0
    if _address_after(line, layout, rules):
        score += 2.0
    return score - 0.15 * rank


def find_vendor(layout: Layout, rules: Rules) -> TextField | None:
    """The best-scoring header line: company keywords, an address below it, capitals, nearness to
    the top."""
    scored = []
    for rank, line in enumerate(header_lines(layout, rules)):
        score = _vendor_score(line, rank, layout, rules)
        if score is not None:
            scored.append((score, line))
    if not scored:
        return None
    score, line = max(scored, key=lambda s: s[0])
    confidence = 0.9 if score >= 4 else 0.75 if score >= 2.5 else 0.5
    return TextField(clean_value(line.text), (line,), confidence * line.score)


def _next_below(layout: Layout, line: Line, anchor: Line) -> Line | None:
    """The nearest line below ``line`` overlapping ``anchor`` horizontally, within 2 heights."""
    for other in layout.below(line, 2.0):
        if other is not line and other.y0 >= line.cy and min(other.x1, anchor.x1) > max(other.x0, anchor.x0):
            return other
    return None


def _address_after(vendor: Line, layout: Layout, rules: Rules) -> list[Line]:
    """Address lines under the vendor: up to MAX_SKIPPED other lines, then an address-like line and
    the lines following it until a phone, tax number, title, date or a gap."""
    lines: list[Line] = []
    current, skipped = vendor, 0
    while (nxt := _next_below(layout, current, vendor)) is not None:
        current = nxt
        if is_registration(nxt, rules):
            skipped += 0 if lines else 1
            continue
        if (
            is_stop(nxt, rules)
            or any_keyword(nxt.norm, rules.words("address_stop"))
            or _PHONE.match(nxt.norm)
        ):
            break
        if lines or address_score(nxt, rules) >= 2:
            lines.append(nxt)
        else:
            skipped += 1
        if skipped > MAX_SKIPPED:
            break
    return lines


def find_address(layout: Layout, rules: Rules, vendor: TextField | None) -> TextField | None:
    if vendor is None:
        return None
    lines = _address_after(vendor.lines[0], layout, rules)
    if not lines:
        return None
    text = " ".join(ln.text.strip() for ln in lines)
    confidence = 0.8 * sum(ln.score for ln in lines) / len(lines)
    return TextField(text, tuple(lines), confidence)
