"""Opens documents for the viewer: decode, recognise and store off the GUI thread; results by signal.

Every failure is reported in one place, ``message`` (shown in the status bar), naming the file
and the cause. A page that cannot be recognised yet (server starting or down) is kept and sent
as soon as the connection is ready again. Results of superseded requests are dropped.
A PDF page with a real text layer and an e-invoice are read from their own text, not sent to the
server, unless "force OCR" (a remembered setting) is on; an e-invoice is always read exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtGui import QImage

from scanner_app.core.batch.export import edited_page
from scanner_app.core.store.batch_store import BatchStore
from scanner_app.gui.background import Background
from scanner_app.gui.connection.link import ConnectionState, ConnectionStatus, ServerConnection
from scanner_app.gui.document.export_job import export_document
from scanner_app.gui.document.jobs import (
    LoadedPage,
    Recognized,
    describe_error,
    load_page,
    read_own_text,
    recognize_page,
)
from scanner_app.gui.document.model import DocumentModel, StoredPage
from scanner_app.gui.document.session_folder import SessionFolder
from scanner_app.gui.i18n.core_text import status_name, translated

DEFAULT_EXPORT_FORMATS = ("txt", "json", "csv", "pdf")
FORCE_OCR_SETTING = "document/force_ocr"


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
        session: SessionFolder,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._document, self._connection, self._session = document, connection, session
        self._background = Background(self, threads=2)
        self._loaded: LoadedPage | None = None
        self._waiting = False  # the current page waits for the server
        self._batch_store: BatchStore | None = None  # the batch store of a page opened from a batch
        self._store_file: Path | None = None  # the store file of a page opened from the library
        connection.state_changed.connect(self._on_connection_changed)

    @property
    def session(self) -> SessionFolder:
        return self._session

    @property
    def force_ocr(self) -> bool:
        """OCR PDF pages even when their own text layer is real text (remembered in the settings)."""
        return bool(QSettings().value(FORCE_OCR_SETTING, False, type=bool))

    def set_force_ocr(self, on: bool) -> None:
        """Change the setting; the page shown is read again the new way when that changes how it is read."""
        if on == self.force_ocr:
            return
        QSettings().setValue(FORCE_OCR_SETTING, on)
        page, shown = self._loaded, self._document.page
        if page is None or shown is None or not page.reads_own_text or page.exact_only:
            return
        if (shown.source == "text-layer") == on:
            self._recognize(page)

    @property
    def busy(self) -> bool:
        return self._background.running > 0

    # Requests ---------------------------------------------------------------------------------
    def open_path(
        self, path: Path, page_index: int = 0, store: BatchStore | None = None, way_in: str = "viewer"
    ) -> None:
        """Show page ``page_index`` of a file; its result comes from ``store`` (default: the session's)
        when stored there, else from the server. ``way_in``: how it came (the library is told)."""
        path = Path(path)
        self.message.emit(self.tr("Opening {0}...").format(path.name))
        store_of: Callable[[], BatchStore] = (lambda: store) if store is not None else self._session.store
        self._batch_store, self._store_file = store, None
        self._start_load(path.name, lambda: load_page(store_of, path, page_index), way_in)

    def open_stored(self, path: Path, page_index: int, store_file: Path | None) -> None:
        """Show a page as the batch store file ``store_file`` keeps it (a library receipt's: its stored
        result and boxes, no server); the session's store when that file is gone."""
        path = Path(path)
        self.message.emit(self.tr("Opening {0}...").format(path.name))
        session = self._session

        def store_of() -> BatchStore:
            if store_file is not None and Path(store_file).is_file():
                return session.store_at(Path(store_file))
            return session.store()

        self._batch_store, self._store_file = None, store_file
        self._start_load(path.name, lambda: load_page(store_of, path, page_index), "viewer")

    @property
    def page_position(self) -> tuple[int, int]:
        """(page index, page count) of the document shown; (0, 0) before one is loaded."""
        return (self._loaded.index, self._loaded.count) if self._loaded is not None else (0, 0)

    def go_to_page(self, delta: int) -> None:
        """Show the page ``delta`` pages after (or before) the current one of a multi-page file."""
        if self._loaded is None or self._document.source is None:
            return
        target = self._loaded.index + delta
        if 0 <= target < self._loaded.count and self._store_file is not None:
            self.open_stored(self._loaded.path, target, self._store_file)
        elif 0 <= target < self._loaded.count:
            self.open_path(self._loaded.path, target, self._batch_store)

    def open_image_bytes(self, data: bytes | QImage, name: str, way_in: str = "viewer") -> None:
        """Show and recognise an image given as encoded bytes or a QImage (paste, camera, screen capture).

        It is kept as a file in the session's captures folder, so edits and exports work as for files.
        ``way_in`` ("clipboard", "camera"...): how it came (the library is told).
        """
        self.message.emit(self.tr("Opening {0}...").format(name))
        store_of, captures = self._session.store, self._session.captures
        self._batch_store, self._store_file = None, None
        self._start_load(name, lambda: load_page(store_of, None, 0, data, name, captures), way_in)

    def recognize_again(self) -> None:
        """Send the current page to the server again (its stored result and edits are replaced)."""
        if self._loaded is not None:
            self._recognize(self._loaded)

    def export_current(self, out_dir: Path, formats: Sequence[str] = DEFAULT_EXPORT_FORMATS) -> None:
        """Write the current document (edits applied) into ``out_dir``; ``exported`` follows."""
        stored, source = self._document.stored, self._document.source
        if stored is None or source is None:
            self._report(self.tr("Nothing to export: no recognised document is open"))
            return
        self.message.emit(self.tr("Exporting {0}...").format(source.name))
        store = stored.store

        def done(paths: list[Path] | None, error: BaseException | None) -> None:
            if error is not None:
                self._report(self.tr("Export of {0} failed: {1}").format(source.name, error))
            else:
                self._on_exported(paths or [])

        self._document.after_writes(lambda: export_document(store, source, out_dir, formats), done)

    def _start_load(self, name: str, load: Callable[[], LoadedPage], way_in: str) -> None:
        """Load a page; a newer load or recognition (same slot) makes this one's outcome be dropped."""
        self._loaded, self._waiting = None, False
        done = lambda page, error: self._on_loaded(name, page, error, way_in)  # noqa: E731
        self._background.run(load, done, slot="page")

    def _recognize(self, page: LoadedPage) -> None:
        if page.reads_own_text and (page.exact_only or not self.force_ocr):
            self._waiting = False
            done = lambda result, error: self._on_recognized(page, result, error)  # noqa: E731
            self._background.run(lambda: read_own_text(page), done, slot="page")
            return
        recognizer = self._connection.recognizer()
        if recognizer is None:
            self._waiting = True
            state = self._connection.state
            if state.status in (ConnectionStatus.IDLE, ConnectionStatus.STARTING):
                text = self.tr("{0}: waiting for the server ({1})")
                text = text.format(page.name, translated(state.message))
                self.message.emit(text)
            else:
                text = self.tr("Cannot recognise {0}: no server is ready ({1}); see the Server tab")
                self._report(text.format(page.name, status_name(state.status)))
            return
        self._waiting = False
        self.message.emit(self.tr("Recognising {0}...").format(page.name))
        done = lambda result, error: self._on_recognized(page, result, error)  # noqa: E731
        self._background.run(lambda: recognize_page(recognizer, page), done, slot="page")

    # Results ----------------------------------------------------------------------------------
    def _on_loaded(
        self, name: str, page: LoadedPage | None, error: BaseException | None, way_in: str
    ) -> None:
        if error is not None or page is None:
            self._report(describe_error(name, error or RuntimeError()))
            return
        self._session.note_way_in(page.path, way_in)  # before its page is saved: the library is told
        self._loaded = page
        self._document.set_image(page.image, page.image_scale, page.name, page.path)
        if page.stored is not None:
            result = edited_page(page.stored)
            self._document.set_result(result, StoredPage(page.store, page.stored.id))
            self.message.emit(self.tr("{0}: {1} lines (stored result)").format(page.name, len(result.lines)))
            self.recognized.emit(result)
            return
        self._recognize(page)

    def _on_recognized(self, page: LoadedPage, done: Recognized | None, error: BaseException | None) -> None:
        if error is not None or done is None:
            self._report(describe_error(page.name, error or RuntimeError()))
            return
        self._document.set_result(done.result, StoredPage(page.store, done.page_id))
        lines = self.tr("%n line(s)", "", len(done.result.lines))
        if done.result.source == "text-layer":
            text = self.tr("{0}: {1} read from the document's own text, not OCR")
            self.message.emit(text.format(done.result.image, lines))
        else:
            text = self.tr("{0}: {1} in {2:.0f} ms")
            self.message.emit(text.format(done.result.image, lines, done.result.elapsed_ms))
        self.recognized.emit(done.result)

    def _on_exported(self, paths: list[Path]) -> None:
        folder = paths[0].parent if paths else ""
        self.message.emit(self.tr("Exported %n file(s) to {0}", "", len(paths)).format(folder))
        self.exported.emit(paths)

    def _report(self, text: str) -> None:
        text = translated(text)  # the core's English cause in the UI language
        self.message.emit(text)
        self.failed.emit(text)

    def _on_connection_changed(self, state: ConnectionState) -> None:
        if state.status == ConnectionStatus.READY and self._waiting and self._loaded is not None:
            self._recognize(self._loaded)

    def shutdown(self, msecs: int = 10_000) -> None:
        """Wait for running jobs and pending edits, then close the session store."""
        self._background.close()
        self._background.wait(msecs)
        self._document.wait_for_writes(msecs)
        self._session.close()
