"""Watch a folder (a copier's scan-to-folder): read every file that appears in it, once, when complete.

Files (recursively; hidden and temporary names ignored) are noticed by watchdog (native events, or
polling on network shares: core/watch/observer.py), settle until complete (core/watch/settle.py),
then go through the batch machinery: added to ``OUT/scanner-app.sqlite`` (content hashes, so a file
read before, here or under another name, is not read again; a replaced file is read again) and run
by a BatchRunner. Each finished file gets its own exports at ``OUT/<relative path>.<format>``
(core/export/layout.py), and the batch exports (``OUT/results.*``) are rewritten at most every
``summary_every_s``. A deleted file keeps its results. At start, files that arrived while the
watcher was stopped are read, and files a killed run left unfinished are finished.

Events (core/batch/events.py and core/watch/events.py) go to ``on_event`` from the watcher's threads.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from watchdog.events import (
    DirCreatedEvent,
    DirMovedEvent,
    FileClosedEvent,
    FileDeletedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers.api import BaseObserver

from scanner_app.core import images
from scanner_app.core.batch.events import Event, FileDone, RunStopped
from scanner_app.core.batch.export import export_store, page_images
from scanner_app.core.batch.runner import BatchRunner, Recognize
from scanner_app.core.export.formats import DocumentResult, PageExtra
from scanner_app.core.export.layout import Namer, OutputLayout, write_document
from scanner_app.core.store.apply_edits import edited_page
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore, PageSink
from scanner_app.core.watch.events import FileExported, FileSkipped, FileWaiting, WatchNotice, WatchStarted
from scanner_app.core.watch.observer import start_observer
from scanner_app.core.watch.settle import Settler

log = logging.getLogger(__name__)

# Names copiers and browsers give a file while they write it, renamed when done: never inputs.
TEMP_SUFFIXES = frozenset((".tmp", ".part", ".partial", ".crdownload", ".download", ".filepart", ".swp"))


@dataclass(frozen=True)
class WatchOptions:
    """How a folder is watched and what is written for each file."""

    settle_s: float = 2.0  # size and time unchanged this long (or the writer closed it) = complete
    incomplete_s: float = 120.0  # end marker still missing after this long unchanged: read (and fail)
    polling: bool | None = None  # None: native events, polling on network file systems or as fallback
    poll_interval_s: float = 2.0
    rescan_s: float = 300.0  # a full listing this often catches anything the events missed
    jobs: int = 4
    formats: tuple[str, ...] = ("txt", "json")
    fields: bool = False
    layout: OutputLayout = field(default_factory=OutputLayout)
    summary_every_s: float = 10.0  # the batch exports (OUT/results.*) at most this often
    retry_s: float = 30.0  # after a run stopped (server gone), queued files are tried again this late


Listener = Callable[[object], object]  # its return value is ignored


class FolderWatcher:
    """Watches ``folder`` into ``out_dir``; ``start()``, then ``stop()`` (or use as a context manager)."""

    def __init__(
        self,
        folder: Path | str,
        out_dir: Path | str,
        recognize: Recognize,
        options: WatchOptions | None = None,
        on_event: Listener | None = None,
        sink: PageSink | None = None,
    ) -> None:
        """``sink``: told of each page as it is stored (the receipt library)."""
        self.folder, self.out_dir = Path(folder).absolute(), Path(out_dir).absolute()
        if not self.folder.is_dir():
            raise NotADirectoryError(f"{self.folder}: not a folder")
        if self.folder.is_relative_to(self.out_dir):
            raise ValueError(f"{self.folder} lies inside the output folder {self.out_dir}")
        self.recognize, self.options, self.on_event = recognize, options or WatchOptions(), on_event
        self.store = BatchStore(self.out_dir / STORE_NAME, sink)
        layout = self.options.layout
        if layout.root is None:
            layout = OutputLayout(layout.mode, layout.template, self.folder)
        self.namer = Namer(layout)
        self._settler = Settler(self.options.settle_s, self.options.incomplete_s)
        self._cond = threading.Condition()  # guards _settler, _ready, _round_wanted; wakes both loops
        self._ready: list[Path] = []
        self._round_wanted = True  # run once at start: files a killed run left queued
        self._working = False  # the batch loop holds files taken from _ready
        self._halt = threading.Event()
        self._runner: BatchRunner | None = None
        self._threads: list[threading.Thread] = []
        self._observer: BaseObserver | None = None
        self._idle = threading.Event()
        self._reported: set[Path] = set()

    # Lifecycle ------------------------------------------------------------------------------------
    def start(self) -> None:
        """Start watching: list what is there now, start the observer and the two worker threads."""
        if self.namer.layout.template is not None:
            self._seed_names()
        self._observer, how = start_observer(
            self.folder, _Handler(self), self.options.polling, self.options.poll_interval_s, self._notice
        )
        known = self.store.summary()
        self._emit(WatchStarted(self.folder, how, known.done + known.failed))
        self.rescan()  # after the observer starts (nothing is missed), before the loops (--once sees it)
        for name, target in (("watch-settle", self._settle_loop), ("watch-batch", self._batch_loop)):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        """Stop: pages in flight finish and are saved; unfinished files are read at the next start."""
        self._halt.set()
        with self._cond:
            runner = self._runner
            self._cond.notify_all()
        if runner is not None:
            runner.cancel()
        if self._observer is not None:
            self._observer.stop()
            self._observer.join()
        for thread in self._threads:
            thread.join()
        self._write_summary()
        self.store.close()

    def __enter__(self) -> FolderWatcher:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until nothing waits to settle or to be read (e.g. for ``watch --once``)."""
        return self._idle.wait(timeout)

    # Noticing files -----------------------------------------------------------------------------
    def wanted(self, path: Path) -> bool:
        """Whether a path under the folder is an input (reports unsupported types once)."""
        try:
            relative = path.relative_to(self.folder)
        except ValueError:
            return False
        if path.is_relative_to(self.out_dir) or any(p.startswith(".") for p in relative.parts):
            return False
        suffix = path.suffix.lower()
        if suffix in TEMP_SUFFIXES or path.name.endswith("~"):
            return False
        if suffix not in images.SUPPORTED_SUFFIXES:
            if path not in self._reported:
                self._reported.add(path)
                self._emit(FileSkipped(path, f"unsupported type {suffix or '(no extension)'}"))
            return False
        return True

    def touch(self, path: Path, closed: bool = False) -> None:
        if not self.wanted(path):
            return
        with self._cond:
            new = self._settler.touch(path, time.monotonic(), closed)
            self._idle.clear()
            self._cond.notify_all()
        if new:
            self._emit(FileWaiting(path))

    def forget(self, path: Path) -> None:
        with self._cond:
            self._settler.forget(path)
            self._cond.notify_all()

    def rescan(self, folder: Path | None = None) -> None:
        """List the folder (or a subfolder that appeared) and take every file not read before."""
        found, _ = images.discover([folder or self.folder])  # skipped ones: hidden or unsupported
        known = {f.path: (f.size, f.mtime) for f in self.store.files() if f.state in ("done", "failed")}
        for path in found:
            path = path.absolute()
            try:
                st = path.stat()
            except OSError:
                continue
            if known.get(path) != (st.st_size, st.st_mtime):
                self.touch(path)

    # The loops ----------------------------------------------------------------------------------
    def _settle_loop(self) -> None:
        last_scan = time.monotonic()
        while not self._halt.is_set():
            with self._cond:
                ready, due = self._settler.check(time.monotonic())
                if ready:
                    self._ready += ready
                    self._cond.notify_all()
                elif due is None and not (self._ready or self._round_wanted or self._working):
                    self._idle.set()
                to_scan = self.options.rescan_s - (time.monotonic() - last_scan)
                wait = to_scan if due is None else min(due, to_scan)
                if not ready and wait > 0:
                    self._cond.wait(wait)
            if time.monotonic() - last_scan >= self.options.rescan_s and not self._halt.is_set():
                last_scan = time.monotonic()
                self.rescan()

    def _batch_loop(self) -> None:
        self._export_missing()
        last_summary, dirty, retry_at = 0.0, False, None
        while not self._halt.is_set():
            with self._cond:
                now = time.monotonic()
                flush_at = last_summary + self.options.summary_every_s if dirty else None
                waits = [t - now for t in (retry_at, flush_at) if t is not None]
                if not (self._ready or self._round_wanted):
                    self._cond.wait(max(0.0, min(waits)) if waits else None)
                paths, self._ready = self._ready, []
                wanted, self._round_wanted = self._round_wanted, False
                self._working = bool(paths or wanted or retry_at is not None)
            if self._halt.is_set():
                break
            now = time.monotonic()
            if retry_at is not None and now >= retry_at:
                wanted, retry_at = True, None
            if paths or wanted:
                self._add(paths)
                stopped = self._run_round()
                dirty = True
                retry_at = now + self.options.retry_s if stopped and self.store.pending() else None
            if dirty and time.monotonic() - last_summary >= self.options.summary_every_s:
                self._write_summary()
                last_summary, dirty = time.monotonic(), False
            with self._cond:
                self._working = retry_at is not None
                self._cond.notify_all()  # the settle loop decides idleness

    def _add(self, paths: Sequence[Path]) -> None:
        for path in paths:
            if self._halt.is_set():
                return  # not in the store yet: the next start lists them again
            try:
                (record,) = self.store.add_files([path])
                if record.state == "done":  # the same content as a file read before: its pages were copied
                    self._export_if_missing(record.id, record.path)
            except FileNotFoundError:
                continue  # gone before it could be read: nothing to keep
            except OSError as exc:
                self._emit(FileSkipped(path, f"cannot be read ({exc.strerror or exc})"))

    def _run_round(self) -> bool:
        """Run the store's queued files; True when the run stopped early (e.g. the server is gone)."""
        with self._cond:
            if self._halt.is_set():
                return False
            self._runner = BatchRunner(self.store, self.recognize, self.options.jobs, self._on_batch_event)
        try:
            summary = self._runner.run()
        finally:
            with self._cond:
                self._runner = None
        if summary.stopped and not self._halt.is_set():
            self._notice(f"run stopped ({summary.stopped}); queued files are tried again in "
                         f"{self.options.retry_s:g} s")  # fmt: skip
        return summary.stopped is not None

    # Outputs -----------------------------------------------------------------------------------
    def _on_batch_event(self, event: Event) -> None:
        if isinstance(event, RunStopped) and self._halt.is_set():
            return
        self._emit(event)
        if isinstance(event, FileDone):
            try:
                outputs = self._export_file(event.file_id, event.path)
            except (OSError, ValueError) as exc:
                self._notice(f"{event.path}: its exports could not be written ({exc})")
                return
            self._emit(FileExported(event.path, tuple(outputs)))

    def _export_file(self, file_id: int, path: Path) -> list[Path]:
        pages = tuple(edited_page(p) for p in self.store.pages(file_id))
        doc = DocumentResult(str(path), pages)
        name = self.namer.name(str(path), pages[0] if pages else None)
        return write_document(doc, self.out_dir, name, self.options.formats, page_images, self._page_extra())

    def _page_extra(self) -> PageExtra | None:
        if not self.options.fields:
            return None
        from scanner_app.core.export.fields_sheet import page_fields_json

        return page_fields_json

    def _write_summary(self) -> None:
        formats = [f for f in self.options.formats if f != "pdf"]  # PDFs are per file already
        if not formats:
            return
        try:
            export_store(self.store, self.out_dir, formats, fields=self.options.fields)
        except (OSError, ValueError) as exc:
            self._notice(f"the batch exports in {self.out_dir} could not be written ({exc})")

    def _export_missing(self) -> None:
        """Files a killed run stored as done but never exported (killed in between) get their exports."""
        for record in self.store.files("done"):
            if self._halt.is_set():
                return
            self._export_if_missing(record.id, record.path)

    def _export_if_missing(self, file_id: int, path: Path) -> None:
        formats = self.options.formats
        pages = self.store.pages(file_id)
        if not formats or not pages:
            return
        name = self.namer.name(str(path), edited_page(pages[0]))
        target = self.out_dir / Path(*name.parts)
        if target.with_name(f"{target.name}.{formats[0]}").exists():
            return
        try:
            outputs = self._export_file(file_id, path)
        except (OSError, ValueError) as exc:
            self._notice(f"{path}: its exports could not be written ({exc})")
            return
        self._emit(FileExported(path, tuple(outputs), late=True))

    def _seed_names(self) -> None:
        """Templated names again for files read before, in the same order: no name changes hands."""
        for result in self.store.results():
            if result.file.state == "done" and result.pages:
                self.namer.name(str(result.file.path), edited_page(result.pages[0]))

    def _notice(self, message: str) -> None:
        log.warning("%s", message)
        self._emit(WatchNotice(message))

    def _emit(self, event: object) -> None:
        if self.on_event is not None:
            try:
                self.on_event(event)
            except Exception:
                log.exception("watch event handler failed on %r", event)


class _Handler(FileSystemEventHandler):
    """watchdog events (observer thread) to the watcher."""

    def __init__(self, watcher: FolderWatcher) -> None:
        self.watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        src = Path(_text(event.src_path))
        if isinstance(event, DirMovedEvent | DirCreatedEvent):
            # A folder moved in brings files with no events of their own.
            self.watcher.rescan(Path(_text(event.dest_path)) if isinstance(event, DirMovedEvent) else src)
        elif event.is_directory:
            return
        elif isinstance(event, FileMovedEvent):
            self.watcher.forget(src)
            self.watcher.touch(Path(_text(event.dest_path)))
        elif isinstance(event, FileDeletedEvent):
            self.watcher.forget(src)  # its results stay in the store and the exports
        elif event.event_type in ("created", "modified"):
            self.watcher.touch(src)
        elif isinstance(event, FileClosedEvent):
            self.watcher.touch(src, closed=True)


def _text(path: str | bytes) -> str:
    return path.decode(errors="surrogateescape") if isinstance(path, bytes) else path
