"""Document number and date: keyword-anchored, with the first date on the page as a fallback."""

from __future__ import annotations

import re

from scanner_app.core.fields.dates import find_dates
from scanner_app.core.fields.header import TextField
from scanner_app.core.fields.layout import Layout, LayoutLine
from scanner_app.core.fields.rules import Rules
from scanner_app.core.fields.text import Keyword, any_keyword, best_keyword

_TIME = re.compile(r"\d{1,2}:\d{2}")
_TOKEN = re.compile(r"[A-Z0-9][A-Z0-9\-/_.#]*\d[A-Z0-9\-/_.]*|\d+")


def _label_context(layout: Layout, line: LayoutLine) -> str:
    """The line's text with the text of its left-hand neighbour (where a label may sit)."""
    left = layout.left_of(line)[:1]
    return " ".join([*(ln.norm for ln in left), line.norm])


def find_date(layout: Layout, rules: Rules) -> TextField | None:
    """The date next to the heaviest date keyword; else the first date on the page (top down).
    Dates beside an excluded keyword (due date, expiry) are never taken."""
    best: tuple[float, float, str, tuple[LayoutLine, ...]] | None = None
    for line in layout.top_down():
        dates = find_dates(line.norm, rules.date_order, rules.months)
        if not dates:
            continue
        context = _label_context(layout, line)
        if any_keyword(context, rules.words("date_exclude")):
            continue
        hit = best_keyword(context, rules.words("date"))
        weight = (hit[0].weight if hit else 0.0) + (1.0 if _TIME.search(layout.row_text(line)) else 0.0)
        label = tuple(ln for ln in layout.left_of(line)[:1] if hit and hit[1].start() < len(ln.norm))
        cand = (weight, -line.cy, dates[0].iso, (*label, line))
        if best is None or cand[:2] > best[:2]:
            best = cand
    if best is None:
        return None
    weight, _, iso, lines = best
    confidence = 0.95 if weight >= 8 else 0.9 if weight >= 5 else 0.75 if weight > 0 else 0.7
    return TextField(iso, lines, confidence * lines[-1].score)


def labelled_token(
    layout: Layout,
    include: tuple[Keyword, ...],
    exclude: tuple[Keyword, ...],
    token: re.Pattern[str] = _TOKEN,
) -> TextField | None:
    """The code after the heaviest keyword: on its line after the keyword, else the nearest line to
    its right, else the line just below; the token must contain a digit."""
    best: tuple[float, float, str, tuple[LayoutLine, ...]] | None = None
    for line in layout.lines:
        hit = best_keyword(line.norm, include)
        if hit is None or any_keyword(line.norm, exclude):
            continue
        found: tuple[str, tuple[LayoutLine, ...]] | None = None
        m = token.search(line.norm[hit[1].end() :].lstrip(" .:：#"))
        if m:
            found = (m[0], (line,))
        else:
            for other in [*layout.right_of(line)[:2], *layout.below(line, 1.0)[:1]]:
                m = token.search(other.norm)
                if m and other is not line:
                    found = (m[0], (line, other))
                    break
        if found and (best is None or (hit[0].weight, -line.cy) > best[:2]):
            best = (hit[0].weight, -line.cy, found[0].strip(".-/#"), found[1])
    if best is None:
        return None
    weight, _, value, lines = best
    confidence = (0.9 if weight >= 7 else 0.75 if weight >= 4 else 0.55) * lines[-1].score
    return TextField(value, lines, confidence)


def find_number(layout: Layout, rules: Rules) -> TextField | None:
    """The invoice/receipt number: a template or rules pattern first, then keyword-anchored."""
    for pattern in rules.pattern_list("number"):
        for line in layout.top_down():
            m = pattern.search(line.text)
            if m:
                value = m.groupdict().get("value") or m[0]
                return TextField(value.strip(), (line,), 0.95 * line.score)
    return labelled_token(layout, rules.words("number"), rules.words("number_exclude"))
