"""Vendor and address: the prominent lines at the top of a page, before the first transaction line."""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from dataclasses import dataclass

from scanner_app.core.fields.dates import find_dates
from scanner_app.core.fields.layout import Layout, LayoutLine
from scanner_app.core.fields.rules import Rules
from scanner_app.core.fields.text import any_keyword, best_keyword, clean_value, is_cjk

_PHONE = re.compile(r"^[\d\s()+\-/.]{7,}$")
MAX_SKIPPED = 4  # lines between the vendor and the first address line (registration no., branch names)
DERIVED_CONFIDENCE = 0.9  # how much less than its lines a field found by layout is trusted (address, rate)


@dataclass(frozen=True)
class TextField:
    value: str
    lines: tuple[LayoutLine, ...]
    confidence: float


def is_title(line: LayoutLine, rules: Rules) -> bool:
    """A document title line such as "TAX INVOICE" or "-RECEIPT-" (the title and little else)."""
    hit = best_keyword(line.norm, rules.words("title"))
    if hit is None:
        return False
    letters = sum(c.isalpha() for c in line.norm)
    return letters <= sum(c.isalpha() for c in hit[0].text) + 8


def is_stop(line: LayoutLine, rules: Rules) -> bool:
    """A line that ends the header: a title, a date, a total, a document-number label."""
    return (
        is_title(line, rules)
        or bool(find_dates(line.norm, rules.date_order, rules.months))
        or any_keyword(line.norm, rules.words("total"))
        or any_keyword(line.norm, rules.words("number"))
    )


def is_registration(line: LayoutLine, rules: Rules) -> bool:
    return any(p.search(line.norm) for p in rules.pattern_list("registration"))


def address_score(line: LayoutLine, rules: Rules) -> float:
    hit = best_keyword(line.norm, rules.words("address"))
    score = hit[0].weight if hit else 0.0
    if any(p.search(line.norm) for p in rules.pattern_list("postcode")):
        score += 2
    if any(p.search(line.norm) for p in rules.pattern_list("street")):
        score += 1
    return score


def header_lines(layout: Layout, rules: Rules) -> list[LayoutLine]:
    """Lines above the first stop line (and on its row), stop lines themselves left out."""
    ordered = layout.top_down()
    stops = [ln for ln in ordered if is_stop(ln, rules)]
    limit = stops[0].y1 if stops else layout.height * 0.4
    return [ln for ln in ordered if ln.cy <= limit and ln not in stops]


def _vendor_score(line: LayoutLine, rank: int, layout: Layout, rules: Rules) -> float | None:
    letters = [c for c in line.norm if c.isalpha()]
    if len(letters) < 3 or sum(c.isdigit() for c in line.norm) > len(letters):
        return None
    if is_registration(line, rules) or any_keyword(line.norm, rules.words("vendor_exclude")):
        return None
    company = best_keyword(line.norm, rules.words("company"))
    score = 1.0 + (company[0].weight if company else 0.0)
    if not company and (address_score(line, rules) >= 2 or _HOUSE.match(line.norm)):
        return None  # an address line (``23, JLN ...``), not a name
    raw_letters = [c for c in line.text if c.isalpha()]
    if all(is_cjk(c) for c in raw_letters) or sum(c.isupper() for c in raw_letters) >= 0.8 * len(raw_letters):
        score += 1.0
    if _address_after(line, layout, rules):
        score += 2.0
    return score - 0.15 * rank


def find_vendor(layout: Layout, rules: Rules) -> TextField | None:
    """The best-scoring header line: company keywords, an address below it, capitals, nearness to
    the top; joined with the parts of the name OCR read as other lines (see ``vendor_lines``)."""
    scored = []
    for rank, line in enumerate(header_lines(layout, rules)):
        score = _vendor_score(line, rank, layout, rules)
        if score is not None:
            scored.append((score, line))
    if not scored:
        return None
    score, line = max(scored, key=lambda s: s[0])
    lines = vendor_lines(line, layout, rules)
    confidence = 0.9 if score >= 4 else 0.75 if score >= 2.5 else 0.5
    text = _repair_suffix(_strip_registration(" ".join(ln.text.strip() for ln in lines)))
    return TextField(clean_value(fold_accents(text)), lines, confidence * line.score)


def _company_suffix(line: LayoutLine, rules: Rules) -> bool:
    hit = best_keyword(line.norm, rules.words("company"))
    return hit is not None and hit[0].weight >= 3


