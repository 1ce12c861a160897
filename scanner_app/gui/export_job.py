"""Exporting the document on screen (edits applied) off the GUI thread."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QObject, QRunnable, Signal

from scanner_app.core.batch_export import documents, page_images
from scanner_app.core.export import export
from scanner_app.core.store import BatchStore
from scanner_app.gui.document_model import DocumentModel


class ExportSignals(QObject):
    done = Signal(list)  # list[Path]
    failed = Signal(str)


class ExportJob(QRunnable):
    """Write one source file's stored pages (with edits) in the given formats."""

    def __init__(
        self,
        signals: ExportSignals,
        document: DocumentModel,
        store: BatchStore,
        source: Path,
        out_dir: Path,
        formats: Sequence[str],
    ) -> None:
        super().__init__()
        self._signals, self._document, self._store = signals, document, store
        self._source, self._out_dir, self._formats = Path(source), Path(out_dir), list(formats)

    def run(self) -> None:
        try:
            self._document.wait_for_writes()  # edits made before the export are in it
            wanted = str(self._source.absolute())
            docs = [d for d in documents(self._store) if d.source == wanted]
            if not docs:
                raise ValueError(f"{self._source.name}: no recognised pages to export yet")
            formats = self._formats
            if any(len(d.pages) != _page_count(self._store, wanted) for d in docs):
                formats = [f for f in formats if f != "pdf"]  # a partial file cannot become its PDF
            paths = export(docs, self._out_dir, formats, page_images=page_images)
        except Exception as exc:
            self._signals.failed.emit(f"Export of {self._source.name} failed: {exc}")
            return
        self._signals.done.emit(paths)


def _page_count(store: BatchStore, source: str) -> int:
    for record in store.files():
        if str(record.path) == source:
            return record.pages or 0
    return 0
