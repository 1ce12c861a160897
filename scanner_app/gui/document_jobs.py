"""Background jobs for the document on screen: decode a page, recognise it, store it.

Each job is a QRunnable that reports through a shared ``JobSignals`` object (queued to the GUI
thread); any exception becomes ``failed(request_id, message)`` with the file name and cause. Jobs
never touch widgets.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PIL import Image
from PySide6.QtCore import QBuffer, QIODevice, QObject, QRunnable, Signal
from PySide6.QtGui import QImage

from scanner_app.core import images
from scanner_app.core.client import Recognizer
from scanner_app.core.errors import ScannerError
from scanner_app.core.results import PageResult
from scanner_app.core.store import BatchStore, PageRecord

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


@dataclass(frozen=True)
class Recognized:
    """A page's result in page pixels and where it was stored."""

    result: PageResult
    page_id: int


class JobSignals(QObject):
    loaded = Signal(int, object)  # request id, LoadedPage
    recognized = Signal(int, object)  # request id, Recognized
    failed = Signal(int, str)  # request id, "file: cause"


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
    if not image.save(buffer, "PNG"):
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


class LoadJob(QRunnable):
    """Decode page ``index`` of a file (or of captured bytes, saved first) and look it up in the store."""

    def __init__(
        self,
        request_id: int,
        signals: JobSignals,
        store_of: Callable[[], BatchStore],
        path: Path | None,
        index: int = 0,
        data: bytes | QImage | None = None,
        name: str = "",
        capture_folder: Path | None = None,
    ) -> None:
        super().__init__()
        self._id, self._signals, self._store_of = request_id, signals, store_of
        self.request_id = request_id
        self._path, self._index, self._data, self._name = path, index, data, name
        self._capture_folder = capture_folder

    def run(self) -> None:
        name = self._name or (self._path.name if self._path else "")
        try:
            path = self._path
            if self._data is not None:
                data = self._data if isinstance(self._data, bytes) else png_bytes(self._data)
                path = save_capture(self._capture_folder or Path("."), data, self._name)
            assert path is not None
            page = _nth_page(path, self._index)
            qimage, scale = to_qimage(page.image)
            wire = images.encode_for_wire(page)
            store = self._store_of()
            record = store.add_files([path])[0]
            stored = next((p for p in store.pages(record) if p.index == page.index), None)
            loaded = LoadedPage(path, page.index, page.count, page.name, qimage, scale, wire,
                                page.image.size, record.id, store, stored)  # fmt: skip
        except Exception as exc:
            self._signals.failed.emit(self._id, describe_error(name, exc))
            return
        self._signals.loaded.emit(self._id, loaded)


class RecognizeJob(QRunnable):
    """Send a loaded page to the server; store the result (boxes in page pixels)."""

    def __init__(
        self,
        request_id: int,
        signals: JobSignals,
        recognizer: Recognizer,
        page: LoadedPage,
    ) -> None:
        super().__init__()
        self._id, self._signals = request_id, signals
        self._recognizer, self._page = recognizer, page

    def run(self) -> None:
        page = self._page
        try:
            started = time.perf_counter()
            raw = self._recognizer.recognize(page.wire.data, page.name)
            result = _page_result(raw, page, (time.perf_counter() - started) * 1000)
            page_id = page.store.save_page(page.file_id, page.index, result)
            if len(page.store.page_indexes(page.file_id)) >= page.count:
                page.store.mark_done(page.file_id, page.count)
        except Exception as exc:
            self._signals.failed.emit(self._id, describe_error(page.name, exc))
            return
        self._signals.recognized.emit(self._id, Recognized(result, page_id))


def _nth_page(path: Path, index: int) -> images.Page:
    for page in images.iter_pages(path):
        if page.index == index:
            return page
    raise ScannerError(f"{path.name}: has no page {index + 1}")


def _page_result(raw: PageResult, page: LoadedPage, elapsed_ms: float) -> PageResult:
    """The server's result with boxes and size in the page's own pixels (the wire image may be smaller)."""
    scale = page.wire.scale
    lines = raw.lines
    if scale != 1.0:
        lines = tuple(
            dataclasses.replace(line, box=tuple((x * scale, y * scale) for x, y in line.box))
            for line in lines
        )
    width, height = page.size
    return PageResult(page.name, width, height, lines, raw.elapsed_ms or elapsed_ms)
