"""The seller's red seal (发票专用章) printed over the seller block: its text (the seal's name,
the seller's tax number again, arc fragments such as ``南章`` or ``司``) is no value. The seal is
found by its 专用章 line; lines within the oval around it that no label owns are seal text, and seal
words glued onto a value by OCR are cut off."""

from __future__ import annotations

import re
from dataclasses import dataclass

from scanner_app.core.fields.layout import Layout, LayoutLine
from scanner_app.core.fields.text import Keyword, any_keyword

# The seal's width and height in widths of its 发票专用章 line (a 40 x 30 mm oval, 20 mm of text).
_HALF_W, _ABOVE, _BELOW = 1.1, 1.6, 0.5


@dataclass(frozen=True)
class Seal:
    """Where a seal lies: the ellipse around its 专用章 line."""

    cx: float
    cy: float
    rx: float
    ry: float

    def covers(self, line: LayoutLine) -> bool:
        """The line's centre lies inside the oval."""
        dx, dy = (line.x0 + line.x1) / 2 - self.cx, line.cy - self.cy
        return (dx / self.rx) ** 2 + (dy / self.ry) ** 2 <= 1.0


def find_seals(layout: Layout, words: tuple[Keyword, ...]) -> list[Seal]:
    """One oval per line holding a seal word (发票专用章, 专用章)."""
    out = []
    for line in layout.lines:
        m = next((kw.search(line.norm) for kw in words if kw.search(line.norm)), None)
        if m is None:
            continue
        # the seal word's own width, when OCR glued it to other text
        share = (m.end() - m.start()) / max(len(line.norm), 1)
        width = line.w * share
        left = line.x0 + line.w * m.start() / max(len(line.norm), 1)
        cx = left + width / 2
        top, bottom = line.y1 - _ABOVE * width, line.y1 + _BELOW * width
        out.append(Seal(cx, (top + bottom) / 2, _HALF_W * width, (bottom - top) / 2))
    return out


def is_seal_text(line: LayoutLine, seals: list[Seal], words: tuple[Keyword, ...]) -> bool:
    """A seal word, or a line whose centre lies in a seal."""
    return any_keyword(line.norm, words) or any(s.covers(line) for s in seals)


def cut_seal_words(text: str, words: tuple[Keyword, ...]) -> str:
    """``text`` up to the first seal word glued onto it (``...23961509958424发票专用章``)."""
    cut = [m.start() for kw in words for m in [kw.search(text)] if m]
    return text[: min(cut)] if cut else text


def cut_seal_tail(value: str, seal_ids: tuple[str, ...], keep: re.Pattern[str]) -> str:
    """A value whose pattern ``keep`` matches, with a glued-on tail that is a piece of a tax number
    printed in the seal dropped (``016-65224476`` from ``016-65224476631E0ABG``)."""
    m = keep.search(value)
    if m is None:
        return value
    tail = value[m.end() :].strip()
    if tail and any(tail in sid for sid in seal_ids):
        return value[: m.end()]
    return value
