"""The session folder: where opened documents, captures and their edits are kept (a BatchStore)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from PySide6.QtCore import QStandardPaths

from scanner_app.core.store.batch_store import STORE_NAME, BatchStore


def default_session_folder() -> Path:
    """A new per-session folder under the app's data location."""
    base = Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return base / "sessions" / f"{stamp}-{threading.get_native_id()}"


class SessionFolder:
    """Creates the session's store on first use, from whichever thread needs it first."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or default_session_folder()
        self._lock = threading.Lock()
        self._store: BatchStore | None = None

    @property
    def captures(self) -> Path:
        """Where pasted and captured images are written."""
        return self.folder / "captures"

    def store(self) -> BatchStore:
        """The session's BatchStore (created on first call; disk work: call off the GUI thread)."""
        with self._lock:
            if self._store is None:
                self._store = BatchStore(self.folder / STORE_NAME)
            return self._store

    def close(self) -> None:
        with self._lock:
            if self._store is not None:
                self._store.close()
                self._store = None
