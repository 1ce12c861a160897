"""The session folder: where opened documents, captures and their edits are kept (a BatchStore).

Each page saved in the session's store is handed on to the receipt library as read by its way in
(the viewer, the camera, the clipboard, a scanner...): the controller notes each file's way in
(``note_way_in``) before its page is saved, and the window hands the session the library's sinks
(``use_sinks``). Other batch stores a page is shown from are opened here too (``store_at``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QStandardPaths

from scanner_app.core.results import PageResult
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore, FileRecord, PageSink

Sinks = Callable[[str], PageSink | None]  # a way in's page sink ("viewer", "camera"...), or None
DEFAULT_WAY_IN = "viewer"


def default_session_folder() -> Path:
    """A new per-session folder under the app's data location."""
    base = Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return base / "sessions" / f"{stamp}-{threading.get_native_id()}"


class WayInRouter:
    """The session store's page sink: each page to the sink of the way its file came in."""

    def __init__(self) -> None:
        self.sinks: Sinks | None = None
        self._ways: dict[str, str] = {}
        self._lock = threading.Lock()

    def note(self, path: Path, way_in: str) -> None:
        """The way ``path`` came in first (a file shown again by another way keeps it)."""
        with self._lock:
            self._ways.setdefault(str(Path(path).absolute()), way_in)

    def way_in(self, path: Path | str) -> str:
        with self._lock:
            return self._ways.get(str(Path(path).absolute()), DEFAULT_WAY_IN)

    def page_saved(self, batch: Path, file: FileRecord, index: int, result: PageResult) -> None:
        sinks = self.sinks
        sink = sinks(self.way_in(file.path)) if sinks is not None else None
        if sink is not None:
            sink.page_saved(batch, file, index, result)


class SessionFolder:
    """Creates the session's store on first use, from whichever thread needs it first."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or default_session_folder()
        self._lock = threading.Lock()
        self._store: BatchStore | None = None
        self._others: dict[Path, BatchStore] = {}
        self.router = WayInRouter()

    @property
    def captures(self) -> Path:
        """Where pasted and captured images are written."""
        return self.folder / "captures"

    def use_sinks(self, sinks: Sinks | None) -> None:
        """Hand the pages saved from now on to ``sinks(way_in)`` (the receipt library's)."""
        self.router.sinks = sinks

    def note_way_in(self, path: Path, way_in: str) -> None:
        """``path``'s pages came in by ``way_in`` (told to the library when they are saved; the first
        way noted for a file stays)."""
        self.router.note(path, way_in)

    def store(self) -> BatchStore:
        """The session's BatchStore (created on first call; disk work: call off the GUI thread)."""
        with self._lock:
            if self._store is None:
                self._store = BatchStore(self.folder / STORE_NAME, sink=self.router)
            return self._store

    def store_at(self, path: Path) -> BatchStore:
        """The batch store file ``path`` (the session's own, or another opened once and kept until
        ``close``); disk work: call off the GUI thread."""
        path = Path(path).absolute()
        if path == (self.folder / STORE_NAME).absolute():
            return self.store()
        with self._lock:
            if path not in self._others:
                self._others[path] = BatchStore(path, sink=self.router)
            return self._others[path]

    def close(self) -> None:
        with self._lock:
            for store in (self._store, *self._others.values()):
                if store is not None:
                    store.close()
            self._store, self._others = None, {}
