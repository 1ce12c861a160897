"""Choosing how a folder's changes are noticed: the platform's native events (inotify, FSEvents,
ReadDirectoryChangesW) through watchdog, or watchdog's polling observer on network shares, where a
client's inotify never hears of files that another machine writes (the mount table: core/mounts.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from watchdog.events import FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

from scanner_app.core.mounts import NETWORK_FS, filesystem_type

__all__ = ["NETWORK_FS", "filesystem_type", "start_observer"]


def start_observer(
    folder: Path,
    handler: FileSystemEventHandler,
    polling: bool | None,
    poll_interval_s: float,
    notice: Callable[[str], None],
) -> tuple[BaseObserver, str]:
    """A started observer watching ``folder`` recursively, and a few words on how it watches.

    ``polling=None`` picks polling for network file systems and native events elsewhere, and falls
    back to polling (with a notice) when native events cannot start (e.g. the inotify watch limit).
    """
    if polling is None:
        kind = filesystem_type(folder)
        polling = kind in NETWORK_FS
        if polling:
            notice(f"{folder} is on a network file system ({kind}): polling every {poll_interval_s:g} s")
    if not polling:
        observer = Observer()
        try:
            observer.schedule(handler, str(folder), recursive=True)
            observer.start()
            return observer, type(observer).__name__.removesuffix("Observer").lower() or "native"
        except OSError as exc:
            notice(f"native file events unavailable for {folder} ({exc}); "
                   f"polling every {poll_interval_s:g} s")  # fmt: skip
            if observer.is_alive():
                observer.stop()
                observer.join()
    observer = PollingObserver(timeout=poll_interval_s)
    observer.schedule(handler, str(folder), recursive=True)
    observer.start()
    return observer, f"polling every {poll_interval_s:g} s"
