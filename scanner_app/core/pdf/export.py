"""Searchable PDF: each page image with an invisible, selectable text layer (reportlab).

Page size: the image at ``DPI`` (150) dots per inch, so a 1240 x 1754 px scan (A4 at 150 DPI)
becomes an A4 page; OCR inputs rarely carry a trustworthy DPI (phone photos, screenshots), so the
image's own DPI tag is ignored. The image is embedded as a JPEG (DCTDecode, quality 85).

Each recognised line is drawn in text render mode 3 (neither fill nor stroke: invisible) on its
box: the font's ascent-to-descent height fills the box height, the baseline sits at the box's
bottom edge plus the descent, horizontal scaling (Tz) stretches the run over the box width, and
the text is rotated to the slope of the box, so selections and search hits cover the printed words.

Fonts ship with reportlab, so the export needs no system font (a desktop bundle, Windows and macOS
have none of Debian's): lines with a wide (CJK, fullwidth) character use the CID font STSong-Light,
which is referenced, not embedded (a PDF reader has it or substitutes it; the text is never painted
either way) and written as UCS-2 codes, so every BMP character extracts as itself; other lines use
Bitstream Vera Sans (``reportlab/fonts/Vera.ttf``, embedded as a subset). Characters Vera lacks are
mapped to its .notdef glyph with their own code and ToUnicode entry, like Tesseract's glyphless
font: the glyph is never painted, and the text still extracts, searches and copies exactly.
Characters above U+FFFF are written as U+FFFD (a reportlab ToUnicode limitation).
"""

from __future__ import annotations

import functools
import io
import math
import os
import threading
import unicodedata
from collections.abc import Sequence
from pathlib import Path

import reportlab
from PIL import Image, ImageOps
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from scanner_app.core.atomic_write import atomic_path
from scanner_app.core.results import PageResult, TextLine

DPI = 150.0
JPEG_QUALITY = 85
INVISIBLE = 3  # PDF text render mode 3: no fill, no stroke
LATIN_FONT_FILE = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"  # by path: not a system Vera
CJK_CID_FONT = "STSong-Light"  # Adobe-GB1; also carries Japanese kana, its UCS-2 codes any BMP text
_NOTDEF_LOCK = threading.Lock()


@functools.lru_cache(maxsize=1)
def text_fonts() -> tuple[TTFont, UnicodeCIDFont]:
    """The text layer's fonts, registered once: Vera Sans (embedded subset), STSong-Light (CID)."""
    latin = TTFont("ScannerText-Vera", str(LATIN_FONT_FILE))
    cjk = UnicodeCIDFont(CJK_CID_FONT)
    for font in (latin, cjk):
        pdfmetrics.registerFont(font)
    return latin, cjk


def _is_wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in "WF"


def _font_for(text: str) -> TTFont | UnicodeCIDFont:
    """The CID font for a line with a wide character; otherwise Vera, the characters it lacks
    becoming glyphless (see module doc)."""
    latin, cjk = text_fonts()
    if any(_is_wide(ch) for ch in text):
        return cjk
    missing = {ord(ch) for ch in text} - latin.face.charToGlyph.keys()
    if missing:
        with _NOTDEF_LOCK:
            for code in missing:
                latin.face.charWidths[code] = latin.face.defaultWidth
                latin.face.charToGlyph[code] = 0  # .notdef; the subset's ToUnicode still names it
    return latin


def _draw_line(canvas: Canvas, line: TextLine, to_pdf: tuple[float, float, float]) -> None:
    """Draw ``line`` invisibly on its box; ``to_pdf`` = (x scale, y scale, page height) px -> pt."""
    # reportlab writes ToUnicode entries as 4 hex digits, which garbles code points above U+FFFF
    # (emoji, CJK extension B...): those become U+FFFD so the rest of the line stays exact.
    text = "".join(ch if ord(ch) <= 0xFFFF else "\ufffd" for ch in line.text.strip())
    if not text or len(line.box) != 4:
        return
    sx, sy, page_h = to_pdf
    tl, tr, br, bl = [(x * sx, page_h - y * sy) for x, y in line.box]
    dx = (tr[0] - tl[0] + br[0] - bl[0]) / 2
    dy = (tr[1] - tl[1] + br[1] - bl[1]) / 2
    width = math.hypot(dx, dy)
    height = (math.dist(tl, bl) + math.dist(tr, br)) / 2
    if width < 0.5 or height < 0.5:
        return
    font = _font_for(text)
    ascent, descent = font.face.ascent / 1000, font.face.descent / 1000  # descent < 0
    size = height / (ascent - descent)
    natural = pdfmetrics.stringWidth(text, font.fontName, size)
    canvas.saveState()
    canvas.translate(*bl)
    canvas.rotate(math.degrees(math.atan2(dy, dx)))
    obj = canvas.beginText()
    obj.setTextRenderMode(INVISIBLE)
    obj.setFont(font.fontName, size)
    obj.setHorizScale(100 * width / natural if natural > 0 else 100)
    obj.setTextOrigin(0, -descent * size)
    obj.textOut(text)
    canvas.drawText(obj)
    canvas.restoreState()


def _page_image(image: Image.Image) -> Image.Image:
    """``image`` upright (EXIF orientation applied) as RGB or L, transparency flattened on white."""
    image = ImageOps.exif_transpose(image)
    if image.mode in ("RGB", "L"):
        return image
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, "white")
        flat.paste(rgba, mask=rgba.getchannel("A"))
        return flat
    return image.convert("RGB")


def write_searchable_pdf(
    pages: Sequence[tuple[Image.Image, PageResult]],
    path: str | os.PathLike[str],
    dpi: float = DPI,
    jpeg_quality: int = JPEG_QUALITY,
    title: str | None = None,
) -> Path:
    """Write one PDF page per (image, result): the image, and the result's lines as invisible text.

    Boxes are in the result's pixels (``width`` x ``height``); an image of another size (e.g. a
    re-render) is matched by scaling the boxes. Written atomically; returns ``path``.
    """
    if not pages:
        raise ValueError("a PDF needs at least one page")
    target = Path(path)
    with atomic_path(target) as tmp:
        canvas = Canvas(str(tmp), pageCompression=1)
        canvas.setCreator("scanner-app")
        canvas.setTitle(title or target.stem)
        for image, result in pages:
            image = _page_image(image)
            if result.orientation:  # the page as the server read it: upright
                image = image.rotate(-result.orientation, expand=True)
            width, height = result.upright_size
            pt = 72.0 / dpi
            page_w, page_h = image.width * pt, image.height * pt
            canvas.setPageSize((page_w, page_h))
            buf = io.BytesIO()
            image.save(buf, format="JPEG", quality=jpeg_quality, optimize=True)
            buf.seek(0)
            canvas.drawImage(ImageReader(buf), 0, 0, page_w, page_h)
            sx = pt * image.width / width if width > 0 else pt
            sy = pt * image.height / height if height > 0 else pt
            for line in result.upright_lines():
                _draw_line(canvas, line, (sx, sy, page_h))
            canvas.showPage()
        canvas.save()
    return target
