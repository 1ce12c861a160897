"""Export...: which accounting format, the receipts found or those selected, and the file to write.

The dialog only chooses (``ExportDialog.ask`` returns an ``ExportRequest`` or None); the panel runs
the library's export off the GUI thread.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QWidget,
)

from scanner_app.gui import dialog_paths

SUFFIXES = {"xero": ".csv", "qbo": ".csv", "datev": ".csv", "csv": ".csv", "xlsx": ".xlsx", "pdf": ".pdf"}


@dataclass(frozen=True)
class ExportRequest:
    fmt: str  # a key of core.library.accounting.WRITERS
    path: Path
    selection: bool  # the selected receipts (else those the search found)
    again: bool  # receipts exported before go out again
    currency: str  # the currency of receipts that name none ("" : the writer's rule)


class ExportDialog(QDialog):
    def __init__(self, found: int, selected: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Export receipts"))
        form = QFormLayout(self)
        self.format = QComboBox(self)
        names = {"xero": self.tr("Xero bills (CSV)"), "qbo": self.tr("QuickBooks Online bank (CSV)"),
                 "datev": self.tr("DATEV Buchungsstapel (CSV)"), "csv": self.tr("Every field (CSV)"),
                 "xlsx": self.tr("Every field (XLSX)"), "pdf": self.tr("Expense report (PDF)")}  # fmt: skip
        for fmt, name in names.items():
            self.format.addItem(name, fmt)
        self.format.currentIndexChanged.connect(self._on_format_changed)
        form.addRow(self.tr("Format:"), self.format)
        self.found = QRadioButton(self.tr("The %n receipt(s) found", "", found), self)
        self.selected = QRadioButton(self.tr("The %n receipt(s) selected", "", selected), self)
        self.selected.setEnabled(selected > 0)
        (self.selected if selected > 1 else self.found).setChecked(True)
        form.addRow(self.tr("Receipts:"), self.found)
        form.addRow("", self.selected)
        self.again = QCheckBox(self.tr("Include receipts exported before"), self)
        form.addRow("", self.again)
        self.currency = QLineEdit(self)
        self.currency.setPlaceholderText(self.tr("e.g. EUR"))
        self.currency.setMaximumWidth(90)
        form.addRow(self.tr("Currency when a receipt names none:"), self.currency)
        self.path = QLineEdit(self)
        choose = QPushButton(self.tr("Choose..."), self)
        choose.clicked.connect(self._choose_path)
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(choose)
        form.addRow(self.tr("File:"), row)
        self.path.setText(str(dialog_paths.last_folder() / f"receipts-{time.strftime('%Y%m%d')}.csv"))
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def request(self) -> ExportRequest | None:
        text = self.path.text().strip()
        if not text:
            return None
        fmt, currency = str(self.format.currentData()), self.currency.text().strip().upper()
        return ExportRequest(
            fmt, Path(text).expanduser(), self.selected.isChecked(), self.again.isChecked(), currency
        )

    def _on_format_changed(self) -> None:
        text = self.path.text().strip()
        if text:
            self.path.setText(str(Path(text).with_suffix(SUFFIXES[str(self.format.currentData())])))

    def _choose_path(self) -> None:
        chosen, _ = QFileDialog.getSaveFileName(self, self.tr("Export to"), self.path.text())
        if chosen:
            self.path.setText(chosen)

    @staticmethod
    def ask(found: int, selected: int, parent: QWidget | None = None) -> ExportRequest | None:
        dialog = ExportDialog(found, selected, parent)
        return dialog.request() if dialog.exec() == QDialog.DialogCode.Accepted else None
