"""File > Scan...: choose a scanner and its settings, preview the flatbed, scan with per-page progress.

The dialog only renders state and forwards intent: listing devices, reading their capabilities,
previews and scans run through ``Background`` (core: ``scanner_app.core.devices``). The pages kept
(blank back sides dropped) are handed over by ``ScanDialog.scan`` for the Batch tab or the viewer.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from pathlib import Path
from typing import cast

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from scanner_app.core.devices import Device, DeviceList, ScanSettings, list_devices, open_device
from scanner_app.core.devices.base import Capabilities, Mode, Source
from scanner_app.core.devices.feed import (
    BlankDropped,
    PageScanned,
    ScanProgress,
    ScanResult,
    scan_folder,
    scan_pages,
)
from scanner_app.gui.background import Background

PREVIEW_DPI = 75
_KEYS = {"device": "scan/device", "source": "scan/source", "dpi": "scan/dpi", "mode": "scan/mode",
         "duplex": "scan/duplex"}  # fmt: skip


def _capabilities(opener: Callable[[str], Device], device_id: str) -> Capabilities:
    device = opener(device_id)
    try:
        return device.capabilities()
    finally:
        device.close()


def _preview_png(opener: Callable[[str], Device], device_id: str, mode: Mode) -> bytes:
    device = opener(device_id)
    try:
        settings = ScanSettings("flatbed", PREVIEW_DPI, mode)
        pages = list(device.scan(settings, threading.Event()))
    finally:
        device.close()
    out = io.BytesIO()
    pages[0].image.save(out, "PNG")
    return out.getvalue()


class ScanDialog(QDialog):
    """See the module docstring. ``lister`` and ``opener`` default to the core's."""

    def __init__(
        self,
        root: Path,
        parent: QWidget | None = None,
        *,
        lister: Callable[[], DeviceList] = list_devices,
        opener: Callable[[str], Device] = open_device,
    ) -> None:
        super().__init__(parent)
        self.root, self._lister, self._opener = root, lister, opener
        self.result_pages: list[Path] = []
        self.last_result: ScanResult | None = None
        self._cancel = threading.Event()
        self._scanning = False
        self._background = Background(self, threads=2)
        self._post = self._background.relay(self._on_events)
        self._build()
        self.refresh()

    # Layout -------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.setWindowTitle(self.tr("Scan"))
        self.device_box = QComboBox(editable=True)
        self.device_box.setToolTip(self.tr("A scanner found, or an eSCL address: http://HOST:PORT/eSCL"))
        self.device_box.setMinimumContentsLength(36)
        self.device_box.activated.connect(lambda _: self._load_capabilities())
        self.refresh_button = QPushButton(self.tr("Refresh"))
        self.refresh_button.clicked.connect(self.refresh)
        self.source_box, self.dpi_box, self.mode_box = QComboBox(), QComboBox(), QComboBox()
        self.source_box.currentIndexChanged.connect(lambda _: self._update_controls())
        self.duplex_box = QCheckBox(self.tr("Both sides (duplex); blank back sides are dropped"))
        self.preview = QLabel(self.tr("No preview"), alignment=Qt.AlignmentFlag.AlignCenter)
        self.preview.setMinimumSize(240, 300)
        self.preview_button = QPushButton(self.tr("Preview"))
        self.preview_button.clicked.connect(self.start_preview)
        self.progress = QProgressBar(maximum=1000)
        self.status = QLabel(wordWrap=True)
        self.scan_button = QPushButton(self.tr("Scan"), default=True)
        self.scan_button.clicked.connect(self.start_scan)
        self.cancel_button = QPushButton(self.tr("Close"))
        self.cancel_button.clicked.connect(self.cancel_or_close)
        devices = QHBoxLayout()
        devices.addWidget(self.device_box, 1)
        devices.addWidget(self.refresh_button)
        form = QFormLayout()
        form.addRow(self.tr("Scanner"), devices)
        form.addRow(self.tr("Source"), self.source_box)
        form.addRow("", self.duplex_box)
        form.addRow(self.tr("Resolution"), self.dpi_box)
        form.addRow(self.tr("Colour"), self.mode_box)
        buttons = QHBoxLayout()
        buttons.addWidget(self.preview_button)
        buttons.addStretch(1)
        buttons.addWidget(self.scan_button)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        self._update_controls()

    def device_id(self) -> str:
        data = self.device_box.currentData()
        text = self.device_box.currentText().strip()
        return (
            str(data) if data and self.device_box.itemText(self.device_box.currentIndex()) == text else text
        )

    def settings(self, dpi: int | None = None) -> ScanSettings:
        source = str(self.source_box.currentData() or "flatbed")
        if source == "feeder" and self.duplex_box.isChecked() and self.duplex_box.isEnabled():
            source = "duplex"
        mode = str(self.mode_box.currentData() or "gray")
        dpi = dpi or int(self.dpi_box.currentData() or 300)
        return ScanSettings(cast(Source, source), dpi, cast(Mode, mode))  # both checked by ScanSettings

    def _update_controls(self) -> None:
        busy = self._scanning
        has_device = bool(self.device_id())
        flatbed = self.source_box.currentData() in (None, "flatbed")
        for widget in (self.device_box, self.refresh_button, self.source_box, self.dpi_box, self.mode_box):
            widget.setEnabled(not busy)
        self.duplex_box.setEnabled(not busy and not flatbed and bool(self.duplex_box.property("offered")))
        self.preview_button.setEnabled(not busy and has_device and flatbed)
        self.scan_button.setEnabled(not busy and has_device)
        self.cancel_button.setText(self.tr("Cancel") if busy else self.tr("Close"))

    def _show_status(self, text: str) -> None:
        self.status.setText(text)

    # Devices and capabilities -------------------------------------------------------------------
    def refresh(self) -> None:
        self._show_status(self.tr("Looking for scanners..."))
        self._background.run(self._lister, self._on_devices, slot="devices")

    def _on_devices(self, found: DeviceList | None, error: BaseException | None) -> None:
        remembered = str(QSettings().value(_KEYS["device"], "") or "")
        self.device_box.clear()
        for device in found.devices if found else ():
            self.device_box.addItem(device.label, device.id)
        index = self.device_box.findData(remembered)
        if index >= 0:
            self.device_box.setCurrentIndex(index)
        elif remembered:
            self.device_box.setEditText(remembered)
        problems = [str(error)] if error else list(found.problems if found else ())
        if found is not None and not found.devices:
            problems.append(self.tr("No scanner found; type a network scanner's address (http://HOST/eSCL)"))
        self._show_status("\n".join(problems))
        self._load_capabilities()

    def _load_capabilities(self) -> None:
        device_id = self.device_id()
        self._update_controls()
        if device_id:
            self._background.run(lambda: _capabilities(self._opener, device_id), self._on_capabilities,
                                 slot="capabilities")  # fmt: skip

    def _on_capabilities(self, caps: Capabilities | None, error: BaseException | None) -> None:
        if error is not None or caps is None:
            self._show_status(str(error))
            return
        settings = QSettings()
        names = {"flatbed": self.tr("Flatbed"), "feeder": self.tr("Document feeder")}
        modes = {"color": self.tr("Colour"), "gray": self.tr("Grey"), "lineart": self.tr("Black and white")}
        _fill(
            self.source_box,
            [(names[s], s) for s in caps.sources if s in names],
            settings.value(_KEYS["source"]),
        )
        dpi = int(str(settings.value(_KEYS["dpi"], 300)))
        _fill(self.dpi_box, [(f"{d} dpi", d) for d in caps.resolutions], dpi)
        _fill(self.mode_box, [(modes[m], m) for m in caps.modes], settings.value(_KEYS["mode"], "gray"))
        self.duplex_box.setProperty("offered", "duplex" in caps.sources)
        self.duplex_box.setChecked(str(settings.value(_KEYS["duplex"], "false")).lower() == "true")
        self._update_controls()

    # Preview and scan ---------------------------------------------------------------------------
    def start_preview(self) -> None:
        device_id, mode = self.device_id(), self.settings().mode
        self._set_scanning(True, self.tr("Previewing..."))
        self._background.run(
            lambda: _preview_png(self._opener, device_id, mode), self._on_preview, slot="scan"
        )

    def _on_preview(self, png: bytes | None, error: BaseException | None) -> None:
        self._set_scanning(False, str(error) if error else "")
        if png:
            pixmap = QPixmap.fromImage(QImage.fromData(png))
            self.preview.setPixmap(pixmap.scaled(self.preview.size(), Qt.AspectRatioMode.KeepAspectRatio,
                                                 Qt.TransformationMode.SmoothTransformation))  # fmt: skip

    def start_scan(self) -> None:
        device_id, settings = self.device_id(), self.settings()
        self._remember(device_id, settings)
        folder = scan_folder(self.root)
        opener, cancel, post = self._opener, self._cancel, self._post
        cancel.clear()

        def job() -> ScanResult:
            device = opener(device_id)
            try:
                return scan_pages(device, settings, folder, cancel=cancel, on_event=post)
            finally:
                device.close()

        self._set_scanning(True, self.tr("Scanning page 1..."))
        self._background.run(job, self._on_scanned, slot="scan")

    def cancel_or_close(self) -> None:
        if self._scanning:
            self._cancel.set()
            self._show_status(self.tr("Cancelling..."))
        else:
            self.reject() if not self.result_pages else self.accept()

    def _remember(self, device_id: str, settings: ScanSettings) -> None:
        values = QSettings()
        values.setValue(_KEYS["device"], device_id)
        values.setValue(_KEYS["source"], "flatbed" if settings.source == "flatbed" else "feeder")
        values.setValue(_KEYS["dpi"], settings.dpi)
        values.setValue(_KEYS["mode"], settings.mode)
        values.setValue(_KEYS["duplex"], settings.source == "duplex")

    def _set_scanning(self, scanning: bool, text: str) -> None:
        self._scanning = scanning
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self._show_status(text)
        self._update_controls()

    def _on_events(self, events: list[object]) -> None:
        for event in events:
            if isinstance(event, ScanProgress):
                if event.fraction < 0:
                    self.progress.setRange(0, 0)  # a page of unknown height: a busy bar
                else:
                    self.progress.setRange(0, 1000)
                    self.progress.setValue(int(event.fraction * 1000))
                self._show_status(self.tr("Scanning page {0}...").format(event.index + 1))
            elif isinstance(event, PageScanned):
                self.result_pages.append(event.path)
            elif isinstance(event, BlankDropped):
                self._show_status(self.tr("Blank back side dropped ({0} so far)").format(event.dropped))

    def _on_scanned(self, result: ScanResult | None, error: BaseException | None) -> None:
        self.last_result = result
        if result is None:
            self._set_scanning(False, str(error))
            return
        self.result_pages = list(result.paths)
        text = self.tr("{0} pages scanned, {1} blank back sides dropped").format(
            len(result.paths), result.blank_dropped)  # fmt: skip
        if result.cancelled:
            text += "; " + self.tr("cancelled")
        if result.message:
            text += (
                "\n" + result.message + "\n" + self.tr("The pages scanned before are kept and will be read.")
            )
        self._set_scanning(False, text)
        if result.paths and not result.message and not result.cancelled:
            self.accept()

    def done(self, code: int) -> None:
        self._cancel.set()
        self._background.close()
        super().done(code)

    @staticmethod
    def scan(parent: QWidget | None, root: Path) -> list[Path]:
        """Run the dialog modally; the pages kept, in order (empty when none)."""
        dialog = ScanDialog(root, parent)
        dialog.exec()
        pages = list(dialog.result_pages)
        dialog.deleteLater()
        return pages


def _fill(box: QComboBox, items: list[tuple[str, object]], preferred: object) -> None:
    box.blockSignals(True)
    box.clear()
    for text, data in items:
        box.addItem(text, data)
    index = box.findData(preferred)
    box.setCurrentIndex(index if index >= 0 else 0)
    box.blockSignals(False)
