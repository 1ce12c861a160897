"""Helpers for the fields tests: a page result made from a rendered document's true lines."""

from __future__ import annotations

from collections.abc import Sequence

from scanner_app.core.results import PageResult, TextLine
from scanner_app.samples.invoices import perfect_page as page_of

__all__ = ["page_from_rows", "page_of"]


def page_from_rows(
    rows: Sequence[tuple[str, float, float]], width: int = 600, height: int = 1000
) -> PageResult:
    """A page from (text, x, y) rows: each line 20 px high, 12 px per character wide."""
    lines = tuple(TextLine(_quad((x, y, x + 12 * len(text), y + 20)), text, 0.99) for text, x, y in rows)
    return PageResult("rows.png", width, height, lines)


def _quad(box: Sequence[float]) -> tuple[tuple[float, float], ...]:
    x0, y0, x1, y1 = box
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
