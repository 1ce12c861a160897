"""The viewer: the page canvas under a toolbar of view actions (zoom, fit, rotate, overlay toggles)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from PySide6.QtCore import QEvent, QSettings, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QToolBar, QVBoxLayout, QWidget

from scanner_app.gui.document.model import DocumentModel
from scanner_app.gui.viewer.canvas import PageCanvas

_TOGGLES = ("show_boxes", "show_text", "show_scores")


class ViewerPanel(QWidget):
    """Canvas plus its actions; ``view_actions`` are also put in the main window's View menu."""

    copy_all_requested = Signal()

    def __init__(self, document: DocumentModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.canvas = PageCanvas(document, self)
        self._zoom_label = QLabel(self)
        self.source_label = QLabel(self)  # says when the page's text is the document's own, not OCR
        self.source_label.setStyleSheet("QLabel { color: palette(link); font-weight: bold; }")
        self.source_label.hide()
        self._actions: dict[str, QAction] = {}
        toolbar = QToolBar(self)
        view: tuple[tuple[str, str | QKeySequence.StandardKey, Callable[[], object]], ...] = (
            ("zoom_in", QKeySequence.StandardKey.ZoomIn, self.canvas.zoom_in),
            ("zoom_out", QKeySequence.StandardKey.ZoomOut, self.canvas.zoom_out),
            ("fit", "Ctrl+0", self.canvas.fit),
            ("actual", "Ctrl+1", self.canvas.actual_size),
            ("rotate_left", "Ctrl+L", lambda: self.canvas.rotate_by(-90)),
            ("rotate_right", "Ctrl+R", lambda: self.canvas.rotate_by(90)),
        )
        for name, keys, slot in view:
            self._actions[name] = self._action(toolbar, keys, slot)
        toolbar.addSeparator()
        settings = QSettings()
        style = self.canvas.style_options
        for name, keys in (("show_boxes", "Ctrl+Shift+B"), ("show_text", "Ctrl+Shift+T"),
                           ("show_scores", "Ctrl+Shift+S")):  # fmt: skip
            action = self._action(toolbar, keys, self._on_toggles_changed)
            action.setCheckable(True)
            action.setChecked(bool(settings.value(f"viewer/{name}", getattr(style, name), type=bool)))
            self._actions[name] = action
        # The server's orientation (ORIENTATION): the page is shown upright; unchecking undoes it.
        self._document, self._upright_turn = document, 0
        upright = self._action(toolbar, "Ctrl+U", self._apply_upright)
        upright.setCheckable(True)
        upright.setChecked(True)
        self._actions["upright"] = upright
        document.image_changed.connect(self._on_image_changed)  # after the canvas reset its turn
        document.page_changed.connect(self._apply_upright)
        document.page_changed.connect(self._show_source)
        toolbar.addSeparator()
        self._actions["copy_all"] = self._action(toolbar, "Ctrl+Shift+C", self.copy_all_requested.emit)
        self._retranslate()
        toolbar.addWidget(self._zoom_label)
        self._source_action = toolbar.addWidget(self.source_label)
        self._source_action.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(toolbar)
        layout.addWidget(self.canvas, 1)
        self.canvas.zoom_changed.connect(self._on_zoom_changed)
        self._on_toggles_changed()

    def _action(
        self, toolbar: QToolBar, keys: str | QKeySequence.StandardKey, slot: Callable[[], object]
    ) -> QAction:
        action = QAction(self)
        action.setShortcut(QKeySequence(keys))
        action.triggered.connect(slot)
        toolbar.addAction(action)
        return action

    def _retranslate(self) -> None:
        texts = {
            "zoom_in": self.tr("Zoom in"), "zoom_out": self.tr("Zoom out"), "fit": self.tr("Fit"),
            "actual": self.tr("100%"), "rotate_left": self.tr("Rotate left"),
            "rotate_right": self.tr("Rotate right"), "show_boxes": self.tr("Boxes"),
            "show_text": self.tr("Text"), "show_scores": self.tr("Scores"), "copy_all": self.tr("Copy all"),
            "upright": self.tr("Upright"),
        }  # fmt: skip
        self.source_label.setText("  " + self.tr("Text from the document itself, not OCR"))
        self.source_label.setToolTip(self.tr(
            "This page's text was read exactly from the PDF's text layer or the e-invoice's data, "
            "not recognised by the server. File > Always OCR PDF pages changes this."))  # fmt: skip
        for name, text in texts.items():
            action = self._actions[name]
            action.setText(text)
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            action.setToolTip(f"{text} ({keys})")

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self._retranslate()
        super().changeEvent(event)

    @property
    def view_actions(self) -> dict[str, QAction]:
        """The viewer's actions by name (zoom_in, fit, show_text, copy_all, ...)."""
        return dict(self._actions)

    def _on_toggles_changed(self) -> None:
        values = {name: self._actions[name].isChecked() for name in _TOGGLES}
        settings = QSettings()
        for name, value in values.items():
            settings.setValue(f"viewer/{name}", value)
        self.canvas.set_style(dataclasses.replace(  # by name: a **dict would be checked against every field
            self.canvas.style_options, show_boxes=values["show_boxes"], show_text=values["show_text"],
            show_scores=values["show_scores"]))  # fmt: skip

    def _on_image_changed(self) -> None:
        self._upright_turn = 0

    def _apply_upright(self) -> None:
        """Turn the view by the page's orientation while "upright" is on, back when it is off."""
        page = self._document.page
        wanted = page.orientation if page is not None and self._actions["upright"].isChecked() else 0
        if wanted != self._upright_turn:
            self.canvas.rotate_by(wanted - self._upright_turn)
            self._upright_turn = wanted

    def _show_source(self) -> None:
        page = self._document.page
        self._source_action.setVisible(page is not None and page.source == "text-layer")

    @property
    def shows_own_text(self) -> bool:
        """True while the viewer says the page's text is the document's own (not OCR)."""
        return self._source_action.isVisible()

    def _on_zoom_changed(self, zoom: float) -> None:
        self._zoom_label.setText(f"  {zoom * 100:.0f}%")
