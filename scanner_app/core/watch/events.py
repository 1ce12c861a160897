"""What a folder watcher reports besides the batch runner's own events (core/batch/events.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class WatchStarted:
    folder: Path
    observer: str  # "inotify", "polling (...)", ...: how changes are noticed
    known: int  # files the store already holds (read before; not read again)


@dataclass(frozen=True)
class FileWaiting:
    """A new or changed file was seen; it is read once it is complete."""

    path: Path


@dataclass(frozen=True)
class FileSkipped:
    """A file that is not read: unsupported type, or it could not be opened to be added."""

    path: Path
    reason: str


@dataclass(frozen=True)
class FileExported:
    """A file's own outputs (``OUT/<relative name>.<format>``) are on disk."""

    path: Path
    outputs: tuple[Path, ...]
    late: bool = False  # not read now: an earlier run read it (and was killed before exporting), or the
    # same content was read before under another name


@dataclass(frozen=True)
class WatchNotice:
    """Something the person watching should know (fallback to polling, a retry after a server outage)."""

    message: str


WatchEvent = WatchStarted | FileWaiting | FileSkipped | FileExported | WatchNotice
