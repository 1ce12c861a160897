"""Reading image and PDF files into upright RGB pages, and encoding pages for the server (no Qt).

Every failure raises UnreadableFile("<path>: <cause>"). Limits come from scanner_app.contract.
"""

from __future__ import annotations

import codecs
import io
import os
import re
import stat
import struct
import zlib
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import numpy as np
from PIL import ExifTags, Image, ImageFile, UnidentifiedImageError

from scanner_app.contract import (
    MAX_FILE_PAGES,
    MAX_IMAGE_BYTES,
    MAX_IMAGE_PIXELS,
    MAX_IMAGE_SIDE,
    MAX_PDF_BYTES,
)
from scanner_app.core.einvoice.pages import SUFFIXES, einvoice_pages, is_einvoice_path
from scanner_app.core.errors import UnreadableFile
from scanner_app.core.pdf.pages import open_pdf, pdf_page_count, render_page
from scanner_app.core.pdf.text_layer import TextLayer, page_text_layer

SUPPORTED_SUFFIXES = (
    frozenset((".jpg", ".jpeg", ".png", ".bmp", ".webp", ".gif", ".tif", ".tiff", ".pdf")) | SUFFIXES
)  # SUFFIXES: e-invoices (.ofd, .xml)
# Pillow plugins tried (JPEG includes MPO); only TIFF is read past its first frame: GIF/WebP/APNG
# animation frames and MPO previews are not pages.
IMAGE_FORMATS = ("JPEG", "PNG", "BMP", "WEBP", "GIF", "TIFF")
_SIGNATURES = {b"\xff\xd8\xff": "JPEG", b"\x89PNG": "PNG", b"GIF8": "GIF", b"BM": "BMP", b"II*\0": "TIFF",
               b"MM\0*": "TIFF"}  # fmt: skip
# Wire images are downscaled to this long side. Text stays sharp: an A4 page at 4096 px is ~350 DPI,
# and detection runs at <= 2000 px anyway; recognition crops come from the sent image.
WIRE_MAX_SIDE = 4096
# JPEG for photos and noisy scans, q92 with full-resolution chroma (4:4:4): coloured ink and stamps
# keep sharp strokes. Measured: 4:4:4 is 40-50 % larger than 4:2:0 on colour photos (the same on
# grey ones); in-process OCR of coloured-ink receipts with 10 px text: 48/48 lines against 47/48.
WIRE_JPEG_QUALITY = 92
_T = Image.Transpose
_TRANSPOSE = {2: _T.FLIP_LEFT_RIGHT, 3: _T.ROTATE_180, 4: _T.FLIP_TOP_BOTTOM, 5: _T.TRANSPOSE,
              6: _T.ROTATE_270, 7: _T.TRANSVERSE, 8: _T.ROTATE_90}  # fmt: skip
_DECODE_ERRORS = (OSError, SyntaxError, ValueError, EOFError, IndexError, struct.error, zlib.error)


@dataclass(frozen=True)
class Page:
    """One page of a file: ``index`` is 0-based, ``count`` the pages in the file, ``image`` upright RGB."""

    source: Path
    index: int
    count: int
    image: Image.Image
    # The file's own bytes when the server reads them exactly as this page (a single upright
    # JPEG or PNG within the wire size): sent as they are, with no re-encoding on the client.
    original: bytes | None = field(default=None, repr=False)
    # A PDF page's own text layer (pdf_text), when iter_pages was asked to read it.
    text_layer: TextLayer | None = field(default=None, repr=False)
    # An e-invoice's (OFD, 数电票 XML) field values, read exactly (core.einvoice.pages).
    exact_fields: tuple[tuple[str, str], ...] = field(default=(), repr=False)

    @property
    def name(self) -> str:
        """``file.pdf#p2`` (1-based) for a page of a multi-page file, else the file name."""
        return f"{self.source.name}#p{self.index + 1}" if self.count > 1 else self.source.name


@dataclass(frozen=True)
class WireImage:
    """Encoded bytes for the server; ``scale`` = original / encoded pixels (multiply boxes by it)."""

    data: bytes
    width: int
    height: int
    scale: float
    format: str  # "JPEG" or "PNG", or "ORIGINAL" for the file's own bytes


