"""Page lines with their geometry: rows, right-hand neighbours and lines below."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scanner_app.core.fields.text import norm
from scanner_app.core.results import PageResult, TextLine


@dataclass(frozen=True)
class LayoutLine:
    """One page line: its index in the page, text (raw and normalised), OCR score, bounding box."""

    index: int
    text: str
    norm: str
    score: float
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2

    @property
    def h(self) -> float:
        return max(self.y1 - self.y0, 1.0)

    @property
    def w(self) -> float:
        return max(self.x1 - self.x0, 1.0)


def make_line(index: int, line: TextLine) -> LayoutLine:
    xs = [x for x, _ in line.box]
    ys = [y for _, y in line.box]
    return LayoutLine(index, line.text, norm(line.text), line.score, min(xs), min(ys), max(xs), max(ys))


@dataclass(frozen=True)
class Layout:
    """All lines of a page and geometric queries over them."""

    lines: tuple[LayoutLine, ...]
    width: float
    height: float

    @classmethod
    def of(cls, page: PageResult) -> Layout:
        lines = tuple(make_line(i, ln) for i, ln in enumerate(page.lines) if ln.text.strip())
        height = page.height or max((ln.y1 for ln in lines), default=1.0)
        width = page.width or max((ln.x1 for ln in lines), default=1.0)
        return cls(lines, float(width), float(height))

    def by_index(self, index: int) -> LayoutLine | None:
        return next((ln for ln in self.lines if ln.index == index), None)

    def top_down(self) -> list[LayoutLine]:
        """Lines sorted by their top edge, then left edge."""
        return sorted(self.lines, key=lambda ln: (ln.cy, ln.x0))

    def right_of(self, line: LayoutLine) -> list[LayoutLine]:
        """Lines on the same row to the right of ``line``, nearest first."""
        out = [
            other for other in self.lines
            if other is not line and same_row(line, other) and other.x0 >= line.x0 + 0.5 * line.w
        ]  # fmt: skip
        return sorted(out, key=lambda ln: ln.x0)

    def left_of(self, line: LayoutLine) -> list[LayoutLine]:
        """Lines on the same row to the left of ``line``, nearest first."""
        out = [
            other for other in self.lines
            if other is not line and same_row(line, other) and other.x1 <= line.x1 - 0.5 * line.w
        ]  # fmt: skip
        return sorted(out, key=lambda ln: -ln.x1)

    def below(self, line: LayoutLine, max_gap: float = 1.5) -> list[LayoutLine]:
        """Lines starting below ``line`` within ``max_gap`` line heights that overlap it horizontally."""
        out = [
            other for other in self.lines
            if other.cy > line.y1 - 0.2 * line.h and other.y0 - line.y1 <= max_gap * line.h
            and min(other.x1, line.x1) - max(other.x0, line.x0) > 0
        ]  # fmt: skip
        return sorted(out, key=lambda ln: ln.y0)

    def row_text(self, line: LayoutLine) -> str:
        """Normalised text of ``line`` and its right-hand neighbours, left to right."""
        return " ".join([line.norm, *(ln.norm for ln in self.right_of(line))])


def same_row(a: LayoutLine, b: LayoutLine) -> bool:
    """Vertical overlap of at least half the smaller line's height."""
    overlap = min(a.y1, b.y1) - max(a.y0, b.y0)
    return overlap >= 0.5 * min(a.h, b.h)


def mean_score(lines: Sequence[LayoutLine]) -> float:
    return sum(ln.score for ln in lines) / len(lines) if lines else 0.0
