"""Searchable PDF: each page image with an invisible, selectable text layer (reportlab).

Page size: the image at ``DPI`` (150) dots per inch, so a 1240 x 1754 px scan (A4 at 150 DPI)
becomes an A4 page; OCR inputs rarely carry a trustworthy DPI (phone photos, screenshots), so the
image's own DPI tag is ignored. The image is embedded as a JPEG (DCTDecode, quality 85).

Each recognised line is drawn in text render mode 3 (neither fill nor stroke: invisible) on its
box: the font's ascent-to-descent height fills the box height, the baseline sits at the box's
bottom edge plus the descent, horizontal scaling (Tz) stretches the run over the box width, and
the text is rotated to the slope of the box, so selections and search hits cover the printed words.

Fonts: DejaVu Sans (``scanner_app.samples.find_font``), and for lines it does not cover, the first
installed CJK TrueType font in ``CJK_FONTS`` (reportlab embeds TrueType outlines only: the
CFF-based Noto CJK ``.ttc`` files are refused and skipped). Characters that no font has are mapped
to the font's .notdef glyph with their own code and ToUnicode entry, like Tesseract's glyphless
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

from PIL import Image, ImageOps
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from scanner_app.core.export import atomic_path
from scanner_app.core.results import PageResult, TextLine
from scanner_app.samples import find_font

DPI = 150.0
JPEG_QUALITY = 85
INVISIBLE = 3  # PDF text render mode 3: no fill, no stroke
CJK_FONTS = (
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",  # fonts-wqy-zenhei
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",  # fonts-wqy-microhei
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",  # fonts-droid-fallback
    "/usr/share/fonts/truetype/arphic/uming.ttc",  # fonts-arphic-uming
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",  # fonts-noto-cjk (CFF: refused)
)
_NOTDEF_LOCK = threading.Lock()


@functools.lru_cache(maxsize=1)
def text_fonts() -> tuple[tuple[TTFont, frozenset[int]], ...]:
    """The text layer's registered fonts with the code points they have glyphs for: DejaVu Sans,
    then a CJK font when one is installed."""
    fonts = [TTFont("ScannerText-DejaVuSans", str(find_font()))]
    for path in CJK_FONTS:
        if os.path.isfile(path):
            try:
                fonts.append(TTFont("ScannerText-CJK", path, subfontIndex=0))
                break
            except Exception:  # reportlab's TTFError (CFF outlines) or a damaged file
                continue
    for font in fonts:
        pdfmetrics.registerFont(font)
    return tuple((font, frozenset(font.face.charToGlyph)) for font in fonts)


def _font_for(text: str) -> TTFont:
    """The font covering most of ``text``; the characters it lacks become glyphless (see module doc)."""
    codes = {ord(ch) for ch in text}
    font, _ = min(text_fonts(), key=lambda fc: len(codes - fc[1]))  # ties: DejaVu
    missing = codes - font.face.charToGlyph.keys()
    if missing:
        with _NOTDEF_LOCK:
            for code in missing:
                wide = unicodedata.east_asian_width(chr(code)) in "WF"
                font.face.charWidths[code] = 1000 if wide else font.face.defaultWidth
                font.face.charToGlyph[code] = 0  # .notdef; the subset's ToUnicode still names it
    return font


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
            pt = 72.0 / dpi
            page_w, page_h = image.width * pt, image.height * pt
            canvas.setPageSize((page_w, page_h))
            buf = io.BytesIO()
            image.save(buf, format="JPEG", quality=jpeg_quality, optimize=True)
            buf.seek(0)
            canvas.drawImage(ImageReader(buf), 0, 0, page_w, page_h)
            sx = pt * image.width / result.width if result.width > 0 else pt
            sy = pt * image.height / result.height if result.height > 0 else pt
            for line in result.lines:
                _draw_line(canvas, line, (sx, sy, page_h))
            canvas.showPage()
        canvas.save()
    return target
