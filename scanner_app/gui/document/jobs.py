"""Blocking steps for the document on screen: decode a page, recognise it (or read its own text), store it.

A PDF page with a real text layer and an e-invoice (.ofd, .xml) are read exactly, as the batch reads
them (``core.batch.runner.text_layer_result``), not sent to the server. They run on the DocumentController's
Background; they never touch widgets. ``describe_error``
turns any exception into one line naming the file and the cause.
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PIL import Image
from PySide6.QtCore import QBuffer, QIODevice
from PySide6.QtGui import QImage

from scanner_app.core import images
from scanner_app.core.batch.runner import text_layer_result
from scanner_app.core.client.triton import Recognizer
from scanner_app.core.einvoice.pages import is_einvoice_path
from scanner_app.core.errors import ScannerError
from scanner_app.core.fields.page_codes import with_codes
from scanner_app.core.results import PageResult
from scanner_app.core.store.batch_store import BatchStore, PageRecord

DISPLAY_MAX_SIDE = 4096  # larger pages are shown downscaled (boxes stay in original pixels)


@dataclass(frozen=True)
class LoadedPage:
    """A decoded page, ready to show and to send."""

    path: Path
    index: int
    count: int
    name: str
    image: QImage  # display image (RGB32), at most DISPLAY_MAX_SIDE
    image_scale: float  # original pixels per display pixel
    wire: images.WireImage
    size: tuple[int, int]  # the page's own pixels
    file_id: int
    store: BatchStore  # where the page's result and edits live
    stored: PageRecord | None  # the page's result already in the store, with edits
    own_text: PageResult | None = None  # the page read from its own text (PDF text layer, e-invoice)
    exact_only: bool = False  # an e-invoice: its drawing is never OCR'd, even when OCR is forced

    @property
    def reads_own_text(self) -> bool:
        """True when the page can be read exactly, without the server."""
        return self.own_text is not None


@dataclass(frozen=True)
class Recognized:
    """A page's result in page pixels and where it was stored."""

    result: PageResult
    page_id: int


def describe_error(name: str, exc: BaseException) -> str:
    """A one-line message naming the file and the cause."""
    text = str(exc) or type(exc).__name__
    if not isinstance(exc, ScannerError | OSError):
        text = f"{type(exc).__name__}: {text}"
    return text if name and name in text else f"{name}: {text}"


def to_qimage(image: Image.Image, max_side: int = DISPLAY_MAX_SIDE) -> tuple[QImage, float]:
    """An RGB32 QImage of a PIL image (downscaled to max_side) and original/display scale."""
    scale = 1.0
    if max(image.size) > max_side:
        scale = max(image.size) / max_side
        size = (max(1, round(image.width / scale)), max(1, round(image.height / scale)))
        image = image.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)
    rgb = image if image.mode == "RGB" else images.to_rgb(image)
    data = rgb.tobytes()
    qimage = QImage(data, rgb.width, rgb.height, 3 * rgb.width, QImage.Format.Format_RGB888)
    return qimage.convertToFormat(QImage.Format.Format_RGB32), scale  # a deep copy in the fast format


def png_bytes(image: QImage) -> bytes:
    """Encode a QImage as PNG (any thread)."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    # PySide6's stubs type the format as bytes, but save() accepts only a str (bytes: ValueError)
    if not image.save(buffer, "PNG"):  # type: ignore[call-overload]
        raise ScannerError("the image could not be encoded as PNG")
    return bytes(buffer.data().data())


def save_capture(folder: Path, data: bytes, name: str) -> Path:
    """Keep pasted/captured image bytes as a file in the session folder (unique name)."""
    folder.mkdir(parents=True, exist_ok=True)
    base = Path(name).name or "capture.png"
    stem, suffix = Path(base).stem, Path(base).suffix or ".png"
    for n in itertools.count():
        path = folder / (base if n == 0 else f"{stem}-{n}{suffix}")
        if not path.exists():
            path.write_bytes(data)
            return path
    raise AssertionError("unreachable")


def load_page(
    store_of: Callable[[], BatchStore],
    path: Path | None,
    index: int = 0,
    data: bytes | QImage | None = None,
    name: str = "",
    capture_folder: Path | None = None,
) -> LoadedPage:
    """Decode page ``index`` of a file (or of captured bytes, saved first) and look it up in the store."""
    if data is not None:
        encoded = data if isinstance(data, bytes) else png_bytes(data)
        path = save_capture(capture_folder or Path("."), encoded, name)
    assert path is not None
    page = _nth_page(path, index)
    qimage, scale = to_qimage(page.image)
    wire = images.encode_for_wire(page)
    store = store_of()
    record = store.add_files([path])[0]
    stored = next((p for p in store.pages(record) if p.index == page.index), None)
    exact_only = is_einvoice_path(path)
    return LoadedPage(path, page.index, page.count, page.name, qimage, scale, wire, page.image.size,
                      record.id, store, stored, text_layer_result(page), exact_only)  # fmt: skip


def recognize_page(recognizer: Recognizer, page: LoadedPage) -> Recognized:
    """Send a loaded page to the server; store the result (boxes in page pixels)."""
    started = time.perf_counter()
    raw = recognizer.recognize(page.wire.data, page.name)
    result = _page_result(raw, page, (time.perf_counter() - started) * 1000)
    # a VAT invoice's QR code, decoded from the page's pixels, cross-checks its fields (Fields tab)
    result = with_codes(result, lambda: Image.open(io.BytesIO(page.wire.data)))
    return _stored(page, result)


def read_own_text(page: LoadedPage) -> Recognized:
    """Store the page as read from its own text (no server); see ``LoadedPage.own_text``."""
    assert page.own_text is not None
    result = with_codes(page.own_text, lambda: Image.open(io.BytesIO(page.wire.data)))
    return _stored(page, result)


def _stored(page: LoadedPage, result: PageResult) -> Recognized:
    page_id = page.store.save_page(page.file_id, page.index, result)
    if len(page.store.page_indexes(page.file_id)) >= page.count:
        page.store.mark_done(page.file_id, page.count)
    return Recognized(result, page_id)


def _nth_page(path: Path, index: int) -> images.Page:
    for page in images.iter_pages(path, text_layer=True):
        if page.index == index:
            return page
    raise ScannerError(f"{path.name}: has no page {index + 1}")


def _page_result(raw: PageResult, page: LoadedPage, elapsed_ms: float) -> PageResult:
    """The server's result with boxes and size in the page's own pixels (the wire image may be smaller)."""
    width, height = page.size
    return dataclasses.replace(
        raw.rescaled(page.wire.scale),
        image=page.name,
        width=width,
        height=height,
        elapsed_ms=raw.elapsed_ms or elapsed_ms,
    )
