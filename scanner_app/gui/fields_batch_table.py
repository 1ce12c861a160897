"""Every document's fields in a batch: one row per page, flagged rows coloured, values editable,
exported as one reimbursement sheet."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from scanner_app.core.fields.reimbursement import COLUMNS, SheetRow
from scanner_app.core.store import BatchStore
from scanner_app.gui import dialog_paths
from scanner_app.gui.background import Background
from scanner_app.gui.fields_model import FLAGGED

EDITABLE = {"vendor": "vendor", "date": "date", "number": "number", "net": "net", "tax": "tax",
            "total": "total", "currency": "currency"}  # fmt: skip
_Index = QModelIndex | QPersistentModelIndex


class FieldsBatchModel(QAbstractTableModel):
    """SheetRows as a table (the sheet's columns); editing a cell sets that field by hand."""

    value_edited = Signal(int, str, str)  # (row, field name, value)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rows: list[SheetRow] = []

    def set_rows(self, rows: list[SheetRow]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt API)
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            titles = (self.tr("File"), self.tr("Vendor"), self.tr("Date"), self.tr("Number"), self.tr("Net"),
                      self.tr("Tax"), self.tr("Total"), self.tr("Currency"), self.tr("Flags"))  # fmt: skip
            return titles[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            text = row.cells()[index.column()]
            return Path(text).name if index.column() == 0 and row.page == 1 else text
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == 0:
            return row.source
        if role == Qt.ItemDataRole.BackgroundRole and row.fields.flagged:
            return FLAGGED
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        editable = COLUMNS[index.column()] in EDITABLE if index.isValid() else False
        return super().flags(index) | (Qt.ItemFlag.ItemIsEditable if editable else Qt.ItemFlag.NoItemFlags)

    def setData(self, index: _Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        name = EDITABLE.get(COLUMNS[index.column()]) if index.isValid() else None
        if role != Qt.ItemDataRole.EditRole or name is None:
            return False
        row = self.rows[index.row()]
        if str(value) == row.fields.value(name):
            return False
        self.rows[index.row()] = dataclasses.replace(row, fields=row.fields.with_value(name, str(value)))
        last = self.index(index.row(), len(COLUMNS) - 1)
        self.dataChanged.emit(self.index(index.row(), 0), last)
        self.value_edited.emit(index.row(), name, str(value))
        return True


class FieldsBatchTable(QWidget):
    """``load(store)`` reads every page's fields off the GUI thread; edits are stored with their page;
    ``export_to(path)`` writes the sheet after every edit made before it is stored."""

    loaded = Signal(int)  # rows shown
    exported = Signal(object)  # Path
    failed = Signal(str)
    open_requested = Signal(object, int)  # (path, page index): double-clicked row

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._background = Background(self, threads=1)  # loads, edits and exports in order
        self._store: BatchStore | None = None
        self._page_ids: list[int] = []
        self.model = FieldsBatchModel(self)
        self.model.value_edited.connect(self._on_value_edited)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed
                                   | QAbstractItemView.EditTrigger.SelectedClicked)  # fmt: skip
        self.table.doubleClicked.connect(self._on_double_clicked)
        self.status = QLabel(self)
        self.export_button = QPushButton(self.tr("Export sheet..."), self)
        self.export_button.clicked.connect(self._choose_export)
        top = QHBoxLayout()
        top.addWidget(self.status, 1)
        top.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)

    def load(self, store: BatchStore) -> None:
        from scanner_app.core.fields.batch import page_rows

        self.status.setText(self.tr("Reading fields..."))
        self._store = store

        def done(rows: list[tuple[int, SheetRow]] | None, error: BaseException | None) -> None:
            if error is not None:
                self.status.setText(self.tr("Fields could not be read: {0}").format(error))
                self.failed.emit(str(error))
                return
            self._page_ids = [page_id for page_id, _ in rows or []]
            self.model.set_rows([row for _, row in rows or []])
            flagged = sum(1 for r in self.model.rows if r.fields.flagged)
            pages = self.tr("%n page(s)", "", len(self.model.rows))
            self.status.setText(self.tr("{0}, {1} to check").format(pages, flagged))
            self.loaded.emit(len(self.model.rows))

        self._background.run(lambda: page_rows(store), done, slot="load")

    def _on_value_edited(self, row: int, name: str, value: str) -> None:
        store, page_id = self._store, self._page_ids[row]
        if store is not None:
            self._background.run(lambda: store.edit_field(page_id, name, value), self._on_stored)

    def _on_stored(self, _: object, error: BaseException | None) -> None:
        if error is not None:
            self.failed.emit(self.tr("The edit could not be stored: {0}").format(error))

    def _on_double_clicked(self, index: QModelIndex) -> None:
        if index.column() == 0:
            row = self.model.rows[index.row()]
            self.open_requested.emit(Path(row.source), row.page - 1)

    def _choose_export(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        title, kinds = self.tr("Export reimbursement sheet"), self.tr("Excel workbook (*.xlsx);;CSV (*.csv)")
        first = Path(self.model.rows[0].source) if self.model.rows else None
        start = dialog_paths.start_folder(first) / "reimbursement.xlsx"
        path, _ = QFileDialog.getSaveFileName(self, title, str(start), kinds)
        if path:
            self.export_to(Path(path))

    def export_to(self, path: Path) -> None:
        from scanner_app.core.fields.reimbursement import write_sheet

        rows = list(self.model.rows)

        def done(written: Path | None, error: BaseException | None) -> None:
            if error is not None:
                self.failed.emit(self.tr("Could not write {0}: {1}").format(path, error))
            else:
                self.exported.emit(written)

        self._background.run(lambda: write_sheet(rows, path), done)
