"""A PDF page's own text layer as recognised lines, when it is real text and not junk.

Digital PDFs (e-invoices, supplier PDFs) carry their text exactly: their lines are read from PDFium's
characters instead of being OCR'd from pixels. Boxes are in the pixels of the page as rendered by
``pdf_pages.render_page`` (same scale, /Rotate applied), so overlays and exports line up.

A layer is rejected (the page goes through OCR) when its characters are not plausible text:
unmapped glyphs, U+FFFD, private-use or control characters, few letters or digits, or, for a layer
drawn invisibly (an earlier OCR under a scanned image), words that do not look like words.
"""

from __future__ import annotations

import ctypes
import itertools
import math
import statistics
import unicodedata
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from scanner_app.core.pdf.pages import _LOCK, render_scale
from scanner_app.core.results import TextLine

# The share of suspicious characters (U+FFFD, private use, unmapped glyphs...) above which a layer is junk.
MAX_BAD_SHARE = 0.05
# Letters, digits and common punctuation among the visible characters, at least.
MIN_TEXT_SHARE = 0.75
# For an invisible layer (a hidden OCR under an image): the share of its words that look like words.
MIN_WORDLIKE_SHARE = 0.6
# Gap between two characters on a row, in character heights: above it they are separate lines (as
# OCR detects "TOTAL       9.00" as two lines); above SPACE_GAP a space is put between them.
LINE_GAP = 2.0
SPACE_GAP = 0.15
# A dense A4 page of small print holds about 6,000 characters.
MAX_CHARS = 60_000
_COMMON_PUNCT = frozenset(".,:;-/()#%&@'\"*+=$€£¥!?[]_~<>|\\")


@dataclass(frozen=True)
class _Char:
    text: str
    left: float
    top: float
    right: float
    bottom: float
    invisible: bool
    unmapped: bool

    @property
    def height(self) -> float:
        return self.bottom - self.top


@dataclass(frozen=True)
class TextLayer:
    """A page's text layer: its lines (page pixels) and whether it was judged real text, with why not."""

    lines: tuple[TextLine, ...]
    usable: bool
    reason: str = ""
    invisible: bool = False  # drawn with the invisible render mode (a hidden OCR layer)
    # Degrees the rendered page must turn clockwise for its text to be upright (a page's /Rotate):
    # PageResult.orientation; boxes are in the rendered page's pixels.
    orientation: int = 0


def page_text_layer(doc: pdfium.PdfDocument, index: int) -> TextLayer | None:
    """Page ``index``'s text layer in the pixels ``render_page`` draws it at; None when it has no text.

    A page PDFium cannot read has no layer here: rendering it reports why.
    """
    with _LOCK:
        try:
            page = doc[index]
        except pdfium.PdfiumError:
            return None
        try:
            return read_text_layer(page)
        except pdfium.PdfiumError:
            return None
        finally:
            page.close()


