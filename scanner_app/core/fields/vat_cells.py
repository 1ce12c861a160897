"""Letter-spaced labels put back together: 名 称 / 合 计 / 金 额 printed with gaps come from OCR
as separate boxes (``名`` and ``称：王芳``, the value glued to the label's last character); the
vertical 销 售 方 margin comes as stacked one-character boxes. Fragments that spell a known label
are merged into one line, and each merged line remembers the page lines it was made of."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scanner_app.core.fields.layout import Layout, LayoutLine, same_row
from scanner_app.core.fields.text import norm

_IGNORED = re.compile(r"[\s、，,.·:：()（）]")
MAX_GAP = 4.0  # a letter-spaced label's gap, in line heights (wider is another column)


def compact(text: str) -> str:
    """Normalised text without spaces and the punctuation labels are printed with."""
    return _IGNORED.sub("", norm(text))


@dataclass(frozen=True)
class Cells:
    """A page's lines with spaced labels merged; ``parts`` maps each merged line to its pieces."""

    layout: Layout
    parts: Mapping[LayoutLine, tuple[LayoutLine, ...]]

    def sources(self, lines: Iterable[LayoutLine]) -> tuple[LayoutLine, ...]:
        """The page lines behind ``lines`` (a merged line stands for its pieces)."""
        out: list[LayoutLine] = []
        for line in lines:
            for part in self.parts.get(line, (line,)):
                if part not in out:
                    out.append(part)
        return tuple(out)


def _merge(pieces: list[LayoutLine]) -> LayoutLine:
    text = "".join(p.text for p in pieces)
    return LayoutLine(pieces[0].index, text, norm(text), min(p.score for p in pieces),
                min(p.x0 for p in pieces), min(p.y0 for p in pieces),
                max(p.x1 for p in pieces), max(p.y1 for p in pieces))  # fmt: skip


def _opens(text: str, labels: tuple[str, ...]) -> bool:
    """``text`` is a proper prefix of a label (more of it may follow in the next box)."""
    return bool(text) and any(label.startswith(text) and label != text for label in labels)


def _completes(text: str, labels: tuple[str, ...]) -> bool:
    """``text`` starts with a whole label (perhaps with its value glued on)."""
    return bool(text) and any(text.startswith(label) for label in labels)


def _next_right(layout: Layout, line: LayoutLine, used: set[LayoutLine]) -> LayoutLine | None:
    right = [ln for ln in layout.right_of(line) if ln not in used]
    if not right or right[0].x0 - line.x1 > MAX_GAP * min(line.h, right[0].h):
        return None
    return right[0]


def _next_below(layout: Layout, line: LayoutLine, used: set[LayoutLine]) -> LayoutLine | None:
    """The one-character box stacked right under ``line`` (a vertical margin label)."""
    below = [
        ln for ln in layout.lines
        if ln not in used and ln is not line and ln.y0 >= line.cy and ln.y0 - line.y1 <= 3.0 * line.w
        and min(ln.x1, line.x1) - max(ln.x0, line.x0) >= 0.5 * min(ln.w, line.w)
        and len(compact(ln.text)) <= 2
    ]  # fmt: skip
    return min(below, key=lambda ln: ln.y0) if below else None


def _grow(
    layout: Layout, start: LayoutLine, labels: tuple[str, ...], used: set[LayoutLine], vertical: bool
) -> list[LayoutLine]:
    pieces = [start]
    text = compact(start.text)
    while _opens(text, labels):
        nxt = (_next_below if vertical else _next_right)(layout, pieces[-1], used)
        if nxt is None or (not vertical and not same_row(start, nxt)):
            break
        joined = text + compact(nxt.text)
        if not (_opens(joined, labels) or _completes(joined, labels)):
            break
        pieces.append(nxt)
        text = joined
    return pieces if _completes(text, labels) and len(pieces) > 1 else [start]


def merge_spaced(layout: Layout, labels: Iterable[str], margins: Iterable[str] = ()) -> Cells:
    """Merge the fragments of each letter-spaced ``labels`` entry (left to right on a row) and of
    each vertical ``margins`` label (top to bottom) into one line."""
    row_labels = tuple(dict.fromkeys(compact(t) for t in labels if compact(t)))
    col_labels = tuple(dict.fromkeys(compact(t) for t in margins if compact(t)))
    used: set[LayoutLine] = set()
    parts: dict[LayoutLine, tuple[LayoutLine, ...]] = {}
    out: list[LayoutLine] = []

    def take(pieces: list[LayoutLine]) -> None:
        used.update(pieces)
        merged = _merge(pieces)
        parts[merged] = tuple(pieces)
        out.append(merged)

    if col_labels:  # margins first, top down, so that a stacked character is not taken by a row
        for line in sorted(layout.lines, key=lambda ln: ln.y0):
            if line not in used and len(compact(line.text)) <= 2:
                pieces = _grow(layout, line, col_labels, used | {line}, vertical=True)
                if len(pieces) > 1:
                    take(pieces)
    for line in sorted(layout.lines, key=lambda ln: ln.x0):  # a row's left piece starts its label
        if line in used:
            continue
        pieces = _grow(layout, line, row_labels, used | {line}, vertical=False)
        if len(pieces) > 1:
            take(pieces)
    out.extend(ln for ln in layout.lines if ln not in used)
    out.sort(key=lambda ln: ln.index)
    return Cells(Layout(tuple(out), layout.width, layout.height), parts)
