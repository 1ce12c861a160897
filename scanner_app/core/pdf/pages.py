"""PDF pages rendered with PDFium (pypdfium2) at PDF_RENDER_DPI, within the shared pixel limits.

PDFium is not thread-safe, even across documents: every call into it goes through ``_LOCK``.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from scanner_app.contract import MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, PDF_RENDER_DPI
from scanner_app.core.errors import UnreadableFile

_LOCK = threading.Lock()
_LOAD_ERRORS = {
    pdfium_c.FPDF_ERR_FILE: "cannot be opened (missing or not readable)",
    pdfium_c.FPDF_ERR_FORMAT: "corrupt or truncated PDF",
    pdfium_c.FPDF_ERR_PASSWORD: "password-protected PDF (save a copy without the password and retry)",
    pdfium_c.FPDF_ERR_SECURITY: "PDF uses an encryption scheme that is not supported",
    pdfium_c.FPDF_ERR_PAGE: "PDF page tree is damaged",
}


@contextmanager
def open_pdf(path: Path) -> Iterator[tuple[pdfium.PdfDocument, int]]:
    """Open a PDF with at least one page: (document, page count); UnreadableFile says why it cannot."""
    with _LOCK:
        # The raw call, not PdfDocument(path): pypdfium2 treats 0 pages as a load failure and then
        # reports FPDF_GetLastError(), which is stale (left by an earlier failed load) in that case.
        raw = pdfium_c.FPDF_LoadDocument(os.fsencode(path) + b"\0", None)
        if not raw:
            code = pdfium_c.FPDF_GetLastError()
            raise UnreadableFile(f"{path}: {_LOAD_ERRORS.get(code, f'PDFium cannot open it (error {code})')}")
        doc = pdfium.PdfDocument(raw)
        with suppress(pdfium.PdfiumError):  # without it, pages render without their form fields
            doc.init_forms()  # before any page is loaded, so filled-in form fields are drawn
        count = len(doc)
    try:
        if count < 1:
            raise UnreadableFile(f"{path}: PDF has no pages")
        yield doc, count
    finally:
        with _LOCK:
            doc.close()


def pdf_page_count(path: Path) -> int:
    """Pages in a PDF, read from its page tree without rendering anything."""
    with open_pdf(path) as (_, count):
        return count


def render_scale(width_pt: float, height_pt: float) -> float:
    """Pixels per PDF point: PDF_RENDER_DPI, lowered so the bitmap stays within the pixel limits."""
    scale = PDF_RENDER_DPI / 72.0
    if width_pt <= 0 or height_pt <= 0:
        return scale
    scale = min(
        scale, MAX_IMAGE_SIDE / max(width_pt, height_pt), math.sqrt(MAX_IMAGE_PIXELS / (width_pt * height_pt))
    )

    def fits(s: float) -> bool:  # pypdfium2 sizes the bitmap with ceil()
        w, h = math.ceil(width_pt * s), math.ceil(height_pt * s)
        return max(w, h) <= MAX_IMAGE_SIDE and w * h <= MAX_IMAGE_PIXELS

    while not fits(scale):
        scale *= 0.999
    return scale


def render_page(doc: pdfium.PdfDocument, index: int, count: int, path: Path) -> Image.Image:
    """Page ``index`` (0-based) of ``count`` as an RGB image, /Rotate applied, on white."""
    where = f"{path}: page {index + 1} of {count}"
    with _LOCK:
        try:
            page = doc[index]
        except pdfium.PdfiumError as exc:
            raise UnreadableFile(f"{where} cannot be read ({exc})") from None
        try:
            width, height = page.get_size()  # points, /Rotate applied
            if not (width > 0 and height > 0):
                raise UnreadableFile(f"{where} has no area ({width}x{height} points)")
            bitmap = page.render(
                scale=render_scale(width, height),
                may_draw_forms=True,
                force_bitmap_format=pdfium_c.FPDFBitmap_BGR,
            )
            image = bitmap.to_pil()  # from BGR, so a copy: the image outlives the bitmap
            bitmap.close()
        except (pdfium.PdfiumError, ValueError) as exc:
            raise UnreadableFile(f"{where} cannot be rendered ({exc})") from None
        finally:
            page.close()
    return image
