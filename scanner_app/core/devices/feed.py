"""Scanned pages into the batch as they arrive: the first page is read while the feeder pulls the next.

``scan_to_batch`` scans on the calling thread. Each page is written to ``OUT/scans/<stamp>/`` as a
lossless PNG and added to the batch store (``OUT/scanner-app.sqlite``); a reader thread runs
``BatchRunner`` over whatever is queued, again and again until the scan has ended and nothing is
left. A device error (jam, empty feeder, cover open, unplugged, busy) ends the scan with its message;
the pages scanned before it are kept and read. Blank back sides of duplex scans are dropped and counted.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from scanner_app.core.batch.events import BatchSummary, Event
from scanner_app.core.batch.runner import BatchRunner, Recognize
from scanner_app.core.devices.base import Device, DeviceError, ScanCancelled, ScannedPage, ScanSettings
from scanner_app.core.devices.blank import is_blank
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore, PageSink


@dataclass(frozen=True)
class PageScanned:
    """A page came off the device and was queued for reading (``path``)."""

    index: int
    side: str
    path: Path


@dataclass(frozen=True)
class BlankDropped:
    index: int
    dropped: int  # blank sides dropped so far


@dataclass(frozen=True)
class ScanProgress:
    index: int  # page being scanned, 0-based
    fraction: float  # of that page; -1 when the device does not know the page's height


@dataclass(frozen=True)
class ScanEnded:
    """The device is done: ``message`` is None after a normal end, else why it stopped."""

    scanned: int
    blank_dropped: int
    message: str | None
    cancelled: bool


ScanEvent = PageScanned | BlankDropped | ScanProgress | ScanEnded


@dataclass(frozen=True)
class ScanSummary:
    scanned: int  # pages kept (queued for reading)
    blank_dropped: int
    message: str | None  # the device error that ended the scan, if any
    cancelled: bool
    folder: Path  # where the page images are
    batch: BatchSummary

    @property
    def ok(self) -> bool:
        return (
            self.message is None and not self.cancelled and not self.batch.failed and not self.batch.stopped
        )


def scan_folder(out_dir: Path) -> Path:
    """A new folder for one scan's pages: ``OUT/scans/YYYYmmdd-HHMMSS[-N]``."""
    base = out_dir / "scans" / time.strftime("%Y%m%d-%H%M%S")
    folder, n = base, 1
    while folder.exists():
        n += 1
        folder = base.with_name(f"{base.name}-{n}")
    folder.mkdir(parents=True)
    return folder


def save_page(page: ScannedPage, folder: Path) -> Path:
    path = folder / f"page-{page.index + 1:04d}.png"
    page.image.save(path, format="PNG")
    return path


class _Reader(threading.Thread):
    """Runs BatchRunner over the queued pages until the scan has ended and none is left."""

    def __init__(self, store: BatchStore, recognize: Recognize, jobs: int, on_event: Callable[[Event], None]):
        super().__init__(name="scan-reader", daemon=True)
        self.store, self.recognize, self.jobs, self.on_event = store, recognize, jobs, on_event
        self.work = threading.Event()
        self.scan_over = threading.Event()
        self.summary: BatchSummary | None = None
        self.error: BaseException | None = None
        self._runner: BatchRunner | None = None
        self._lock = threading.Lock()
        self._cancelled = False

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            if self._runner is not None:
                self._runner.cancel()
        self.work.set()

    def run(self) -> None:
        try:
            while True:
                self.work.wait()
                self.work.clear()
                over = self.scan_over.is_set()
                with self._lock:
                    if self._cancelled:
                        break
                    self._runner = BatchRunner(self.store, self.recognize, self.jobs, self.on_event)
                self.summary = self._runner.run()
                if self.summary.stopped or (over and not self.store.pending()):
                    break
        except BaseException as exc:  # reported by scan_to_batch on the caller's thread
            self.error = exc


@dataclass(frozen=True)
class ScanResult:
    """What came off the device: the pages kept (in order), and how the scan ended."""

    paths: tuple[Path, ...]
    blank_dropped: int
    message: str | None  # the device error that ended the scan, if any
    cancelled: bool
    folder: Path


def scan_pages(
    device: Device,
    settings: ScanSettings,
    folder: Path,
    *,
    cancel: threading.Event | None = None,
    on_event: Callable[[ScanEvent], object] | None = None,
    on_page: Callable[[Path], None] | None = None,
    drop_blank_backs: bool = True,
) -> ScanResult:
    """Scan into ``folder`` (``page-0001.png``, ...); ``on_page(path)`` as soon as each page is saved.

    A DeviceError or a cancel ends the scan and is reported in the result (never raised): the pages
    before it are kept.
    """
    cancel = cancel or threading.Event()
    emit = on_event or (lambda event: None)
    paths: list[Path] = []
    dropped = 0
    message, cancelled = None, False
    try:
        for page in device.scan(settings, cancel, lambda i, f: emit(ScanProgress(i, f))):
            if drop_blank_backs and page.side == "back" and is_blank(page.image):
                dropped += 1
                emit(BlankDropped(page.index, dropped))
                continue
            path = save_page(page, folder)
            paths.append(path)
            if on_page is not None:
                on_page(path)  # before telling anyone: a slow event handler must not hold the reading
            emit(PageScanned(page.index, page.side, path))
    except ScanCancelled:
        cancelled = True
    except DeviceError as exc:
        message = str(exc)
    emit(ScanEnded(len(paths), dropped, message, cancelled))
    return ScanResult(tuple(paths), dropped, message, cancelled, folder)


def scan_to_batch(
    device: Device,
    settings: ScanSettings,
    out_dir: Path | str,
    recognize: Recognize,
    *,
    jobs: int = 4,
    on_event: Callable[[Event | ScanEvent], None] | None = None,
    cancel: threading.Event | None = None,
    drop_blank_backs: bool = True,
    sink: PageSink | None = None,
) -> ScanSummary:
    """Scan with ``settings`` into the batch in ``out_dir``; see the module docstring.

    ``sink``: told of each page as it is stored (the receipt library).

    Setting ``cancel`` stops the scan (mid-page); the pages scanned before are still read.
    """
    out_dir = Path(out_dir).absolute()
    out_dir.mkdir(parents=True, exist_ok=True)
    emit = on_event or (lambda event: None)
    with BatchStore(out_dir / STORE_NAME, sink) as store:
        reader = _Reader(store, recognize, jobs, emit)

        def queue(path: Path) -> None:
            store.add_files([path])
            reader.work.set()

        reader.start()
        try:
            scanned = scan_pages(device, settings, scan_folder(out_dir), cancel=cancel, on_event=emit,
                                 on_page=queue, drop_blank_backs=drop_blank_backs)  # fmt: skip
        finally:
            reader.scan_over.set()
            reader.work.set()
            reader.join()
        if reader.error is not None:
            raise reader.error
        batch = reader.summary or BatchRunner(store, recognize, jobs).summary()
    return ScanSummary(
        len(scanned.paths), scanned.blank_dropped, scanned.message, scanned.cancelled, scanned.folder, batch
    )