def _name_part(line: LayoutLine, rules: Rules) -> bool:
    """A line that can be part of a vendor's name: letters, no registration, phone, address or stop."""
    letters = sum(c.isalpha() for c in line.norm)
    return (
        letters >= 2
        and sum(c.isdigit() for c in line.norm) <= letters
        and not is_registration(line, rules)
        and not is_stop(line, rules)
        and not _PHONE.match(line.norm)
        and not any_keyword(line.norm, rules.words("vendor_exclude"))
        and not any_keyword(line.norm, rules.words("address_stop"))
        and address_score(line, rules) < 2
    )


def _like(a: LayoutLine, b: LayoutLine) -> bool:
    """Set in the same type: heights within 30 %."""
    return 0.7 <= a.h / b.h <= 1.0 / 0.7


def vendor_lines(line: LayoutLine, layout: Layout, rules: Rules) -> tuple[LayoutLine, ...]:
    """The vendor's name, which OCR may have split: pieces on the same row within a gap of 2 heights,
    4 for a lone suffix (``BOOK TA .K (TAMAN DAYA) SDN`` + ``BHD``), and a line above or below in the
    same type when only one of the two carries the company suffix (``S.H.H. MOTOR (SUNGAI RENGIT)``
    over ``SDN. BHD.``)."""
    parts = [line]
    # A line holding only the suffix ("BHD") was cut off its name: reach further for the rest.
    reach = (4.0 if _suffix_first(parts, rules) else 2.0) * line.h
    for other in layout.right_of(line):
        if (
            other.x0 - parts[-1].x1 > reach
            or not _like(other, line)
            or not _name_part_or_suffix(other, rules)
        ):
            break
        parts.append(other)
    for other in layout.left_of(line):
        if parts[0].x0 - other.x1 > reach or not _like(other, line) or not _name_part(other, rules):
            break
        parts.insert(0, other)
    has_suffix = any(_company_suffix(ln, rules) for ln in parts)
    above = _adjacent(layout, parts, up=True)
    below = _adjacent(layout, parts, up=False)
    if has_suffix and above is not None and _name_part(above, rules) and _suffix_first(parts, rules):
        return (above, *parts)
    if (
        not has_suffix
        and below is not None
        and _company_suffix(below, rules)
        and _name_part_or_suffix(below, rules)
    ):
        return (*parts, below)
    return tuple(parts)


def _name_part_or_suffix(line: LayoutLine, rules: Rules) -> bool:
    """A name part, or the suffix with the company number after it (``SDN BHD (1234567-X)``)."""
    if is_registration(line, rules) or any_keyword(line.norm, rules.words("vendor_exclude")):
        return False
    return _name_part(line, rules) or _company_suffix(line, rules)


def _suffix_first(parts: list[LayoutLine], rules: Rules) -> bool:
    """The name's line holds little but the suffix (``SDN BHD``, ``(SETIA ALAM) SDN BHD``)."""
    text = " ".join(ln.norm for ln in parts)
    hit = best_keyword(text, rules.words("company"))
    if hit is None:
        return False
    before = re.sub(r"\([^)]*\)", " ", text[: hit[1].start()])
    return sum(len(w) >= 2 and any(c.isalpha() for c in w) for w in before.split()) == 0


def _adjacent(layout: Layout, parts: list[LayoutLine], up: bool) -> LayoutLine | None:
    """The line right above (or below) ``parts``, in the same type, overlapping them, within 0.8 heights."""
    x0, x1 = min(ln.x0 for ln in parts), max(ln.x1 for ln in parts)
    y0, y1 = min(ln.y0 for ln in parts), max(ln.y1 for ln in parts)
    h = parts[0].h
    best = None
    for other in layout.lines:
        if other in parts or min(other.x1, x1) <= max(other.x0, x0) or not _like(other, parts[0]):
            continue
        gap = y0 - other.y1 if up else other.y0 - y1
        if -0.3 * h <= gap <= 0.8 * h and (best is None or gap < best[0]):
            best = (gap, other)
    return best[1] if best else None


# A company number in brackets: (256864-P), (CO. REG NO 12345-X), (No.193573-M).
_REG = r"[(\[]\s*(?:CO\.?\s*(?:REG\.?\s*)?)?(?:NO\.?\s*:?\s*)?[A-Z]{0,3}\d{4,}-?[A-Z]?\s*[)\]]"
_TRAILING_REG = re.compile(r"\s*" + _REG + r"\s*$", re.IGNORECASE)
_LEADING_REG = re.compile(r"^\s*" + _REG + r"\s*", re.IGNORECASE)


def _strip_registration(text: str) -> str:
    """A name or address without a company number printed on the same line, ``(256864-P)``."""
    return _LEADING_REG.sub("", _TRAILING_REG.sub("", text))