def _fail(path: Path, cause: str) -> UnreadableFile:
    return UnreadableFile(f"{path}: {cause}")


def _open_check(path: Path) -> bool:
    """Check that ``path`` is a non-empty file within the byte limit; True when it is a PDF."""
    try:
        st = path.stat()
        if stat.S_ISDIR(st.st_mode):
            raise _fail(path, "is a folder, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise _fail(path, "not a regular file")
        if st.st_size == 0:
            raise _fail(path, "empty file (0 bytes)")
        with open(path, "rb") as f:
            head = f.read(1024)
    except FileNotFoundError:
        raise _fail(path, "not found") from None
    except OSError as exc:
        raise _fail(path, f"cannot be read ({exc.strerror or exc})") from None
    is_pdf = b"%PDF-" in head and _image_magic(head) is None  # PDF readers accept junk before the header
    limit = MAX_PDF_BYTES if is_pdf else MAX_IMAGE_BYTES
    if st.st_size > limit:
        mib, kind = st.st_size / 2**20, "a PDF" if is_pdf else "an image"
        raise _fail(path, f"too large: {mib:.1f} MiB is over the limit of {limit / 2**20:.1f} MiB for {kind}")
    return is_pdf


def _image_magic(head: bytes) -> str | None:
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return "WEBP"
    return next((fmt for magic, fmt in _SIGNATURES.items() if head.startswith(magic)), None)


def _unknown_content(path: Path) -> str:
    """Why Pillow could not identify the file, in words."""
    with open(path, "rb") as f:
        head = f.read(4096)
    try:
        text = codecs.getincrementaldecoder("utf-8")().decode(head)
    except UnicodeDecodeError:
        text = ""
    if text and all(c.isprintable() or c in "\t\r\n\f" for c in text):
        return "not an image or PDF (content looks like text)"
    if _image_magic(head):
        return f"corrupt or truncated {_image_magic(head)} file (its header cannot be read)"
    if head.startswith(b"PK\x03\x04"):
        return "not an image or PDF (content looks like a ZIP archive or Office document)"
    if head[4:8] == b"ftyp" and head[8:12] in (b"heic", b"heix", b"mif1", b"msf1", b"avif", b"hevc"):
        return "HEIC/HEIF/AVIF photos are not supported (export it as JPEG)"
    return f"not an image or PDF (unrecognised content, starts with {head[:8].hex(' ')})"


def _to_8bit(image: Image.Image) -> Image.Image:
    """16/32-bit integer or float greyscale as 8-bit L (Pillow's own convert clips at 255: white)."""
    if image.mode.startswith("I;16"):
        return Image.fromarray((np.asarray(image) >> 8).astype(np.uint8), "L")
    a = np.asarray(image).astype(np.float32)  # I (32-bit) or F: the range is not in the file
    top = float(a.max(initial=0.0))
    a *= 255.0 if image.mode == "F" and top <= 1.0 else 1 / 257 if 255 < top <= 65535 else 255 / max(top, 255)
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8), "L")


def to_rgb(image: Image.Image) -> Image.Image:
    """Any Pillow mode as a new RGB image: alpha composited on white, 16-bit scaled, CMYK converted."""
    if image.mode.startswith("I") or image.mode == "F":
        image = _to_8bit(image)
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        white = Image.new("RGB", rgba.size, (255, 255, 255))
        white.paste(rgba, mask=rgba.getchannel("A"))
        return white
    # CMYK: Pillow's JPEG reader already undoes Adobe's inverted CMYK (the APP14 marker).
    return image.convert("RGB")


def _upright(image: Image.Image) -> Image.Image:
    """The EXIF orientation applied, as ImageOps.exif_transpose does. A TIFF page's tag is read from
    its own IFD (recent Pillow turns TIFF pages itself on load and drops the tag: then a no-op)."""
    tags = image.tag_v2 if image.format == "TIFF" else image.getexif()  # type: ignore[attr-defined]
    method = _TRANSPOSE.get(tags.get(ExifTags.Base.Orientation, 1))
    return image if method is None else image.transpose(method)


