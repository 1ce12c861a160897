"""Persistent, resumable batch OCR over a BatchStore.

``BatchRunner.run()`` reads the store's queued files page by page (``images.iter_pages``), keeps
``jobs`` requests in flight, maps boxes back to the page's pixels and saves each page as it
arrives. A run that was cancelled, killed or lost its server leaves unfinished files queued; the
next run sends only the pages not stored yet. One run at a time per store. What a page's stored result
is: scanner_app.core.batch.pages; adding the inputs to the store: scanner_app.core.batch.inputs.

Events go to ``on_event`` from the thread that produced them (the ``run()`` thread, a worker, or
the caller of cancel()), possibly from several at once, each after the store write it reports;
a GUI must marshal them to its own thread. An exception raised by ``on_event`` is logged, ignored.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from scanner_app.core import images
from scanner_app.core.batch.events import (
    BatchFinished,
    BatchSummary,
    Event,
    FileDone,
    FileFailed,
    FileStarted,
    PageDone,
    Progress,
    RunStopped,
)
from scanner_app.core.batch.inputs import PROGRESS_EVERY, add_to_store
from scanner_app.core.batch.outage import POISON_TIMEOUTS, OutagePolicy, OutOfPatience, Stopped
from scanner_app.core.batch.pages import failure_cause, in_page_pixels, text_layer_result
from scanner_app.core.errors import (
    ClientConfigError,
    InferenceFailed,
    ServerContractError,
    ServerUnavailable,
    TlsError,
)
from scanner_app.core.fields.page_codes import with_codes
from scanner_app.core.results import PageResult
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore, FileRecord, PageSink

__all__ = ["POISON_TIMEOUTS", "PROGRESS_EVERY", "BatchRunner", "Recognize", "add_to_store", "run_batch",
           "text_layer_result"]  # fmt: skip

log = logging.getLogger(__name__)

Recognize = Callable[[bytes, str], PageResult]
# Every file would meet these the same way: the run stops and files stay queued.
# Failures of the server, not of the file: such a file is sent again by the next run (resume).
_SERVER_FAULTS = (ServerUnavailable, InferenceFailed)
_FATAL = (ServerContractError, TlsError, ClientConfigError, sqlite3.Error)


@dataclass(eq=False)
class _FileTask:
    """One file in flight (fields guarded by the runner's lock)."""

    record: FileRecord
    count: int = 0  # pages in the file
    outstanding: int = 0  # pages handed to workers and not back yet
    producing: bool = True
    produced_all: bool = False
    incomplete: bool = False  # a page was dropped because the run stopped
    cause: str | None = None
    retryable: bool = False  # the cause is the server's, not the file's
    finished: bool = False


class BatchRunner:
    """Runs the store's queued files with ``jobs`` requests in flight; see the module docstring."""

    def __init__(
        self,
        store: BatchStore,
        recognize: Recognize,
        jobs: int = 4,
        on_event: Callable[[Event], object] | None = None,
        *,
        patience_s: float = 300.0,
        first_backoff_s: float = 1.0,
        max_backoff_s: float = 30.0,
        skipped: Sequence[tuple[Path, str]] = (),
        force_ocr: bool = False,
    ) -> None:
        """``patience_s``: how long the server may stay unavailable before the run stops.

        ``force_ocr``: OCR every PDF page, even one whose own text layer is real text (by default read).
        """
        self.store, self.recognize, self.jobs, self.on_event = store, recognize, max(1, jobs), on_event
        self.force_ocr = force_ocr
        self.skipped = tuple(skipped)
        self._go = threading.Event()  # cleared while paused
        self._go.set()
        self._halt = threading.Event()  # set once the run must stop
        self._outage = OutagePolicy(patience_s, first_backoff_s, max_backoff_s, self._halt, self._emit)
        self._lock = threading.RLock()
        self._stop_reason: str | None = None
        self._counts = dict.fromkeys(("done", "failed", "total", "pages", "lines", "sent"), 0)
        self._started = 0.0

    # Control, from any thread ------------------------------------------------------------------
    def pause(self) -> None:
        """Send no new page until resume(); pages in flight finish and are saved."""
        self._go.clear()

    def resume(self) -> None:
        self._go.set()

    def cancel(self) -> None:
        """Stop after the pages in flight (saved); unfinished files stay queued for a later run."""
        self._stop("cancelled")

    @property
    def paused(self) -> bool:
        return not self._go.is_set()

    def _stop(self, reason: str) -> None:
        with self._lock:
            first, self._stop_reason = self._stop_reason is None, self._stop_reason or reason
        self._halt.set()
        self._go.set()
        if first:
            self._emit(RunStopped(reason))

    def _emit(self, event: Event) -> None:
        if self.on_event is not None:
            try:
                self.on_event(event)
            except Exception:
                log.exception("batch event handler failed on %r", event)

    # The run ------------------------------------------------------------------------------------
    def run(self) -> BatchSummary:
        """Run every queued file (blocking); the summary, also sent as BatchFinished. Runs once."""
        if self._started:
            raise RuntimeError("a BatchRunner runs once; make a new one to run again")
        self._started = time.monotonic()
        self.store.reset_running()  # left by a run that was killed
        self.store.requeue_failed(only_retryable=True)  # the server failed them, not the file
        totals = self.store.summary()
        self._counts.update(done=totals.done, failed=totals.failed, total=totals.files,
                            pages=totals.pages, lines=totals.lines)  # fmt: skip
        tasks: list[_FileTask] = []
        slots = threading.BoundedSemaphore(self.jobs)  # pages handed out and not back: at most jobs
        with ThreadPoolExecutor(self.jobs, thread_name_prefix="batch") as pool:
            for record in self.store.pending():
                if self._halt.is_set():
                    break
                tasks.append(_FileTask(record, count=record.pages or 0))
                try:
                    self._produce(tasks[-1], pool, slots)
                except sqlite3.Error as exc:
                    self._stop(f"cannot save results: {exc}")
        try:
            for task in tasks:
                if not task.finished:
                    self.store.mark_queued(task.record)
        except sqlite3.Error as exc:  # a later run's reset_running() queues them
            self._stop(f"cannot save results: {exc}")
        summary = self.summary()
        self._emit(BatchFinished(summary))
        return summary

    def _produce(self, task: _FileTask, pool: ThreadPoolExecutor, slots: threading.BoundedSemaphore) -> None:
        """Read one file's pages and hand those not stored yet to the workers."""
        record = task.record
        stored = self.store.page_indexes(record)
        if record.pages is not None and stored >= set(range(record.pages)):
            task.produced_all = True  # every page was stored before a crash: nothing to send
        else:
            self.store.mark_running(record)
            self._emit(FileStarted(record.id, record.path))
            pages = images.iter_pages(record.path, text_layer=not self.force_ocr)
            try:
                for page in pages:
                    if page.count != task.count:
                        task.count = page.count
                        self.store.set_page_count(record, page.count)
                    if task.cause is not None or not self._wait_go():
                        break
                    if page.index in stored:
                        continue
                    slots.acquire()
                    if self._halt.is_set():
                        slots.release()
                        break
                    with self._lock:
                        task.outstanding += 1
                    pool.submit(self._page_job, task, page, slots)
                else:
                    task.produced_all = True
            except sqlite3.Error:
                raise
            except Exception as exc:  # UnreadableFile, or anything else reading this file raised
                self._fail(task, failure_cause(record.path, exc))
            finally:
                pages.close()
        with self._lock:
            task.producing = False
        self._check_finished(task)

    def _wait_go(self) -> bool:
        """Wait while paused; False when the run is stopping."""
        self._go.wait()
        return not self._halt.is_set()

    def _page_job(self, task: _FileTask, page: images.Page, slots: threading.BoundedSemaphore) -> None:
        try:
            if task.cause is not None:
                return
            if not self._wait_go():
                raise Stopped
            result = text_layer_result(page)
            if result is None:
                wire = images.encode_for_wire(page)
                result = in_page_pixels(self._recognize(wire.data, page.name), wire.scale, page)
            result = with_codes(result, page.image)  # a VAT invoice's QR code, for its fields
            self.store.save_page(task.record, page.index, result)
            sent = int(result.source == "ocr")
            with self._lock:
                for key, n in (("pages", 1), ("lines", len(result.lines)), ("sent", sent)):
                    self._counts[key] += n
                progress = self._progress()
            self._emit(PageDone(task.record.id, task.record.path, page.index, page.count, result))
            self._emit(progress)
        except Stopped:
            with self._lock:
                task.incomplete = True
        except _FATAL as exc:
            self._stop(f"cannot save results: {exc}" if isinstance(exc, sqlite3.Error) else str(exc))
            with self._lock:
                task.incomplete = True
        except Exception as exc:  # InvalidImage, InferenceFailed, a bad page: this file fails
            where = f"page {page.index + 1} of {page.count}: " if page.count > 1 else ""
            self._fail(
                task, where + failure_cause(page.source, exc), retryable=isinstance(exc, _SERVER_FAULTS)
            )
        finally:
            with self._lock:
                task.outstanding -= 1
            slots.release()
            self._check_finished(task)

    def _recognize(self, data: bytes, name: str) -> PageResult:
        """recognize() through the outage policy; a run out of patience stops here."""
        try:
            return self._outage.recognize(self.recognize, data, name, lambda: self._counts["sent"])
        except OutOfPatience as exc:
            self._stop(str(exc))
            raise Stopped from None

    def _fail(self, task: _FileTask, cause: str, retryable: bool = False) -> None:
        with self._lock:
            if task.cause is None:
                task.cause, task.retryable = cause, retryable

    def _check_finished(self, task: _FileTask) -> None:
        """Record the file's outcome once its last page is back and no more are coming."""
        with self._lock:
            if task.finished or task.producing or task.outstanding:
                return
            if task.cause is None and (task.incomplete or not task.produced_all):
                return  # stopped early: run() leaves it queued
            event: FileDone | FileFailed | None
            record, event, reason = task.record, None, ""
            try:
                if task.cause is not None:
                    self.store.mark_failed(record, task.cause, task.retryable)
                    event = FileFailed(record.id, record.path, task.cause)
                else:
                    self.store.mark_done(record, task.count)
                    event = FileDone(record.id, record.path, task.count)
            except sqlite3.Error as exc:
                reason = f"cannot save results: {exc}"
            task.finished = event is not None
            if event is not None:
                self._counts["failed" if isinstance(event, FileFailed) else "done"] += 1
                progress = self._progress()
        if event is None:
            self._stop(reason)
            return
        self._emit(event)
        self._emit(progress)

    def _progress(self) -> Progress:
        c = self._counts
        elapsed = time.monotonic() - self._started
        return Progress(c["done"], c["failed"], c["total"], c["pages"], c["lines"], elapsed)

    def summary(self) -> BatchSummary:
        """The store's state now, with this run's timing."""
        files, totals = self.store.files(), self.store.summary()
        return BatchSummary(
            ok=tuple(f.path for f in files if f.state == "done"),
            failed=tuple((f.path, f.error or "") for f in files if f.state == "failed"),
            pending=tuple(f.path for f in files if f.state in ("queued", "running")),
            skipped=self.skipped,
            pages=totals.pages,
            lines=totals.lines,
            pages_sent=self._counts["sent"],
            seconds=time.monotonic() - self._started if self._started else 0.0,
            stopped=self._stop_reason,
            receipts=totals.receipts,
        )


def run_batch(
    paths: Iterable[Path | str],
    out_dir: Path | str,
    recognize: Recognize,
    jobs: int = 4,
    on_event: Callable[[Event], None] | None = None,
    resume: bool = True,
    force_ocr: bool = False,
    sink: PageSink | None = None,
    **runner_options: float,
) -> BatchSummary:
    """Discover files under ``paths``, add them to ``<out_dir>/scanner-app.sqlite`` and run them.

    ``resume=True`` keeps what the store holds (done files and stored pages are not sent again);
    ``resume=False`` clears the store first. Files inside ``out_dir`` are never inputs.
    ``force_ocr``: OCR PDF pages with a text layer too. ``sink``: told of each page as it is stored
    (the receipt library). ``runner_options`` go to BatchRunner
    (patience_s, first_backoff_s, max_backoff_s).
    """
    with BatchStore(Path(out_dir).absolute() / STORE_NAME, sink) as store:
        if not resume:
            store.clear()
        skipped = add_to_store(store, paths)
        runner = BatchRunner(
            store, recognize, jobs, on_event, skipped=skipped, force_ocr=force_ocr, **runner_options
        )
        return runner.run()
