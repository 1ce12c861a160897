"""The batch panel's export row: a check box per format and an Export button (formats in QSettings),
and the reimbursement sheet (XLSX or CSV, a row per receipt)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import cast

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QCheckBox, QFileDialog, QHBoxLayout, QLabel, QPushButton, QWidget

from scanner_app.core.export.formats import FORMATS
from scanner_app.gui import dialog_paths

DEFAULT_FORMATS = ("json", "csv", "txt")


def parse_formats(value: object) -> tuple[str, ...]:
    """Known formats from a settings value ("json,csv" or a list); the defaults when none is known."""
    items = value.split(",") if isinstance(value, str) else list(cast("Iterable[object]", value or []))
    formats = tuple(f for f in (str(i).strip().lower() for i in items) if f in FORMATS)
    return tuple(dict.fromkeys(formats)) or DEFAULT_FORMATS


class ExportBar(QWidget):
    """Emits ``export_requested(folder, formats)`` after the user picked a folder."""

    export_requested = Signal(object, object)  # (Path, tuple[str, ...])
    sheet_requested = Signal(object)  # Path of the .xlsx or .csv to write

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(self.tr("Export as:")))
        chosen = parse_formats(QSettings().value("batch/formats", ",".join(DEFAULT_FORMATS)))
        self.boxes: dict[str, QCheckBox] = {}
        for fmt in FORMATS:
            box = QCheckBox(fmt, self)
            box.setChecked(fmt in chosen)
            box.toggled.connect(self._on_formats_changed)
            self.boxes[fmt] = box
            layout.addWidget(box)
        self.button = QPushButton(self.tr("Export..."), self)
        self.button.setToolTip(self.tr("Write the batch's results into a folder you choose"))
        self.button.clicked.connect(self._on_export_clicked)
        layout.addWidget(self.button)
        self.sheet_button = QPushButton(self.tr("Reimbursement sheet..."), self)
        self.sheet_button.setToolTip(self.tr("The whole batch in one sheet: a row per receipt, edits in"))
        self.sheet_button.clicked.connect(self._on_sheet_clicked)
        layout.addWidget(self.sheet_button)
        self.result = QLabel(self)
        self.result.setWordWrap(True)
        layout.addWidget(self.result, 1)

    def formats(self) -> tuple[str, ...]:
        return tuple(fmt for fmt, box in self.boxes.items() if box.isChecked())

    def set_formats(self, formats: Sequence[str]) -> None:
        for fmt, box in self.boxes.items():
            box.setChecked(fmt in formats)

    def _on_formats_changed(self) -> None:
        QSettings().setValue("batch/formats", ",".join(self.formats()))

    def _on_export_clicked(self) -> None:
        if not self.formats():
            self.result.setText(self.tr("Choose at least one format."))
            return
        start = str(QSettings().value("batch/export_folder", "") or dialog_paths.last_folder())
        folder = QFileDialog.getExistingDirectory(self, self.tr("Export the batch into"), start)
        if folder:
            QSettings().setValue("batch/export_folder", folder)
            self.export_requested.emit(Path(folder), self.formats())

    def _on_sheet_clicked(self) -> None:
        start = Path(str(QSettings().value("batch/export_folder", "") or dialog_paths.last_folder()))
        kinds = self.tr("Excel workbook (*.xlsx);;CSV (*.csv)")
        path, chosen = QFileDialog.getSaveFileName(self, self.tr("Reimbursement sheet"),
                                                   str(start / "reimbursement.xlsx"), kinds)  # fmt: skip
        if path:
            target = Path(path)
            if not target.suffix:
                target = target.with_suffix(".csv" if "csv" in chosen.lower() else ".xlsx")
            QSettings().setValue("batch/export_folder", str(target.parent))
            self.sheet_requested.emit(target)
