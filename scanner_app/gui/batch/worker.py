"""A batch run for the Batch tab: core.batch.runner's preparation and runner on a Background thread.

Nothing here touches widgets. The runner's events (from its worker threads) go through the
Background's relay, so they reach the panel on the GUI thread in order, those that arrived
meanwhile in one call: a 1000-file batch costs the GUI one table update per wake-up, not per event.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from scanner_app.core.batch.runner import BatchRunner, Recognize, add_to_store
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore, FileRecord, PageSink
from scanner_app.gui.background import Background


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
    """The batch could not start (store folder not writable...) or stopped on an unexpected error."""

    message: str


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
    """One run over a batch folder; ``start()`` returns at once, events go to ``on_events(list)``."""

    def __init__(
        self,
        background: Background,
        on_events: Callable[[list[object]], None],
        folder: Path,
        recognize: Recognize,
        paths: Sequence[Path] = (),
        *,
        jobs: int = 4,
        patience_s: float = 300.0,
        store: BatchStore | None = None,
        sink: PageSink | None = None,
    ) -> None:
        """``paths`` are added to ``folder``'s store; with ``store`` given, that store's queued files run.
        ``sink``: told of each page a new store saves (the receipt library)."""
        self.folder = Path(folder)
        self.recognize = recognize
        self.paths = tuple(Path(p) for p in paths)
        self.jobs = jobs
        self.patience_s = patience_s
        self._store = store
        self._sink = sink
        self._background = background
        self._on_events = on_events
        self._post = background.relay(on_events)
        self._lock = threading.Lock()
        self._runner: BatchRunner | None = None
        self._paused = False
        self._cancelled = False

    def start(self) -> None:
        self._background.run(self._run, self._on_done)

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
            store = self._store or BatchStore(self.folder / STORE_NAME, sink=self._sink)
            progress = lambda done, found: self._post(Preparing(done, found))  # noqa: E731
            skipped = add_to_store(store, self.paths, progress) if self.paths else []
            records = tuple(store.files())
            self._post(Prepared(store, records, known_results(store, records), tuple(skipped)))
        except Exception as exc:  # sqlite3.Error, OSError: the folder is unusable
            self._post(PrepareFailed(f"Cannot prepare the batch in {self.folder}: {exc}"))
            return
        runner = BatchRunner(store, self.recognize, self.jobs, self._post,
                             patience_s=self.patience_s, skipped=skipped)  # fmt: skip
        with self._lock:
            self._runner = runner
            if self._paused:
                runner.pause()
            if self._cancelled:
                runner.cancel()
        runner.run()

    def _on_done(self, _: object, error: BaseException | None) -> None:
        if error is not None:  # a bug or a store failure outside the runner's own handling
            self._on_events([PrepareFailed(f"The batch stopped: {error}")])