def read_text_layer(page: pdfium.PdfPage) -> TextLayer | None:
    """The page's text layer at the render scale; the caller holds PDFium's lock (``pdf_pages._LOCK``)."""
    width_pt, height_pt = page.get_size()
    if not (width_pt > 0 and height_pt > 0):
        return None
    scale = render_scale(width_pt, height_pt)
    size = (math.ceil(width_pt * scale), math.ceil(height_pt * scale))  # as rendered, /Rotate applied
    rotation = page.get_rotation() % 360
    upright = size if rotation in (0, 180) else (size[1], size[0])
    textpage = page.get_textpage()
    count = textpage.count_chars()
    if count > MAX_CHARS:  # not a document page a person reads (and too slow to judge char by char)
        textpage.close()
        return TextLayer((), False, f"{count} characters on one page is over {MAX_CHARS}")
    try:
        chars = _chars(page, textpage, upright, (4 - rotation // 90) % 4)
    finally:
        textpage.close()
    visible = [c for c in chars if not c.text.isspace()]
    if not visible:
        return None
    invisible = sum(c.invisible for c in visible) > len(visible) / 2
    lines = tuple(_turned(line, rotation, size) for line in _lines(chars))
    reason = _junk_reason(visible, lines, invisible)
    orientation = (360 - rotation) % 360
    return TextLayer(lines, not reason, reason, invisible, orientation)


def _turned(line: TextLine, rotation: int, size: tuple[int, int]) -> TextLine:
    """A line found in the upright page, its box in the pixels of the page as rendered (turned
    ``rotation`` degrees clockwise, ``size`` pixels): corners still clockwise from the text's top-left."""
    w, h = size
    turn = {
        90: lambda x, y: (w - y, x),
        180: lambda x, y: (w - x, h - y),
        270: lambda x, y: (y, h - x),
    }.get(rotation)
    return line if turn is None else TextLine(tuple(turn(x, y) for x, y in line.box), line.text, line.score)


def _chars(
    page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, size: tuple[int, int], turn: int
) -> list[_Char]:
    """The page's characters, boxes in pixels of the page drawn ``size`` large and turned ``turn``
    quarters clockwise on top of its /Rotate (which undoes it: the text upright)."""
    raw_page, raw_text = page.raw, textpage.raw
    out = []
    rect = pdfium_c.FS_RECTF()
    dx, dy = ctypes.c_int(), ctypes.c_int()

    def device(x: float, y: float) -> tuple[float, float]:
        pdfium_c.FPDF_PageToDevice(raw_page, 0, 0, size[0], size[1], turn, x, y, dx, dy)
        return float(dx.value), float(dy.value)

    for i in range(pdfium_c.FPDFText_CountChars(raw_text)):
        code = pdfium_c.FPDFText_GetUnicode(raw_text, i)
        text = chr(code) if 0 < code < 0x110000 else "\ufffd"
        if text in "\r\n" or pdfium_c.FPDFText_IsGenerated(raw_text, i) == 1:
            out.append(_Char(" ", 0, 0, 0, 0, False, False))  # a separator pdfium put in
            continue
        # The loose box (advance width x font ascent..descent): adjacent glyphs touch, as OCR boxes do.
        if not pdfium_c.FPDFText_GetLooseCharBox(raw_text, i, rect):
            continue
        (x1, y1), (x2, y2) = device(rect.left, rect.top), device(rect.right, rect.bottom)
        obj = pdfium_c.FPDFText_GetTextObject(raw_text, i)
        mode = pdfium_c.FPDFTextObj_GetTextRenderMode(obj) if obj else -1
        out.append(
            _Char(
                text,
                min(x1, x2),
                min(y1, y2),
                max(x1, x2),
                max(y1, y2),
                invisible=mode == pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE,
                unmapped=bool(pdfium_c.FPDFText_HasUnicodeMapError(raw_text, i) == 1),
            )
        )
    return out


def _lines(chars: list[_Char]) -> tuple[TextLine, ...]:
    """Characters grouped into lines: rows by vertical overlap, split at wide gaps, in reading order."""
    glyphs = [c for c in chars if not c.text.isspace() and c.right > c.left and c.bottom > c.top]
    spaced = {id(c) for prev, c in itertools.pairwise(chars) if prev.text.isspace()}
    rows: list[list[_Char]] = []
    for c in sorted(glyphs, key=lambda c: (c.top + c.bottom) / 2):
        row = rows[-1] if rows else None
        if row is not None:
            top, bottom = min(g.top for g in row), max(g.bottom for g in row)
            overlap = min(bottom, c.bottom) - max(top, c.top)
            if overlap >= 0.5 * min(bottom - top, c.height):
                row.append(c)
                continue
        rows.append([c])
    lines = []
    for row in rows:
        row.sort(key=lambda c: c.left)
        height = statistics.median(c.height for c in row)
        segment: list[_Char] = [row[0]]
        text = row[0].text
        for prev, c in itertools.pairwise(row):
            gap = c.left - prev.right
            if gap > LINE_GAP * height:
                lines.append(_line(segment, text))
                segment, text = [c], c.text
                continue
            if gap > SPACE_GAP * height or id(c) in spaced:
                text += " "
            segment.append(c)
            text += c.text
        lines.append(_line(segment, text))
    return tuple(lines)


def _line(chars: list[_Char], text: str) -> TextLine:
    left, top = min(c.left for c in chars), min(c.top for c in chars)
    right, bottom = max(c.right for c in chars), max(c.bottom for c in chars)
    box = ((left, top), (right, top), (right, bottom), (left, bottom))
    return TextLine(box, unicodedata.normalize("NFC", " ".join(text.split())), 1.0)


def _bad(c: _Char) -> bool:
    cat = unicodedata.category(c.text)
    return c.unmapped or c.text == "\ufffd" or cat in ("Co", "Cn", "Cs") or (cat == "Cc")


def _texty(ch: str) -> bool:
    return ch.isalnum() or ch in _COMMON_PUNCT or unicodedata.category(ch) in ("Sc", "Pd", "Ps", "Pe", "Po")


def _junk_reason(visible: list[_Char], lines: tuple[TextLine, ...], invisible: bool) -> str:
    """Why the layer is not real text ("" when it is)."""
    n = len(visible)
    bad = sum(_bad(c) for c in visible)
    if bad > MAX_BAD_SHARE * n:
        return f"{bad} of {n} characters are unmapped, private-use or replacement characters"
    if not lines:
        return "its characters have no area on the page"
    texty = sum(_texty(c.text) for c in visible)
    if texty < MIN_TEXT_SHARE * n:
        return f"only {texty} of {n} characters are letters, digits or punctuation"
    if invisible:
        words = [w for line in lines for w in line.text.split()]
        good = sum(_wordlike(w) for w in words)
        if good < MIN_WORDLIKE_SHARE * len(words):
            return f"an invisible layer where only {good} of {len(words)} words look like words"
    return ""


def _wordlike(word: str) -> bool:
    """A token a reader would accept: a number, CJK text, or letters with a sane case pattern and a vowel."""
    core = word.strip(".,:;()[]\"'!?*#-/")
    if not core:
        return False
    if any("\u3000" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" for ch in core):
        return all(ch.isalnum() or _texty(ch) for ch in core)
    letters = [ch for ch in core if ch.isalpha()]
    if not letters:
        return sum(ch.isdigit() for ch in core) >= len(core) / 2  # 12.50, 2018-12-25, #123
    if sum(not (ch.isalnum() or ch in ".,-/:'&") for ch in core) > 0:
        return False
    body = "".join(letters)
    if not (body.islower() or body.isupper() or (body[0].isupper() and body[1:].islower())):
        return False
    return len(body) <= 3 or any(ch in "aeiouyAEIOUY" for ch in body) or not body.isascii()
