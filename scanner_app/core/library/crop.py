"""The upright receipt image of one document of a page: its thumbnail and its image hashes.

The page is read again from its file (core.images: EXIF turned, as it was sent), turned upright by
the page's orientation, and, on a page holding several documents, the document's outline is cut out
in its own frame (tilt removed: core.page.receipt_frame). The crop is then the box around the
document's text lines with a small margin: the same receipt photographed on a desk, scanned with a
wide border or cropped a little gives nearly the same crop, so the same hashes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import cv2
import imagehash
import numpy as np
from PIL import Image

from scanner_app.core import images
from scanner_app.core.errors import UnreadableFile
from scanner_app.core.page.receipt_frame import frame_transform
from scanner_app.core.results import PageResult, TextLine

THUMBNAIL_SIDE = 256  # px, the long side
THUMBNAIL_QUALITY = 80
REPORT_SIDE = 1400  # px, the long side of the crop handed to the PDF expense report
MARGIN = 0.03  # of the text box's size, on each side
_TURN = {90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_90}


@dataclass(frozen=True)
class ReceiptImage:
    """A document's thumbnail (JPEG) and its 64-bit perceptual and difference hashes (signed, for SQLite)."""

    thumbnail: bytes
    phash: int
    dhash: int


def page_image(path: Path, index: int) -> Image.Image:
    """Page ``index`` (0-based) of a file, as the batch read it (upright per EXIF, RGB)."""
    pages = images.iter_pages(path)
    try:
        for page in pages:
            if page.index == index:
                return page.image
    finally:
        pages.close()
    raise UnreadableFile(f"{path}: no page {index + 1}")


def upright(image: Image.Image, orientation: int) -> Image.Image:
    """The image turned clockwise by ``orientation`` degrees (PageResult.orientation)."""
    method = _TURN.get(orientation % 360)
    return image if method is None else image.transpose(method)


def document_crop(image: Image.Image, result: PageResult, document: int) -> Image.Image:
    """Document ``document`` of the page (``image`` as sent, ``result`` its reading), upright and cropped."""
    page = upright(image, result.orientation)
    if len(result.receipts) > 1:
        outline = result.upright_box(result.receipts[document].box)
        to_frame, (w, h) = frame_transform(outline)
        points = [(0.0, 0.0), (100.0, 0.0), (0.0, 100.0)]
        src = np.array(points, dtype=np.float32)
        dst = np.array([to_frame(x, y) for x, y in points], dtype=np.float32)
        matrix = cv2.getAffineTransform(src, dst)
        pixels = cv2.warpAffine(np.asarray(page), matrix, (max(1, round(w)), max(1, round(h))),
                                flags=cv2.INTER_AREA, borderValue=(255, 255, 255))  # fmt: skip
        page = Image.fromarray(pixels)
        lines: tuple[TextLine, ...] = result.document_page(document).lines
    else:
        lines = result.upright_lines()
    return _text_box(page, lines)


def _text_box(image: Image.Image, lines: tuple[TextLine, ...]) -> Image.Image:
    """The image cut to the box around ``lines`` plus MARGIN (the whole image when there is no line)."""
    if not lines:
        return image
    xs = [x for line in lines for x, _ in line.box]
    ys = [y for line in lines for _, y in line.box]
    left, top, right, bottom = min(xs), min(ys), max(xs), max(ys)
    mx, my = (right - left) * MARGIN, (bottom - top) * MARGIN
    box = (max(0, round(left - mx)), max(0, round(top - my)),
           min(image.width, round(right + mx)), min(image.height, round(bottom + my)))  # fmt: skip
    if box[2] - box[0] < 8 or box[3] - box[1] < 8:
        return image
    return image.crop(box)


def jpeg(image: Image.Image, side: int, quality: int = THUMBNAIL_QUALITY) -> bytes:
    """The image scaled to ``side`` px on its long side (never up), as JPEG bytes."""
    small = image.convert("RGB")
    small.thumbnail((side, side), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    small.save(buf, "JPEG", quality=quality, optimize=True)
    return buf.getvalue()


def receipt_image(crop: Image.Image) -> ReceiptImage:
    grey = crop.convert("L")
    return ReceiptImage(
        jpeg(crop, THUMBNAIL_SIDE), signed(imagehash.phash(grey)), signed(imagehash.dhash(grey))
    )


def signed(value: imagehash.ImageHash) -> int:
    """A 64-bit hash as SQLite's signed 64-bit INTEGER."""
    bits = int(str(value), 16)
    return bits - (1 << 64) if bits >= 1 << 63 else bits


def hamming(a: int, b: int) -> int:
    return ((a ^ b) & ((1 << 64) - 1)).bit_count()
