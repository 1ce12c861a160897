"""Qt-free bookkeeping of the batch table: one row per file, folded from the runner's events."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from scanner_app.core.batch.events import (
    BatchFinished,
    BatchSummary,
    FileDone,
    FileFailed,
    FileStarted,
    PageDone,
    Progress,
    RunStopped,
    ServerWaiting,
)
from scanner_app.core.batch.review import FileReview
from scanner_app.core.store.batch_store import FileRecord


@dataclass
class BatchRow:
    """One file of the batch as the table shows it."""

    file_id: int
    path: Path
    state: str = "queued"  # queued / running / done / failed
    cause: str = ""  # why it failed
    pages: int | None = None  # page count once known
    pages_done: int = 0
    lines: int = 0
    ms: float = 0.0  # server time of its pages, summed
    review: FileReview | None = None  # its receipts' fields, flags and checked marks, once read


@dataclass
class RunTotals:
    """The run as the progress bar and status line show it."""

    total: int = 0
    done: int = 0
    failed: int = 0
    pages_sent: int = 0  # pages recognised in this run
    lines: int = 0
    elapsed: float = 0.0
    waiting: ServerWaiting | None = None  # the server is unavailable right now
    stopped: str | None = None
    summary: BatchSummary | None = None  # set when the run has ended
    skipped: tuple[tuple[Path, str], ...] = ()

    @property
    def images_per_s(self) -> float:
        return self.pages_sent / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def finished(self) -> bool:
        return self.summary is not None


@dataclass
class RowBook:
    """Rows by file id; ``apply`` folds an event in and says which row changed."""

    rows: list[BatchRow] = field(default_factory=list)
    totals: RunTotals = field(default_factory=RunTotals)
    _index: dict[int, int] = field(default_factory=dict)

    def load(self, records: Iterable[FileRecord], known: dict[int, tuple[int, float]] | None = None) -> None:
        """Start over with these files; ``known`` gives (lines, ms) of files already stored."""
        known = known or {}
        self.rows = []
        for record in records:
            lines, ms = known.get(record.id, (0, 0.0))
            pages_done = record.pages or 0 if record.state == "done" else 0
            row = BatchRow(record.id, record.path, record.state, record.error or "", record.pages,
                           pages_done, lines, ms)  # fmt: skip
            self.rows.append(row)
        self._index = {row.file_id: i for i, row in enumerate(self.rows)}
        self.totals = RunTotals(total=len(self.rows), done=self.count("done"), failed=self.count("failed"))

    def count(self, state: str) -> int:
        return sum(1 for row in self.rows if row.state == state)

    def row_of(self, file_id: int) -> int | None:
        return self._index.get(file_id)

    def apply(self, event: object) -> int | None:
        """Fold one runner event in; the index of the row it changed, if any."""
        totals = self.totals
        if isinstance(event, Progress):
            totals.done, totals.failed, totals.total = event.done, event.failed, event.total
            totals.elapsed = event.elapsed
            return None
        if isinstance(event, ServerWaiting):
            totals.waiting = event
            return None
        if isinstance(event, RunStopped):
            totals.stopped = event.reason
            return None
        if isinstance(event, BatchFinished):
            totals.summary, totals.waiting = event.summary, None
            totals.stopped = event.summary.stopped
            totals.elapsed = event.summary.seconds
            return None
        index = self._index.get(getattr(event, "file_id", -1))
        if index is None:
            return None
        row = self.rows[index]
        if isinstance(event, FileStarted):
            row.state, row.cause = "running", ""
        elif isinstance(event, PageDone):
            totals.waiting = None
            totals.pages_sent += 1
            totals.lines += len(event.result.lines)
            row.pages, row.pages_done = event.count, row.pages_done + 1
            row.lines += len(event.result.lines)
            row.ms += event.result.elapsed_ms
        elif isinstance(event, FileDone):
            row.state, row.pages = "done", event.pages
        elif isinstance(event, FileFailed):
            row.state, row.cause = "failed", event.cause
        return index

    def set_reviews(self, reviews: dict[int, FileReview]) -> list[int]:
        """Give rows their receipts (file id -> FileReview); the indexes of the rows that changed."""
        changed = []
        for index, row in enumerate(self.rows):
            review = reviews.get(row.file_id)
            if review != row.review:
                row.review = review
                changed.append(index)
        return changed

    def requeue_unfinished(self) -> None:
        """After a stopped run: rows left running are queued again (as the store has them)."""
        for row in self.rows:
            if row.state == "running":
                row.state = "queued"