# Small print can read the D of the legal suffix ``SDN BHD`` as O or 0 (``SUN VICTORY SON BHD``);
# ``& SON BHD`` / ``AND SON BHD`` (a family firm) is left alone.
_SON_BHD = re.compile(r"(?<!&\s)(?<!&)(?<!AND\s)\bS[O0]N(?=\.?\s*BHD\b)", re.IGNORECASE)


def _repair_suffix(text: str) -> str:
    """``SDN BHD`` where OCR read ``SON BHD`` / ``S0N BHD``."""
    return _SON_BHD.sub(lambda m: m[0][0] + ("D" if m[0][2].isupper() else "d") + m[0][2], text)


def fold_accents(text: str) -> str:
    """Latin text without stray accents (``HARDWARÉ``): kept as is when it is not mostly ASCII letters."""
    letters = [c for c in text if c.isalpha()]
    if not letters or sum(not c.isascii() for c in letters) > 0.1 * len(letters):
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    folded = "".join(c for c in decomposed if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", folded)


def _next_below(layout: Layout, line: LayoutLine, anchor: LayoutLine) -> LayoutLine | None:
    """The nearest line below ``line`` overlapping ``anchor`` horizontally, within 2 heights."""
    for other in layout.below(line, 2.0):
        # Below the line's middle by 0.4 heights: OCR boxes of tightly set lines overlap.
        lower = other.cy >= line.cy + 0.4 * min(line.h, other.h)
        if other is not line and lower and min(other.x1, anchor.x1) > max(other.x0, anchor.x0):
            return other
    return None


def _ends_address(line: LayoutLine, rules: Rules) -> bool:
    return (
        is_stop(line, rules)
        or any_keyword(line.norm, rules.words("address_stop"))
        or bool(_PHONE.match(line.norm))
    )


def _address_start(line: LayoutLine, rules: Rules) -> bool:
    """A line that can open an address although it scores low: a house number (``NO 7,``, ``27,``,
    ``LOT 5``), or any address word."""
    return address_score(line, rules) >= 1 or bool(_HOUSE.match(line.norm))


_HOUSE = re.compile(r"^(?:NO|LOT|UNIT|BLK|BLOCK)\b\.?\s*:?\s*\d|^\d{1,5}[A-Z]?\b(?:\s*[-&,/]|\s+[A-Z])")


def _address_after(vendor: LayoutLine, layout: Layout, rules: Rules) -> list[LayoutLine]:
    """Address lines under the vendor: up to MAX_SKIPPED other lines, then an address-like line and
    the lines following it until a phone, tax or registration number, title, date or a gap. Lines
    skipped just before the first address line join it when they open an address (``NO 7, ...``)."""
    lines: list[LayoutLine] = []
    passed: list[LayoutLine] = []
    current, skipped = vendor, 0
    while (nxt := _next_below(layout, current, vendor)) is not None:
        current = nxt
        if is_registration(nxt, rules):
            if lines:
                break
            skipped += 1
            passed.clear()
            continue
        if is_stop(nxt, rules):
            break
        if _ends_address(nxt, rules):  # a phone or tax number: after the address, or before it
            if lines:
                break
            skipped += 1
            passed.clear()
            continue
        if lines or address_score(nxt, rules) >= 2:
            if not lines:
                while passed and _address_start(passed[-1], rules):
                    lines.insert(0, passed.pop())
            lines.append(nxt)
        else:
            skipped += 1
            passed.append(nxt)
        if skipped > MAX_SKIPPED:
            break
    return lines


def find_address(layout: Layout, rules: Rules, vendor: TextField | None) -> TextField | None:
    if vendor is None:
        return None
    last = max(vendor.lines, key=lambda ln: ln.y1)  # the name's lowest line, as wide as the whole name
    span = dataclasses.replace(
        last, x0=min(ln.x0 for ln in vendor.lines), x1=max(ln.x1 for ln in vendor.lines)
    )
    lines = _address_after(span, layout, rules)
    if not lines:
        return None
    text = " ".join(_strip_registration(ln.text.strip()) for ln in lines)
    text = fold_accents(_digit_os(text))
    # a clean read (lines >= 0.89) stays above LOW_CONFIDENCE (0.80)
    confidence = DERIVED_CONFIDENCE * sum(ln.score for ln in lines) / len(lines)
    return TextField(clean_value(text), tuple(lines), confidence)


def _digit_os(text: str) -> str:
    """Letter O read for zero inside a house number or postcode (``NO 29O``, ``5O480``), and a stray
    quote OCR put between a word and its number (``Level'6``)."""
    text = re.sub(r"(?<=[A-Za-z])['`](?=\d)", " ", text)
    return (
        re.sub(r"(?<=\d)[Oo]|(?<![A-Za-z])[Oo](?=\d)", "0", text)
        if re.search(r"\d[Oo]|[Oo]\d", text)
        else text
    )