def _bomb_cause(exc: Exception) -> str:
    found = re.search(r"\((\d+) pixels\)", str(exc))
    size = f"{int(found.group(1)):,} pixels" if found else "the image"
    return f"too large: {size} is over the limit of {MAX_IMAGE_PIXELS:,} pixels"


def _open_image(path: Path) -> tuple[ImageFile.ImageFile, int]:
    """The opened image (header only) and its page count; UnreadableFile when it cannot be."""
    try:
        image = Image.open(path, formats=IMAGE_FORMATS)
    except UnidentifiedImageError:
        raise _fail(path, _unknown_content(path)) from None
    except Image.DecompressionBombError as exc:
        raise _fail(path, _bomb_cause(exc)) from None
    except _DECODE_ERRORS as exc:
        raise _fail(path, f"corrupt image header ({exc})") from None
    try:
        return image, getattr(image, "n_frames", 1) if image.format == "TIFF" else 1
    except _DECODE_ERRORS as exc:
        image.close()
        raise _fail(path, f"corrupt TIFF page list ({exc})") from None


def _image_pages(path: Path) -> Iterator[Page]:
    image, count = _open_image(path)
    with image:
        if count > MAX_FILE_PAGES:
            raise _fail(path, f"{count} pages is over the limit of {MAX_FILE_PAGES} pages a file")
        for index in range(count):
            where = f"page {index + 1} of {count}: " if count > 1 else ""
            try:
                if index:
                    image.seek(index)
                width, height = image.size
                if max(width, height) > MAX_IMAGE_SIDE or width * height > MAX_IMAGE_PIXELS:
                    limits = f"{MAX_IMAGE_PIXELS:,} pixels or {MAX_IMAGE_SIDE:,} pixels a side"
                    raise _fail(
                        path, f"{where}too large: {width}x{height} pixels is over the limit of {limits}"
                    )
                image.load()
                rgb = to_rgb(_upright(image))
            except Image.DecompressionBombError as exc:
                raise _fail(path, where + _bomb_cause(exc)) from None
            except _DECODE_ERRORS as exc:
                if isinstance(exc, ValueError) and "conversion" in str(exc):
                    raise _fail(path, f"{where}colour mode {image.mode} is not supported") from None
                raise _fail(path, f"{where}corrupt or truncated image data ({exc})") from None
            yield Page(path, index, count, rgb, _sendable_as_is(path, image, rgb, count))


def _sendable_as_is(path: Path, image: ImageFile.ImageFile, rgb: Image.Image, count: int) -> bytes | None:
    """The file's bytes if sending them unchanged gives the server this very page, else None."""
    if count != 1 or image.format not in ("JPEG", "PNG") or image.mode not in ("RGB", "L"):
        return None
    if image.getexif().get(ExifTags.Base.Orientation, 1) != 1 or max(rgb.size) > WIRE_MAX_SIDE:
        return None
    data = path.read_bytes()
    return data if len(data) <= MAX_IMAGE_BYTES else None


def iter_pages(path: Path, text_layer: bool = False) -> Generator[Page, None, None]:
    """Yield every page of an image, TIFF or PDF file, in order; raise UnreadableFile on the first bad one.

    ``text_layer``: also read each PDF page's own text layer (``Page.text_layer``).
    """
    path = Path(path)
    is_pdf = _open_check(path)
    if is_einvoice_path(path):  # read exactly, whether or not OCR is forced: there are no pixels
        for index, (image, layer, exact, count) in enumerate(einvoice_pages(path)):
            yield Page(path, index, count, image, text_layer=layer, exact_fields=exact)
        return
    if not is_pdf:
        yield from _image_pages(path)
        return
    with open_pdf(path) as (doc, count):
        if count > MAX_FILE_PAGES:
            raise _fail(path, f"{count} pages is over the limit of {MAX_FILE_PAGES} pages a file")
        for index in range(count):
            image = render_page(doc, index, count, path)
            page_layer = page_text_layer(doc, index) if text_layer else None
            yield Page(path, index, count, image, text_layer=page_layer)


