"""The library as a batch store's page sink (core.store.sink.PageSink): each way in hands its store
one, named for the way in (``scan``, ``watch``, ``device``, ``batch``, ``viewer``, ``camera``,
``clipboard``). A page that cannot be added is logged and kept in ``problems``; it never fails the
batch, whose store keeps the page."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from scanner_app.core.library.db import LibraryDB
from scanner_app.core.library.ingest import PageIn, ingest_page
from scanner_app.core.results import PageResult
from scanner_app.core.store.records import FileRecord, path_from_text

log = logging.getLogger(__name__)
MAX_PROBLEMS = 100


class LibrarySink:
    """Adds every page a batch store saves to the library, as read by ``way_in``."""

    def __init__(self, library: LibraryDB, way_in: str, keep_batch: bool = True) -> None:
        """``keep_batch``: record the batch store each receipt was read into (False for a batch in a
        temporary folder, gone when the command ends)."""
        self.library, self.way_in, self.keep_batch = library, way_in, keep_batch
        self.added = 0  # receipts added or updated
        self.problems: list[str] = []  # the first MAX_PROBLEMS pages that could not be added, and why
        self._lock = threading.Lock()

    def page_saved(self, batch: Path, file: FileRecord, index: int, result: PageResult) -> None:
        path = file.path if isinstance(file.path, Path) else path_from_text(str(file.path))
        try:
            batch_path = str(batch) if self.keep_batch else None
            ids = ingest_page(self.library, PageIn(path, file.sha256, index, result, self.way_in, batch_path))
        except Exception as exc:  # never the batch's failure: the page is in its store
            log.warning("library %s: page %d of %s not added: %s", self.library.path, index + 1, path, exc)
            with self._lock:
                if len(self.problems) < MAX_PROBLEMS:
                    self.problems.append(f"{path} page {index + 1}: {exc}")
            return
        with self._lock:
            self.added += len(ids)
