"""Opens documents for the viewer: decode, recognise and store off the GUI thread; results by signal.

Every failure is reported in one place, ``message`` (shown in the status bar), naming the file
and the cause. A page that cannot be recognised yet (server starting or down) is kept and sent
as soon as the connection is ready again. Results of superseded requests are dropped.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QObject, QThreadPool, Signal
from PySide6.QtGui import QImage

from scanner_app.core.batch_export import edited_page
from scanner_app.core.store import BatchStore
from scanner_app.gui.connection import ConnectionState, ServerConnection
from scanner_app.gui.document_jobs import JobSignals, LoadedPage, LoadJob, Recognized, RecognizeJob
from scanner_app.gui.document_model import DocumentModel, StoredPage
from scanner_app.gui.export_job import ExportJob, ExportSignals
from scanner_app.gui.session import Session

DEFAULT_EXPORT_FORMATS = ("txt", "json", "csv", "pdf")


class DocumentController(QObject):
    """Turns "open this" into a shown, recognised, stored page in the DocumentModel."""

    message = Signal(str)  # status-bar text: progress and errors (file name and cause)
    failed = Signal(str)  # an error, also sent as a message
    recognized = Signal(object)  # PageResult now shown
    exported = Signal(list)  # list[Path] written by export_current

    def __init__(
        self,
        document: DocumentModel,
        connection: ServerConnection,
        session: Session,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._document, self._connection, self._session = document, connection, session
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(2)
        self._signals = JobSignals(self)
        self._signals.loaded.connect(self._on_loaded)
        self._signals.recognized.connect(self._on_recognized)
        self._signals.failed.connect(self._on_failed)
        self._export_signals = ExportSignals(self)
        self._export_signals.done.connect(self._on_exported)
        self._export_signals.failed.connect(self._report)
        self._ids = itertools.count(1)
        self._current = 0
        self._loaded: LoadedPage | None = None
        self._waiting = False  # the current page waits for the server
        self._batch_store: BatchStore | None = None  # the batch store of a page opened from a batch
        connection.state_changed.connect(self._on_connection_changed)

    @property
    def session(self) -> Session:
        return self._session

    @property
    def busy(self) -> bool:
        return self._pool.activeThreadCount() > 0

    # Requests ---------------------------------------------------------------------------------
    def open_path(self, path: Path, page_index: int = 0, store: BatchStore | None = None) -> None:
        """Show page ``page_index`` of a file; its result comes from ``store`` (default: the session's)
        when stored there, else from the server."""
        path = Path(path)
        self.message.emit(self.tr("Opening {0}...").format(path.name))
        store_of: Callable[[], BatchStore] = (lambda: store) if store is not None else self._session.store
        self._batch_store = store
        self._start_load(LoadJob(self._next_id(), self._signals, store_of, path, page_index))

    @property
    def page_position(self) -> tuple[int, int]:
        """(page index, page count) of the document shown; (0, 0) before one is loaded."""
        return (self._loaded.index, self._loaded.count) if self._loaded is not None else (0, 0)

    def go_to_page(self, delta: int) -> None:
        """Show the page ``delta`` pages after (or before) the current one of a multi-page file."""
        if self._loaded is None or self._document.source is None:
            return
        target = self._loaded.index + delta
        if 0 <= target < self._loaded.count:
            self.open_path(self._loaded.path, target, self._batch_store)

    def open_image_bytes(self, data: bytes | QImage, name: str) -> None:
        """Show and recognise an image given as encoded bytes or a QImage (paste, camera, screen capture).

        It is kept as a file in the session's captures folder, so edits and exports work as for files.
        """
        self.message.emit(self.tr("Opening {0}...").format(name))
        job = LoadJob(self._next_id(), self._signals, self._session.store, None, 0, data, name,
                      self._session.captures)  # fmt: skip
        self._batch_store = None
        self._start_load(job)

    def recognize_again(self) -> None:
        """Send the current page to the server again (its stored result and edits are replaced)."""
        if self._loaded is not None:
            self._current = self._next_id()
            self._recognize(self._loaded)

    def export_current(self, out_dir: Path, formats: Sequence[str] = DEFAULT_EXPORT_FORMATS) -> None:
        """Write the current document (edits applied) into ``out_dir``; ``exported`` follows."""
        stored, source = self._document.stored, self._document.source
        if stored is None or source is None:
            self._report(self.tr("Nothing to export: no recognised document is open"))
            return
        self.message.emit(self.tr("Exporting {0}...").format(source.name))
        job = ExportJob(self._export_signals, self._document, stored.store, source, out_dir, formats)
        self._pool.start(job)

    def _next_id(self) -> int:
        return next(self._ids)

    def _start_load(self, job: LoadJob) -> None:
        self._current = job.request_id
        self._loaded, self._waiting = None, False
        self._pool.start(job)

    def _recognize(self, page: LoadedPage) -> None:
        recognizer = self._connection.recognizer()
        if recognizer is None:
            self._waiting = True
            state = self._connection.state
            if state.status in ("idle", "starting"):
                text = self.tr("{0}: waiting for the server ({1})").format(page.name, state.message)
                self.message.emit(text)
            else:
                text = self.tr("Cannot recognise {0}: no server is ready ({1}); see the Server tab")
                self._report(text.format(page.name, state.status))
            return
        self._waiting = False
        self.message.emit(self.tr("Recognising {0}...").format(page.name))
        self._pool.start(RecognizeJob(self._current, self._signals, recognizer, page))

    # Results ----------------------------------------------------------------------------------
    def _on_loaded(self, request_id: int, page: LoadedPage) -> None:
        if request_id != self._current:
            return
        self._loaded = page
        self._document.set_image(page.image, page.image_scale, page.name, page.path)
        if page.stored is not None:
            result = edited_page(page.stored)
            self._document.set_result(result, StoredPage(page.store, page.stored.id))
            self.message.emit(self.tr("{0}: {1} lines (stored result)").format(page.name, len(result.lines)))
            self.recognized.emit(result)
            return
        self._recognize(page)

    def _on_recognized(self, request_id: int, done: Recognized) -> None:
        if request_id != self._current or self._loaded is None:
            return
        self._document.set_result(done.result, StoredPage(self._loaded.store, done.page_id))
        text = self.tr("{0}: {1} lines in {2:.0f} ms")
        self.message.emit(text.format(done.result.image, len(done.result.lines), done.result.elapsed_ms))
        self.recognized.emit(done.result)

    def _on_failed(self, request_id: int, text: str) -> None:
        if request_id == self._current:
            self._report(text)

    def _on_exported(self, paths: list[Path]) -> None:
        folder = paths[0].parent if paths else ""
        self.message.emit(self.tr("Exported {0} files to {1}").format(len(paths), folder))
        self.exported.emit(paths)

    def _report(self, text: str) -> None:
        self.message.emit(text)
        self.failed.emit(text)

    def _on_connection_changed(self, state: ConnectionState) -> None:
        if state.status == "ready" and self._waiting and self._loaded is not None:
            self._recognize(self._loaded)

    def shutdown(self, msecs: int = 10_000) -> None:
        """Wait for running jobs and pending edits, then close the session store."""
        self._current = -1
        self._pool.waitForDone(msecs)
        self._document.wait_for_writes(msecs)
        self._session.close()
