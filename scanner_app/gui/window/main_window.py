"""The main window: assembles the viewer, results, batch, server and other panels; owns no logic.

Menus and shortcuts come from main_actions; opening and recognising from DocumentController;
batches from BatchPanel; the connection state is shown in the status bar.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QByteArray, QEvent, QSettings, Qt, Slot
from PySide6.QtGui import QCloseEvent, QColor, QDragEnterEvent, QDropEvent, QGuiApplication, QImage, QPalette
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
)

from scanner_app import __version__
from scanner_app.core.images import SUPPORTED_SUFFIXES
from scanner_app.gui import dialog_paths
from scanner_app.gui.batch.panel import BatchPanel
from scanner_app.gui.capture import drop
from scanner_app.gui.connection.link import ConnectionState, ConnectionStatus, ServerConnection
from scanner_app.gui.dashboard import StressDashboard
from scanner_app.gui.document.controller import DocumentController
from scanner_app.gui.document.edit_history import HistoryActions
from scanner_app.gui.document.model import DocumentModel
from scanner_app.gui.document.session_folder import SessionFolder
from scanner_app.gui.fields.panel import FieldsPanel
from scanner_app.gui.i18n.core_text import translated, with_original
from scanner_app.gui.i18n.translators import SETTING as LANGUAGE_SETTING
from scanner_app.gui.i18n.translators import Translations
from scanner_app.gui.library.hub import LibraryHub
from scanner_app.gui.library.panel import LibraryPanel
from scanner_app.gui.lines.panel import ResultsPanel
from scanner_app.gui.server.panel import ServerPanel
from scanner_app.gui.theme import readable
from scanner_app.gui.viewer import ViewerPanel
from scanner_app.gui.window import recent_files
from scanner_app.gui.window.actions import MainActions
from scanner_app.gui.window.shortcuts_page import ShortcutsPage, shortcut_rows

_STATUS_COLOURS = {ConnectionStatus.READY: "#2e7d32", ConnectionStatus.STARTING: "#8d6e00",
                   ConnectionStatus.DOWN: "#c62828", ConnectionStatus.ERROR: "#c62828"}  # fmt: skip


class MainWindow(QMainWindow):
    """Tabs Document (viewer, lines, fields), Batch, Library, Server, Stress; open_paths / open_image_bytes.

    ``library``: the receipt library file of the command line (else the setting, else the default);
    every way in hands its pages to it as they are read."""

    def __init__(
        self,
        connection: ServerConnection,
        session: SessionFolder | None = None,
        translations: Translations | None = None,
        library: Path | None = None,
    ) -> None:
        super().__init__()
        self.connection = connection
        self.translations = translations or Translations(self)
        self.document = DocumentModel(self)
        self.library = LibraryHub(library, self)
        session = session or SessionFolder()
        session.use_sinks(self.library.sink)  # the viewer's, the camera's and the clipboard's pages
        self.controller = DocumentController(self.document, connection, session, self)
        self.viewer = ViewerPanel(self.document, self)
        self.results = ResultsPanel(self.document, self)
        self.tabs = QTabWidget(self)
        self.side_tabs = QTabWidget(self)  # beside the viewer: the lines, and the fields read from them
        self.side_tabs.addTab(self.results, "")
        self.fields_panel = FieldsPanel(self.document, self)
        self.viewer.canvas.document_clicked.connect(self.fields_panel.choose_receipt)  # under the cursor
        self.side_tabs.addTab(self.fields_panel, "")
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.viewer)
        splitter.addWidget(self.side_tabs)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([600, 400])  # not the toolbar's width: the fields table needs the room (#14)
        self.viewer.setMinimumWidth(320)
        self.tabs.addTab(splitter, "")
        self.batch_panel = BatchPanel(connection, self, sinks=self.library.sink)
        self.library_panel = LibraryPanel(self.library, self)
        self.server_panel = ServerPanel(connection, self)
        self.stress_panel = StressDashboard(connection, self)
        for panel in (self.batch_panel, self.library_panel, self.server_panel, self.stress_panel):
            self.tabs.addTab(panel, "")
        self.setCentralWidget(self.tabs)
        self._connection_label = QLabel(self)
        self.statusBar().addPermanentWidget(self._connection_label)
        self.main_actions = MainActions(self, self._slots())
        self.main_actions.actions["recognize_again"].triggered.connect(self.controller.recognize_again)
        self.main_actions.actions["previous_page"].triggered.connect(lambda: self.controller.go_to_page(-1))
        self.main_actions.actions["next_page"].triggered.connect(lambda: self.controller.go_to_page(1))
        force_ocr = self.main_actions.actions["force_ocr"]  # remembered; PDF text layers are read by default
        force_ocr.setCheckable(True)
        force_ocr.setChecked(self.controller.force_ocr)
        force_ocr.toggled.connect(self.controller.set_force_ocr)
        self.main_actions.language_group.triggered.connect(self._on_language_chosen)
        self.main_actions.language_actions[self.translations.language].setChecked(True)
        copy_all = self.viewer.view_actions["copy_all"]
        self.viewer.copy_all_requested.connect(self.copy_all)
        self.results.copy_all_requested.connect(self.copy_all)
        self.batch_panel.open_requested.connect(self._on_batch_open_requested)
        self.library_panel.open_requested.connect(self._on_library_open_requested)
        self.library_panel.message.connect(self._show_message)
        self.controller.message.connect(self._show_message)
        self.document.edit_failed.connect(self._show_message)
        self.document.image_changed.connect(self._update_title)
        connection.state_changed.connect(self._on_connection_changed)
        self.setAcceptDrops(True)
        self.history = HistoryActions(self.document.undo_stack, self)
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self._view_actions = [a for n, a in self.viewer.view_actions.items() if n != "copy_all"]
        self._copy_all = copy_all
        self._retranslate()
        self._on_connection_changed(connection.state)
        self._restore_settings()

    # Assembly ---------------------------------------------------------------------------------
    def _show_fields(self) -> None:
        self.tabs.setCurrentIndex(0)
        self.side_tabs.setCurrentWidget(self.fields_panel)

    def _slots(self) -> dict[str, Callable[[], object]]:
        tab = self.tabs.setCurrentWidget
        return {
            "open": self.choose_files, "open_folder": self.choose_folder, "paste": self.paste,
            "camera": self.capture_camera, "screen": self.capture_screen, "export": self.choose_export,
            "scan_device": self.scan_from_device,
            "quit": self.close, "copy": self.copy_selection, "about": self.about,
            "shortcuts": self.show_shortcuts,
            "tab_document": lambda: self.tabs.setCurrentIndex(0),
            "tab_batch": lambda: tab(self.batch_panel), "tab_server": lambda: tab(self.server_panel),
            "tab_library": lambda: tab(self.library_panel),
            "tab_stress": lambda: tab(self.stress_panel),
            "tab_fields": self._show_fields,
            "review_next": lambda: self._review(lambda: self.batch_panel.review_step(1)),
            "review_previous": lambda: self._review(lambda: self.batch_panel.review_step(-1)),
            "review_checked": lambda: self._review(self.batch_panel.toggle_checked),
        }  # fmt: skip

    def _review(self, move: Callable[[], object]) -> None:
        """The review's keys work from any tab: they bring the Batch tab forward."""
        self.tabs.setCurrentWidget(self.batch_panel)
        move()

    def _on_tab_changed(self) -> None:
        """Undo/redo follow the tab: the Batch tab's review edits, else the shown page's edits."""
        batch = self.tabs.currentWidget() is self.batch_panel
        self.history.set_stack(self.batch_panel.review.undo_stack if batch else self.document.undo_stack)

    def _update_title(self) -> None:
        title = self.tr("scanner-app - receipt and invoice OCR")
        self.setWindowTitle(f"{self.document.name} - {title}" if self.document.name else title)

    def _retranslate(self) -> None:
        self._update_title()
        self.main_actions.retranslate()
        self.history.retranslate()
        history = [self.history.undo, self.history.redo]
        self.main_actions.build_menus(self.menuBar(), self._view_actions, self._copy_all, history)
        menu = self.main_actions.recent_menu
        menu.aboutToShow.connect(lambda: recent_files.fill_menu(
            menu, lambda path: self.open_paths([path]), self.tr("No recent files")))  # fmt: skip
        self.tabs.setTabText(0, self.tr("Document"))
        for panel, title in ((self.batch_panel, self.tr("Batch")), (self.library_panel, self.tr("Library")),
                             (self.server_panel, self.tr("Server")),
                             (self.stress_panel, self.tr("Stress"))):  # fmt: skip
            self.tabs.setTabText(self.tabs.indexOf(panel), title)
        self.side_tabs.setTabText(0, self.tr("Lines"))
        self.side_tabs.setTabText(1, self.tr("Fields"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self._retranslate()
        super().changeEvent(event)

    # Opening ----------------------------------------------------------------------------------
    @Slot(list)
    def open_paths(self, paths: Sequence[Path], way_in: str = "viewer") -> None:
        """One file opens in the viewer; folders or several files run as a batch. ``way_in``: how they
        came ("viewer": opened or dropped, as a batch "batch"; "scanner", "clipboard"), for the library."""
        paths = [Path(p) for p in paths]
        if not paths:
            return
        self._remember_folder(paths[0] if paths[0].is_dir() else paths[0].parent)
        recent_files.remember(paths)
        if len(paths) == 1 and not paths[0].is_dir():
            self.tabs.setCurrentIndex(0)
            self.controller.open_path(paths[0], way_in=way_in)
        else:
            self.tabs.setCurrentWidget(self.batch_panel)
            self.batch_panel.start_batch(paths, way_in="batch" if way_in == "viewer" else way_in)

    @Slot(bytes, str)
    def open_image_bytes(self, data: bytes | QImage, name: str, way_in: str = "viewer") -> None:
        """Show and recognise a pasted or captured image (``way_in``: "clipboard", "camera"...)."""
        self.tabs.setCurrentIndex(0)
        self.controller.open_image_bytes(data, name, way_in)

    def _on_library_open_requested(self, path: Path, page_index: int, store_file: Path | None) -> None:
        """A library receipt in the viewer, as its batch store keeps it (its boxes, its edits)."""
        self.tabs.setCurrentIndex(0)
        self.controller.open_stored(Path(path), page_index, store_file)

    def _on_batch_open_requested(self, path: Path, page_index: int) -> None:
        self.tabs.setCurrentIndex(0)
        self.controller.open_path(Path(path), page_index, self.batch_panel.store())

    def choose_files(self) -> None:
        patterns = " ".join(f"*{s}" for s in sorted(SUPPORTED_SUFFIXES))
        files, _ = QFileDialog.getOpenFileNames(
            self, self.tr("Open images or PDFs"), self._last_folder(),
            self.tr("Images and PDFs ({0});;All files (*)").format(patterns),
        )  # fmt: skip
        self.open_paths([Path(f) for f in files])

    def choose_folder(self) -> None:
        title = self.tr("Open a folder as a batch")
        folder = QFileDialog.getExistingDirectory(self, title, self._last_folder())
        if folder:
            self.open_paths([Path(folder)])

    def paste(self) -> None:
        """Ctrl+V: an image on the clipboard is recognised; copied files are opened."""
        mime = QGuiApplication.clipboard().mimeData()
        image = drop.image_of(mime) if mime is not None else None
        if image is not None:
            self.open_image_bytes(image, "clipboard.png", "clipboard")
        elif mime is not None and drop.local_paths(mime):
            self.open_paths(drop.local_paths(mime), "clipboard")
        else:
            self._show_message(self.tr("The clipboard holds no image"))

    def capture_camera(self) -> None:
        try:
            from scanner_app.gui.camera.dialog import CameraDialog
        except ImportError:
            self._show_message(self.tr("Camera capture is not available"))
            return
        captured = CameraDialog.capture(self, self.connection.recognizer())  # the server says which way is up
        if captured is not None:
            self.open_image_bytes(*captured, "camera")

    def scan_from_device(self) -> None:
        """File > Scan...: pages from a scanner; one page opens in the viewer, several run as a batch."""
        from scanner_app.gui.batch.panel import batches_root
        from scanner_app.gui.capture.scan_dialog import ScanDialog

        self.open_paths(ScanDialog.scan(self, batches_root()), "scanner")

    def capture_screen(self) -> None:
        try:
            from scanner_app.gui.capture.screen import ScreenRegionCapture
        except ImportError:
            self._show_message(self.tr("Screen capture is not available"))
            return
        self._screen_capture = ScreenRegionCapture(self)
        captured = lambda data, name: self.open_image_bytes(data, name, "clipboard")  # noqa: E731
        self._screen_capture.captured.connect(captured)
        self._screen_capture.failed.connect(self._show_message)
        self._screen_capture.start()

    def choose_export(self) -> None:
        title = self.tr("Export the document into")
        start = dialog_paths.start_folder(self.document.source)
        folder = QFileDialog.getExistingDirectory(self, title, str(start))
        if folder:
            self.controller.export_current(Path(folder))

    # Drag and drop ----------------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        mime = event.mimeData()
        if drop.local_paths(mime) or drop.image_of(mime) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        mime = event.mimeData()
        paths, image = drop.local_paths(mime), drop.image_of(mime)
        if paths:
            self.open_paths(paths)
        elif image is not None:
            self.open_image_bytes(image, "dropped.png")
        else:
            return
        event.acceptProposedAction()

    # Clipboard --------------------------------------------------------------------------------
    def copy_selection(self) -> None:
        text = self.document.selected_text()
        if text:
            QGuiApplication.clipboard().setText(text)
            self._show_message(self.tr("Copied %n line(s)", "", len(self.document.selection)))

    def copy_all(self) -> None:
        text = self.document.all_text()
        QGuiApplication.clipboard().setText(text)
        self._show_message(self.tr("Copied all %n line(s)", "", self.document.line_count()))

    # Status, language, settings ---------------------------------------------------------------
    def _show_message(self, text: str) -> None:
        self.statusBar().showMessage(text, 15_000)

    def _on_connection_changed(self, state: ConnectionState) -> None:
        window = self.palette().color(QPalette.ColorRole.Window)  # light or dark theme: keep the contrast
        colour = readable(QColor(_STATUS_COLOURS.get(state.status, "#555555")), window).name()
        metrics = self._connection_label.fontMetrics()
        text = self._connection_text = translated(state.message)  # core errors in the UI language
        self._connection_label.setText(metrics.elidedText(text, Qt.TextElideMode.ElideRight, 560))
        self._connection_label.setStyleSheet(f"color: {colour}")
        self._connection_label.setToolTip("\n".join([with_original(state.message), *state.urls]))

    @property
    def connection_text(self) -> str:
        """The connection state the status bar shows (in full; the label may elide it)."""
        return self._connection_text

    def _on_language_chosen(self, action) -> None:
        language = str(action.data())
        QSettings().setValue(LANGUAGE_SETTING, language)
        if not self.translations.install(language):
            self._show_message(self.tr("No translation for {0} is installed").format(language))

    def show_shortcuts(self) -> None:
        """Help > Keyboard shortcuts (F1)."""
        actions = [*self.main_actions.actions.values(), self.history.undo, self.history.redo,
                   *self.viewer.view_actions.values()]  # fmt: skip
        self._shortcuts_page = ShortcutsPage(shortcut_rows(actions), self)
        self._shortcuts_page.show()

    def about(self) -> None:
        QMessageBox.about(self, self.tr("About scanner-app"), self.tr(
            "scanner-app {0}\nReceipt and invoice OCR with a PP-OCR pipeline on NVIDIA Triton."
        ).format(__version__))  # fmt: skip

    def _last_folder(self) -> str:
        return str(dialog_paths.last_folder())

    def _remember_folder(self, folder: Path) -> None:
        dialog_paths.remember_folder(folder)

    def _restore_settings(self) -> None:
        settings = QSettings()
        geometry = settings.value("window/geometry")
        # A geometry saved under another QT_SCALE_FACTOR (a demo at 1.5) would shrink or grow this run.
        same_scale = str(settings.value("window/scale_factor", "1")) == _scale_factor()
        if isinstance(geometry, QByteArray) and not geometry.isEmpty() and same_scale:
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 820)
        self.keep_on_screen()
        state = settings.value("window/state")
        if isinstance(state, QByteArray):
            self.restoreState(state)

    def keep_on_screen(self) -> None:
        """Fit the window into its screen's available area (a saved size or place may not fit now)."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            return
        area = screen.availableGeometry()
        self.resize(min(self.width(), area.width()), min(self.height(), area.height()))
        frame = self.frameGeometry()
        x = min(max(frame.x(), area.left()), max(area.left(), area.right() - frame.width() + 1))
        y = min(max(frame.y(), area.top()), max(area.top(), area.bottom() - frame.height() + 1))
        if (x, y) != (frame.x(), frame.y()):
            self.move(x, y)

    def closeEvent(self, event: QCloseEvent) -> None:
        settings = QSettings()
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/scale_factor", _scale_factor())
        settings.setValue("window/state", self.saveState())
        self.controller.shutdown()
        for panel in (self.batch_panel, self.stress_panel, self.library_panel):
            panel.shutdown()  # stop runs and close their stores before the connection goes
        self.library.shutdown()  # no way in saves a page any more
        super().closeEvent(event)


def _scale_factor() -> str:
    return os.environ.get("QT_SCALE_FACTOR", "").strip() or "1"
