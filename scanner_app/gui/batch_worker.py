"""A batch run on its own thread: discover, store, run; events queued for the GUI to drain.

Nothing here touches Qt. The runner's events arrive on its worker threads and go into a
thread-safe queue; the panel drains it on a timer (every ~100 ms), so a 1000-file batch costs
the GUI one table update per tick, not one per event.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from scanner_app.core import images
from scanner_app.core.batch import BatchRunner, Recognize
from scanner_app.core.store import STORE_NAME, BatchStore, FileRecord

PROGRESS_EVERY = 50  # files added between two Preparing events


@dataclass(frozen=True)
class Prepared:
    """The store is open and holds the batch's files; rows can be shown."""

    store: BatchStore
    records: tuple[FileRecord, ...]
    known: dict[int, tuple[int, float]]  # file id -> (lines, ms) of pages stored before this run
    skipped: tuple[tuple[Path, str], ...]


@dataclass(frozen=True)
class Preparing:
    """Files are being added to the store (hashed): ``added`` of ``found`` so far."""

    added: int
    found: int


@dataclass(frozen=True)
class PrepareFailed:
    """The batch could not start (store folder not writable...)."""

    message: str


def add_to_store(
    store: BatchStore, paths: Sequence[Path], on_progress: Callable[[int, int], None] | None = None
) -> tuple[list[Path], list[tuple[Path, str]]]:
    """Discover files under ``paths`` (recursive) and add them; (added, skipped with reasons).

    ``on_progress(done, found)`` is called every PROGRESS_EVERY files.
    """
    out_dir = store.path.parent.absolute()
    found, skipped = images.discover([Path(p) for p in paths])
    added: list[Path] = []
    for n, path in enumerate(found, 1):
        if path.absolute().is_relative_to(out_dir):
            skipped.append((path, "inside the batch folder"))
            continue
        try:
            store.add_files([path])
        except OSError as exc:
            skipped.append((path, f"cannot be read ({exc.strerror or exc})"))
        else:
            added.append(path)
        if on_progress is not None and n % PROGRESS_EVERY == 0:
            on_progress(n, len(found))
    return added, skipped


def known_results(store: BatchStore, records: Sequence[FileRecord]) -> dict[int, tuple[int, float]]:
    """(lines, ms) of every file that already has stored pages (a resumed or duplicate file)."""
    known = {}
    for record in records:
        if record.state == "done" or record.pages:
            pages = store.pages(record)
            if pages:
                known[record.id] = (sum(len(p.result.lines) for p in pages), sum(p.elapsed_ms for p in pages))
    return known


class BatchJob:
    """One run over a batch folder. ``start()`` returns at once; ``drain()`` hands over the events."""

    def __init__(
        self,
        folder: Path,
        recognize: Recognize,
        paths: Sequence[Path] = (),
        *,
        jobs: int = 4,
        patience_s: float = 300.0,
        store: BatchStore | None = None,
    ) -> None:
        """``paths`` are added to ``folder``'s store; with ``store`` given, that store's queued files run."""
        self.folder = Path(folder)
        self.recognize = recognize
        self.paths = tuple(Path(p) for p in paths)
        self.jobs = jobs
        self.patience_s = patience_s
        self._store = store
        self._events: deque[object] = deque()
        self._lock = threading.Lock()
        self._runner: BatchRunner | None = None
        self._paused = False
        self._cancelled = False
        self._thread = threading.Thread(target=self._run, name="batch-job", daemon=True)

    def start(self) -> None:
        self._thread.start()

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    def drain(self) -> list[object]:
        """Every event queued since the last call, in order (thread-safe)."""
        events = []
        while True:
            try:
                events.append(self._events.popleft())
            except IndexError:
                return events

    def pause(self) -> None:
        with self._lock:
            self._paused = True
            if self._runner is not None:
                self._runner.pause()

    def resume(self) -> None:
        with self._lock:
            self._paused = False
            if self._runner is not None:
                self._runner.resume()

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            self._paused = False
            if self._runner is not None:
                self._runner.cancel()

    @property
    def paused(self) -> bool:
        return self._paused

    def _run(self) -> None:
        try:
            store = self._store or BatchStore(self.folder / STORE_NAME)

            def progress(done: int, found: int) -> None:
                self._events.append(Preparing(done, found))

            _, skipped = add_to_store(store, self.paths, progress) if self.paths else ([], [])
            records = tuple(store.files())
            self._events.append(Prepared(store, records, known_results(store, records), tuple(skipped)))
        except Exception as exc:  # sqlite3.Error, OSError: the folder is unusable
            self._events.append(PrepareFailed(f"Cannot prepare the batch in {self.folder}: {exc}"))
            return
        runner = BatchRunner(store, self.recognize, self.jobs, self._events.append,
                             patience_s=self.patience_s, skipped=skipped)  # fmt: skip
        with self._lock:
            self._runner = runner
            if self._paused:
                runner.pause()
            if self._cancelled:
                runner.cancel()
        try:
            runner.run()
        except Exception as exc:  # a bug or a store failure outside the runner's own handling
            self._events.append(PrepareFailed(f"The batch stopped: {exc}"))
