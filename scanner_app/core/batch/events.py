"""What a batch run reports: its events (in the order a file goes through them) and its summary."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scanner_app.core.results import PageResult


@dataclass(frozen=True)
class BatchSummary:
    """Where the batch stands after a run: files over the whole store, timing of this run."""

    ok: tuple[Path, ...]
    failed: tuple[tuple[Path, str], ...]  # (file, cause)
    pending: tuple[Path, ...]  # still queued: cancelled, or the server was lost
    skipped: tuple[tuple[Path, str], ...]  # (path, reason): never added to the batch
    pages: int  # pages stored
    lines: int  # lines stored
    pages_sent: int  # pages recognised in this run
    seconds: float  # this run's wall time
    stopped: str | None  # None when the run went to the end, else why it stopped
    receipts: int = 0  # documents on the stored pages (several receipts on one glass count each)

    @property
    def images_per_s(self) -> float:
        return self.pages_sent / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class FileStarted:
    file_id: int
    path: Path


@dataclass(frozen=True)
class PageDone:
    file_id: int
    path: Path
    index: int  # 0-based
    count: int  # pages in the file
    result: PageResult  # boxes in the page's own pixels


@dataclass(frozen=True)
class FileDone:
    file_id: int
    path: Path
    pages: int


@dataclass(frozen=True)
class FileFailed:
    file_id: int
    path: Path
    cause: str


@dataclass(frozen=True)
class ServerWaiting:
    """The server is unavailable; this page is sent again in ``retry_in`` seconds."""

    cause: str
    attempt: int
    retry_in: float
    waited: float  # seconds since the outage began


@dataclass(frozen=True)
class RunStopped:
    """The run stops early (cancelled, server gone past patience, server/TLS/setup error, store error)."""

    reason: str  # also BatchSummary.stopped


@dataclass(frozen=True)
class Progress:
    done: int
    failed: int
    total: int  # files in the store
    pages: int
    lines: int
    elapsed: float  # seconds in this run


@dataclass(frozen=True)
class BatchFinished:
    summary: BatchSummary


Event = FileStarted | PageDone | FileDone | FileFailed | ServerWaiting | RunStopped | Progress | BatchFinished
