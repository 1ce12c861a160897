"""Text for the expense report PDF: its fonts, which font a string needs, fitting and wrapping (no Qt).

Latin text is Bitstream Vera (shipped with reportlab, embedded as a subset). Text with a character
Vera lacks (Chinese, Japanese, Cyrillic...) uses the CJK font of ``core.pdf.fonts`` when reportlab
can embed it (a TrueType font such as WenQuanYi), else the CID font STSong-Light (Adobe-GB1,
referenced, not embedded: PDF readers carry or substitute it; ``core.pdf.export`` does the same),
whose UCS-2 codes extract as the characters. Characters above U+FFFF (emoji) are drawn as ``?``:
reportlab's ToUnicode maps would garble them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from scanner_app.core.accounting.common import one_line
from scanner_app.core.pdf.export import CJK_CID_FONT, LATIN_FONT_FILE
from scanner_app.core.pdf.fonts import find_cjk_font

BOLD_FONT_FILE = LATIN_FONT_FILE.with_name("VeraBd.ttf")
ELLIPSIS = "..."


@dataclass(frozen=True)
class ReportFonts:
    """The registered font names, and the characters the Latin font has."""

    latin: str
    bold: str
    cjk: str
    cjk_embedded: bool
    latin_chars: frozenset[int]

    def for_text(self, text: str, bold: bool = False) -> str:
        """The font to draw ``text`` in: Vera (bold or not) when it has every character, else CJK."""
        if all(ord(ch) in self.latin_chars for ch in text):
            return self.bold if bold else self.latin
        return self.cjk


@functools.lru_cache(maxsize=1)
def report_fonts() -> ReportFonts:
    """The report's fonts, registered with reportlab once."""
    latin = TTFont("ScannerReport-Vera", str(LATIN_FONT_FILE))
    bold = TTFont("ScannerReport-VeraBd", str(BOLD_FONT_FILE))
    cjk: TTFont | UnicodeCIDFont
    try:
        path, index = find_cjk_font()
        cjk = TTFont("ScannerReport-CJK", str(path), subfontIndex=index)
    except (OSError, TTFError):  # none installed, or CFF outlines (Noto CJK) reportlab cannot embed
        cjk = UnicodeCIDFont(CJK_CID_FONT)
    for font in (latin, bold, cjk):
        pdfmetrics.registerFont(font)
    chars = frozenset(latin.face.charToGlyph) & frozenset(bold.face.charToGlyph)
    return ReportFonts(latin.fontName, bold.fontName, cjk.fontName, isinstance(cjk, TTFont), chars)


def printable(text: str | None) -> str:
    """``text`` on one line, characters above U+FFFF as ``?``."""
    return "".join(ch if ord(ch) <= 0xFFFF else "?" for ch in one_line(text))


def fit(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut to ``width`` points, ending in ``...`` when cut."""
    if pdfmetrics.stringWidth(text, font, size) <= width:
        return text
    while text and pdfmetrics.stringWidth(text + ELLIPSIS, font, size) > width:
        text = text[:-1]
    return text + ELLIPSIS


def wrap(text: str, font: str, size: float, width: float, max_lines: int) -> list[str]:
    """``text`` in lines of at most ``width`` points, broken at spaces (anywhere in a word wider
    than a line, as in Chinese); the last of ``max_lines`` lines ends in ``...`` when text is left."""
    lines: list[str] = []
    rest = text.strip()
    while rest and len(lines) < max_lines:
        if pdfmetrics.stringWidth(rest, font, size) <= width:
            lines.append(rest)
            rest = ""
            break
        cut = len(rest)
        while cut > 1 and pdfmetrics.stringWidth(rest[:cut], font, size) > width:
            cut -= 1
        space = rest.rfind(" ", 0, cut + 1)
        cut = space if space > 0 else cut
        lines.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest and lines:
        lines[-1] = fit(lines[-1] + " " + rest, font, size, width)
    return lines