def count_pages(path: Path) -> int:
    """Pages in a file without decoding them (PDF page tree, TIFF frames; 1 for other images)."""
    path = Path(path)
    if is_einvoice_path(path):
        return sum(1 for _ in einvoice_pages(path))
    if _open_check(path):
        return pdf_page_count(path)
    image, count = _open_image(path)
    image.close()
    return count


def encode_for_wire(page: Page) -> WireImage:
    """Encode a page for the server, never as raw pixels.

    A single upright JPEG or PNG within the wire size goes as the file's own bytes (no loss, no
    work). Long side above WIRE_MAX_SIDE: downscaled (``scale`` > 1). A clean document (at most 256
    colours, one of them - the paper - on at least half the pixels: rendered pages, bitonal scans):
    PNG, lossless and 3-9x smaller than JPEG there; grey-only pages as 8-bit L. Anything else
    (photos, scans with paper noise): JPEG, ~3x smaller than PNG there and 10-100x faster to encode.
    """
    if page.original is not None:
        return WireImage(page.original, page.image.width, page.image.height, 1.0, "ORIGINAL")
    image = page.image if page.image.mode == "RGB" else to_rgb(page.image)
    width, height = image.size
    scale = 1.0
    if max(width, height) > WIRE_MAX_SIDE:
        scale = max(width, height) / WIRE_MAX_SIDE
        size = (max(1, round(width / scale)), max(1, round(height / scale)))
        image = image.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
    colours = cast("list[tuple[int, tuple[int, int, int]]] | None", image.getcolors(256))  # RGB here
    buf = io.BytesIO()
    if colours is not None and 2 * max(n for n, _ in colours) >= image.width * image.height:
        if all(r == g == b for _, (r, g, b) in colours):
            image = image.convert("L")
        image.save(buf, "PNG")
        fmt = "PNG"
    else:
        image.save(buf, "JPEG", quality=WIRE_JPEG_QUALITY, subsampling="4:4:4")
        fmt = "JPEG"
    return WireImage(buf.getvalue(), image.width, image.height, scale, fmt)


def _natural_key(name: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key: ``scan2`` before ``scan10``, case-insensitive."""
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"(\d+)", name.casefold()) if p)


def discover(paths: Iterable[Path]) -> tuple[list[Path], list[tuple[Path, str]]]:
    """Expand folders (recursively, natural name order) into supported files; also say what was skipped.

    Hidden entries inside folders, unsupported types and missing paths are skipped with a reason.
    Symlinked folders are followed once; a loop, or a file seen before, is not listed twice.
    """
    files: list[Path] = []
    skipped: list[tuple[Path, str]] = []
    seen: set[tuple[int, int]] = set()

    def visit(path: Path, explicit: bool) -> None:
        if not explicit and path.name.startswith("."):
            skipped.append((path, "hidden folder" if path.is_dir() else "hidden file"))
            return
        try:
            st = path.stat()
        except FileNotFoundError:
            skipped.append((path, "broken link" if path.is_symlink() else "not found"))
            return
        except OSError as exc:
            skipped.append((path, f"cannot be read ({exc.strerror or exc})"))
            return
        key = (st.st_dev, st.st_ino)
        if key in seen:
            loop = stat.S_ISDIR(st.st_mode) and path.is_symlink()
            skipped.append((path, "folder already visited (symlink loop)" if loop else "already listed"))
            return
        seen.add(key)
        if stat.S_ISDIR(st.st_mode):
            try:
                children = sorted(os.scandir(path), key=lambda e: _natural_key(e.name))
            except OSError as exc:
                skipped.append((path, f"folder cannot be listed ({exc.strerror or exc})"))
                return
            for child in children:
                visit(Path(child.path), explicit=False)
        elif not stat.S_ISREG(st.st_mode):
            skipped.append((path, "not a regular file"))
        elif path.suffix.lower() not in SUPPORTED_SUFFIXES:
            skipped.append((path, f"unsupported type {path.suffix.lower() or '(no extension)'}"))
        else:
            files.append(path)

    for path in paths:
        visit(Path(path), explicit=True)
    return files, skipped
