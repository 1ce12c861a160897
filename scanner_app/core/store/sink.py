"""Where a batch store hands each page once it is stored: a small protocol, so that the store never
imports what listens (the receipt library implements it: scanner_app.core.library.sink)."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from scanner_app.core.results import PageResult
from scanner_app.core.store.records import FileRecord


class PageSink(Protocol):
    """Told of every page a batch store saves, after the store committed it, on the saving thread.

    ``batch`` is the store's file, ``file`` the page's file as stored now (its page count known),
    ``index`` the page (0-based). It must not raise: the store logs and ignores what it raises, and
    the page stays stored either way. Which way the page came in (scan, watch, the viewer...) is
    the sink's own business: each way in hands the store its own sink.
    """

    def page_saved(self, batch: Path, file: FileRecord, index: int, result: PageResult) -> None: ...
