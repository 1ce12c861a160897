"""The run form: target, images, concurrency or sweep, duration or requests, rate, stability."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QWidget,
)

from scanner_app.gui.theme import readable

from .plan import TARGET_KINDS, ImageSource, LoadSettings, parse_concurrency


@dataclass(frozen=True)
class RunRequest:
    """What the user asked for: one target, one or more concurrency levels."""

    kind: str
    levels: tuple[int, ...]
    images: ImageSource
    load: LoadSettings


class RunForm(QWidget):
    """Emits start_requested(RunRequest) or stop_requested; shows its own input errors."""

    start_requested = Signal(object)
    stop_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        names = {"pipeline": self.tr("Pipeline (ensemble)"), "detection": self.tr("Detection model only"),
                 "recognition": self.tr("Recognition model only"),
                 "baseline": self.tr("Baseline (serial Python server)")}  # fmt: skip
        self.target = QComboBox()
        for kind in TARGET_KINDS:
            self.target.addItem(names[kind], kind)
        self.generated = QRadioButton(self.tr("Generated receipts"))
        self.generated.setChecked(True)
        self.generated_count = _spin(1, 64, 8)
        self.folder_choice = QRadioButton(self.tr("Folder"))
        self.folder = QLineEdit()
        self.folder.setPlaceholderText(self.tr("a folder of images or PDFs"))
        browse = QPushButton(self.tr("Browse..."))
        browse.clicked.connect(self._on_browse)
        self.folder.textEdited.connect(lambda _text: self.folder_choice.setChecked(True))
        self.concurrency = QLineEdit("4")
        self.concurrency.setToolTip(self.tr("One level (8), a list (1,2,4,8) or a doubling range (1-16)"))
        self.by_requests = QCheckBox(self.tr("Stop after a number of requests"))
        self.duration = _dspin(0.5, 3600.0, LoadSettings().duration_s or 20.0, self.tr(" s"))
        self.requests = _spin(1, 1_000_000, 200)
        self.use_rate = QCheckBox(self.tr("Open loop at"))
        self.rate = _dspin(0.1, 10_000.0, 2.0, self.tr(" images/s"))
        self.poisson = QCheckBox(self.tr("Poisson arrivals"))
        self.warmup = _dspin(0.0, 600.0, 2.0, self.tr(" s"))
        self.stability = QCheckBox(self.tr("Until stable (last 3 windows within ±10 %, at most 10)"))
        self.start_button = QPushButton(self.tr("Start"))
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.setEnabled(False)
        self.error = QLabel()
        red = readable(QColor("#b00020"), self.palette().color(QPalette.ColorRole.Window))  # dark too
        self.error.setStyleSheet(f"color: {red.name()};")
        self.error.setWordWrap(True)
        self._layout(browse)
        self.start_button.clicked.connect(self._on_start)
        self.stop_button.clicked.connect(self.stop_requested)
        self.by_requests.toggled.connect(self._sync_enabled)
        self.use_rate.toggled.connect(self._sync_enabled)
        self._sync_enabled()

    def _layout(self, browse: QPushButton) -> None:
        form = QFormLayout(self)
        form.addRow(self.tr("Target"), self.target)
        generated_row = QHBoxLayout()
        generated_row.addWidget(self.generated)
        generated_row.addWidget(self.generated_count)
        form.addRow(self.tr("Images"), generated_row)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder_choice)
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(browse)
        form.addRow("", folder_row)
        form.addRow(self.tr("Concurrency or sweep"), self.concurrency)
        form.addRow(self.tr("Duration per level"), self.duration)
        requests_row = QHBoxLayout()
        requests_row.addWidget(self.by_requests)
        requests_row.addWidget(self.requests)
        form.addRow("", requests_row)
        rate_row = QHBoxLayout()
        rate_row.addWidget(self.use_rate)
        rate_row.addWidget(self.rate)
        rate_row.addWidget(self.poisson)
        form.addRow(self.tr("Rate"), rate_row)
        form.addRow(self.tr("Warm-up"), self.warmup)
        form.addRow("", self.stability)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.stop_button)
        form.addRow(buttons)
        form.addRow(self.error)

    def request(self) -> RunRequest:
        """The form's values; raises ValueError with a message for the user."""
        levels = parse_concurrency(self.concurrency.text())
        folder = self.folder.text().strip()
        if self.folder_choice.isChecked():
            if not folder:
                raise ValueError(self.tr("Choose a folder of images, or use generated receipts."))
            images = ImageSource(folder=Path(folder).expanduser())
        else:
            images = ImageSource(generated_count=self.generated_count.value())
        load = LoadSettings(
            duration_s=None if self.by_requests.isChecked() else self.duration.value(),
            requests=self.requests.value() if self.by_requests.isChecked() else None,
            rate_per_s=self.rate.value() if self.use_rate.isChecked() else None,
            poisson=self.use_rate.isChecked() and self.poisson.isChecked(),
            warmup_s=self.warmup.value(),
            stability=self.stability.isChecked(),
        )
        return RunRequest(str(self.target.currentData()), levels, images, load)

    def set_running(self, running: bool) -> None:
        self.start_button.setEnabled(not running)
        self.stop_button.setEnabled(running)

    def show_error(self, message: str) -> None:
        self.error.setText(message)

    def _on_start(self) -> None:
        try:
            request = self.request()
        except ValueError as exc:
            self.show_error(str(exc))
            return
        self.show_error("")
        self.start_requested.emit(request)

    def _on_browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, self.tr("Images for the stress run"), self.folder.text()
        )
        if folder:
            self.folder.setText(folder)
            self.folder_choice.setChecked(True)

    def _sync_enabled(self) -> None:
        self.duration.setEnabled(not self.by_requests.isChecked())
        self.requests.setEnabled(self.by_requests.isChecked())
        self.rate.setEnabled(self.use_rate.isChecked())
        self.poisson.setEnabled(self.use_rate.isChecked())


def _spin(low: int, high: int, value: int) -> QSpinBox:
    box = QSpinBox()
    box.setRange(low, high)
    box.setValue(value)
    return box


def _dspin(low: float, high: float, value: float, suffix: str) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(low, high)
    box.setDecimals(1)
    box.setValue(value)
    box.setSuffix(suffix)
    return box
