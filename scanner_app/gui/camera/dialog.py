"""Capture a document with a camera (or from a video file): live preview with the page's outline,
a shutter, perspective correction, quarter turns, and PNG bytes out through ``captured``.

Frames are read and outlines found on the grabber's thread; flattening and PNG encoding run in the
background; this dialog only shows images and forwards clicks.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeGuard

import numpy as np
from PySide6.QtCore import QCoreApplication, QObject, QSettings, Qt, QThread, Signal, Slot
from PySide6.QtGui import QCloseEvent, QHideEvent, QImage, QKeySequence, QShortcut, QShowEvent, QTransform
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from scanner_app.core.camera.docscan import ScanResult
from scanner_app.core.client.triton import Recognizer
from scanner_app.gui.background import Background
from scanner_app.gui.camera.preview import ImagePreview
from scanner_app.gui.camera.shot import capture_name, encode_png, process_frame, upright_turns
from scanner_app.gui.camera.source import DeviceProbe, FrameGrabber

AUTO_FLATTEN_SETTING = "camera/auto_flatten"
VIDEO_FOLDER_SETTING = "camera/video_folder"
VIDEO_PATTERNS = "*.avi *.mp4 *.mov *.mkv *.webm *.m4v *.mjpg *.mjpeg"
CHOOSE_FILE = ("choose", None)


def _retire(thread: QThread | None) -> None:
    """Let a thread that is still finishing outlive its owner; it deletes itself when done."""
    if thread is not None and thread.isRunning():
        thread.setParent(QCoreApplication.instance())
        thread.finished.connect(thread.deleteLater)


class CameraDialog(QDialog):
    """Device chooser, live preview with the detected page, shutter (Space), auto-flatten, rotation.

    ``source``: a camera index or a video file path to start with; None picks the first camera found.
    ``recognizer``: the server, asked which way each shot is up (its ORIENTATION); the shot is then
    shown and kept upright, the rotate buttons still turn it. Accept emits ``captured(png_bytes, name)``.
    """

    captured = Signal(bytes, str)
    result_ready = Signal()  # a shot was taken and processed
    upright_found = Signal(int)  # the server's quarter turns for the shot (-1: no answer)

    def __init__(
        self,
        parent: QWidget | None = None,
        source: int | str | None = None,
        recognizer: Recognizer | None = None,
    ) -> None:
        super().__init__(parent)
        self._recognizer = recognizer
        self._turned_by_hand = False
        self.setWindowTitle(self.tr("Capture from camera"))
        self._background = Background(self)
        self._grabber: FrameGrabber | None = None
        self._probe: DeviceProbe | None = None
        self._probed = False
        self._result: ScanResult | None = None
        self._result_image = QImage()
        self._turns = 0
        self._busy = False
        self.frames_shown = 0
        self._build()
        self._choose_first_camera = source is None
        if source is not None:
            self._add_source(source, select=True)

    # Building ---------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.source_combo = QComboBox()
        self.source_combo.addItem(self.tr("Video file..."), CHOOSE_FILE)
        self.source_combo.activated.connect(self._on_source_activated)
        self.status_label = QLabel()
        self.status_label.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Source:")))
        top.addWidget(self.source_combo, 1)

        self.preview = ImagePreview(self.tr("Choose a camera or a video file"))
        self.result_preview = ImagePreview(self.tr("Press the shutter (Space) to take a picture"))
        self.result_preview.setMinimumSize(180, 240)
        self.rotate_left_button = QPushButton(self.tr("Rotate left"))
        self.rotate_right_button = QPushButton(self.tr("Rotate right"))
        self.rotate_left_button.clicked.connect(lambda: self._rotate(-1))
        self.rotate_right_button.clicked.connect(lambda: self._rotate(1))
        turns = QHBoxLayout()
        turns.addWidget(self.rotate_left_button)
        turns.addWidget(self.rotate_right_button)
        side = QVBoxLayout()
        side.addWidget(self.result_preview, 1)
        side.addLayout(turns)
        views = QHBoxLayout()
        views.addWidget(self.preview, 3)
        views.addLayout(side, 1)

        self.auto_flatten_box = QCheckBox(self.tr("Auto-flatten the document"))
        self.auto_flatten_box.setChecked(_setting_bool(AUTO_FLATTEN_SETTING, True))
        self.auto_flatten_box.toggled.connect(self._on_auto_flatten_toggled)
        self.shutter_button = QPushButton(self.tr("Take picture (Space)"))
        self.shutter_button.setAutoDefault(False)
        self.shutter_button.clicked.connect(self.shoot)
        QShortcut(QKeySequence(Qt.Key.Key_Space), self, self.shoot)
        standard = QDialogButtonBox.StandardButton
        self.buttons = QDialogButtonBox(standard.Ok | standard.Cancel)
        self.accept_button = self.buttons.button(standard.Ok)
        self.accept_button.setText(self.tr("Use picture"))
        self.buttons.accepted.connect(self._on_accept_clicked)
        self.buttons.rejected.connect(self.reject)
        bottom = QHBoxLayout()
        bottom.addWidget(self.auto_flatten_box)
        bottom.addStretch(1)
        bottom.addWidget(self.shutter_button)
        bottom.addWidget(self.buttons)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(views, 1)
        layout.addWidget(self.status_label)
        layout.addLayout(bottom)
        self._update_buttons()
        self.resize(1000, 620)

    # Sources ----------------------------------------------------------------------------------------
    def _add_source(self, source: int | str, select: bool) -> None:
        data = ("file", str(source)) if isinstance(source, str) else ("camera", int(source))
        index = self.source_combo.findData(data)
        if index < 0:
            if isinstance(source, str):
                label = self.tr("Video: {name}").format(name=Path(source).name)
            else:
                label = self.tr("Camera {index}").format(index=source)
            index = self.source_combo.count() - 1  # before "Video file..."
            self.source_combo.insertItem(index, label, data)
        if select:
            self.source_combo.setCurrentIndex(index)
            if self.isVisible():
                self._start(source)

    def _selected_source(self) -> int | str | None:
        kind, value = self.source_combo.currentData() or CHOOSE_FILE
        return None if kind == "choose" else value

    @Slot(int)
    def _on_source_activated(self, index: int) -> None:
        kind, value = self.source_combo.itemData(index)
        if kind != "choose":
            self._start(value)
            return
        folder = str(QSettings().value(VIDEO_FOLDER_SETTING, "") or "")
        filters = self.tr("Videos ({patterns});;All files (*)").format(patterns=VIDEO_PATTERNS)
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a video file"), folder, filters)
        if path:
            QSettings().setValue(VIDEO_FOLDER_SETTING, str(Path(path).parent))
            self._add_source(path, select=True)
        else:  # back to what was playing
            current = self._grabber.source if self._grabber is not None else None
            if current is not None:
                self._add_source(current, select=True)

    def _probe_devices(self) -> None:
        self._probed = True
        self._probe = DeviceProbe(parent=self)
        self._probe.found.connect(self._on_devices_found)
        self._probe.start()

    @Slot(list)
    def _on_devices_found(self, indices: list[int]) -> None:
        for index in indices:
            self._add_source(index, select=False)
        if self._choose_first_camera and self._grabber is None:
            if indices:
                self._add_source(indices[0], select=True)
            else:
                self._show_status(self.tr("No camera found. Choose a video file instead."))
        self._choose_first_camera = False

    # Grabbing ---------------------------------------------------------------------------------------
    def _start(self, source: int | str) -> None:
        self._stop()
        self.frames_shown = 0
        grabber = FrameGrabber(source, loop=True, detect=self.auto_flatten_box.isChecked(), parent=self)
        grabber.frame_ready.connect(self._on_frame)
        grabber.opened.connect(self._on_opened)
        grabber.failed.connect(self._on_failed)
        self._grabber = grabber
        self.preview.set_image(None)
        self.preview.set_placeholder(self.tr("Opening {source}...").format(source=grabber.describe_source()))
        self._show_status("")
        grabber.start()
        self._update_buttons()

    def _stop(self) -> None:
        grabber, self._grabber = self._grabber, None
        if grabber is not None and not grabber.stop(1000):
            _retire(grabber)

    def _is_current(self, sender: QObject | None) -> TypeGuard[FrameGrabber]:
        return sender is not None and sender is self._grabber

    @Slot(QImage, object)
    def _on_frame(self, image: QImage, quad: np.ndarray | None) -> None:
        grabber = self.sender()
        if not self._is_current(grabber):
            return
        self.preview.set_image(image, quad if self.auto_flatten_box.isChecked() else None)
        self.frames_shown += 1
        grabber.preview_taken()
        if self.frames_shown == 1:
            self._update_buttons()

    @Slot(str)
    def _on_opened(self, description: str) -> None:
        grabber = self.sender()
        if self._is_current(grabber):
            self._show_status(self.tr("{source}: {details}").format(
                source=grabber.describe_source(), details=description))  # fmt: skip

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        if self._is_current(self.sender()):
            self.preview.set_image(None)
            self.preview.set_placeholder(message)
            self._show_status(message)
            self._update_buttons()

    # Shutter, result, accept ------------------------------------------------------------------------
    @Slot()
    def shoot(self) -> None:
        """Take the newest frame; flatten it in the background when auto-flatten is on."""
        frame = self._grabber.latest_frame() if self._grabber is not None else None
        if frame is None or self._busy:
            if frame is None:
                self._show_status(self.tr("No picture yet: choose a camera or a video file."))
            return
        self._busy = True
        self._update_buttons()
        flatten = self.auto_flatten_box.isChecked()
        self._background.run(lambda: process_frame(frame, flatten), self._on_processed)

    def _on_processed(self, outcome: tuple[ScanResult, QImage] | None, error: BaseException | None) -> None:
        self._busy = False
        if error is not None or outcome is None:
            self._show_status(self.tr("The picture could not be processed: {error}").format(error=error))
        else:
            self._result, self._result_image = outcome
            self._turns = 0
            self._show_result()
            height, width = self._result.image.shape[:2]
            if self._result.flattened:
                text = self.tr("Document found and flattened ({width} x {height}).")
            elif self.auto_flatten_box.isChecked():
                text = self.tr("No document edges found: the whole frame was kept ({width} x {height}).")
            else:
                text = self.tr("Picture taken ({width} x {height}).")
            self._show_status(text.format(width=width, height=height))
            self._turned_by_hand = False
            self._ask_upright(self._result.image)
            self.result_ready.emit()
        self._update_buttons()

    def _ask_upright(self, image: np.ndarray) -> None:
        """Ask the server which way the shot is up; a newer shot's question supersedes this one."""
        if self._recognizer is None:
            return
        recognizer = self._recognizer

        def on_done(turns: int | None, error: BaseException | None) -> None:
            self._on_upright(turns, error)

        self._background.run(lambda: upright_turns(recognizer, image), on_done, slot="upright")

    def _on_upright(self, turns: int | None, error: BaseException | None) -> None:
        if error is not None or turns is None:
            text = self.tr("Which way is up is unknown ({error}): use the rotate buttons.")
            self._show_status(text.format(error=error))
            self.upright_found.emit(-1)
            return
        if not self._turned_by_hand:  # a click before the answer wins
            self._turns = turns
            self._show_result()
            if turns:
                text = self.tr("Turned upright as the server reads it ({degrees} degrees).")
                self._show_status(text.format(degrees=90 * turns))
        self.upright_found.emit(turns)

    @property
    def shot(self) -> ScanResult | None:
        """The last shot as processed (before the quarter turns)."""
        return self._result

    @property
    def quarter_turns(self) -> int:
        return self._turns

    def _rotate(self, step: int) -> None:
        if self._result is not None:
            self._turned_by_hand = True
            self._turns = (self._turns + step) % 4
            self._show_result()

    def _show_result(self) -> None:
        image = self._result_image
        if self._turns:
            image = image.transformed(QTransform().rotate(90 * self._turns))
        self.result_preview.set_image(image)

    @Slot()
    def _on_accept_clicked(self) -> None:
        if self._result is None or self._busy:
            return
        self._busy = True
        self._update_buttons()
        image, turns, name = self._result.image, self._turns, capture_name()

        def on_done(data: bytes | None, error: BaseException | None) -> None:
            self._on_encoded(data, error, name)

        self._background.run(lambda: encode_png(image, turns), on_done)

    def _on_encoded(self, data: bytes | None, error: BaseException | None, name: str) -> None:
        self._busy = False
        if error is not None or data is None:
            self._show_status(self.tr("The picture could not be saved: {error}").format(error=error))
            self._update_buttons()
            return
        self.captured.emit(data, name)
        self.accept()

    # Qt events --------------------------------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._probed:
            self._probe_devices()
        source = self._selected_source()
        if self._grabber is None and source is not None:
            self._start(source)

    def hideEvent(self, event: QHideEvent) -> None:
        self._stop()
        _retire(self._probe)
        super().hideEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._stop()
        super().closeEvent(event)

    def done(self, result: int) -> None:
        self._stop()
        _retire(self._probe)
        super().done(result)

    # Helpers ----------------------------------------------------------------------------------------
    def _on_auto_flatten_toggled(self, checked: bool) -> None:
        QSettings().setValue(AUTO_FLATTEN_SETTING, checked)
        if self._grabber is not None:
            self._grabber.set_detect(checked)  # no outline to find or draw when it is not used

    def _show_status(self, text: str) -> None:
        self.status_label.setText(text)

    def _update_buttons(self) -> None:
        has_result = self._result is not None
        self.shutter_button.setEnabled(self._grabber is not None and not self._busy)
        self.accept_button.setEnabled(has_result and not self._busy)
        self.rotate_left_button.setEnabled(has_result)
        self.rotate_right_button.setEnabled(has_result)

    @staticmethod
    def capture(
        parent: QWidget | None = None, recognizer: Recognizer | None = None
    ) -> tuple[bytes, str] | None:
        """Run the dialog modally; the accepted picture as (PNG bytes, name), or None."""
        dialog = CameraDialog(parent, recognizer=recognizer)
        shots: list[tuple[bytes, str]] = []
        dialog.captured.connect(lambda data, name: shots.append((data, name)))
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        dialog.deleteLater()
        return shots[-1] if accepted and shots else None


def _setting_bool(key: str, default: bool) -> bool:
    value = QSettings().value(key, default)
    return value if isinstance(value, bool) else str(value).lower() in ("true", "1", "yes")
