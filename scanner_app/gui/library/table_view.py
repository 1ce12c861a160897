"""The Library tab's table: sorted on screen through a proxy (newest first until a header is clicked),
whole rows selected, several at once, read-only; rows are found and kept selected by receipt id."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import (
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QSize,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from scanner_app.gui.library.search import LibraryRow
from scanner_app.gui.library.table_model import COLUMNS, ID_ROLE, ROW_ROLE, SORT_ROLE, LibraryTableModel

ROW_HEIGHT = 60  # px: room for the thumbnail


class LibraryTableView(QTableView):
    """``receipt_activated(LibraryRow)``: a row double-clicked or Enter pressed on it."""

    receipt_activated = Signal(object)

    def __init__(self, model: LibraryTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.library_model = model
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(model)
        self.proxy.setSortRole(SORT_ROLE)
        self.setModel(self.proxy)
        self.horizontalHeader().setSortIndicator(
            -1, Qt.SortOrder.AscendingOrder
        )  # the library's: newest first
        self.setSortingEnabled(True)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setIconSize(QSize(ROW_HEIGHT - 8, ROW_HEIGHT - 8))
        self.setWordWrap(False)
        vertical = self.verticalHeader()
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(ROW_HEIGHT)
        vertical.setVisible(False)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        widths = {"receipt": 96, "date": 92, "vendor": 210, "total": 76, "currency": 70, "category": 150,
                  "status": 76, "way_in": 90, "source": 140, "duplicate": 110}  # fmt: skip
        for name, width in widths.items():
            self.setColumnWidth(COLUMNS.index(name), width)
        self.activated.connect(self._on_activated)  # a double click or Enter, as the style has it

    def shown_ids(self) -> list[int]:
        """The receipts' ids in the order shown."""
        return [self.proxy.index(n, 0).data(ID_ROLE) for n in range(self.proxy.rowCount())]

    def selected_ids(self) -> list[int]:
        rows = sorted(index.row() for index in self.selectionModel().selectedRows())
        return [self.proxy.index(n, 0).data(ID_ROLE) for n in rows]

    def current_row(self) -> LibraryRow | None:
        index = self.currentIndex()
        return index.data(ROW_ROLE) if index.isValid() else None

    def select_ids(self, ids: Iterable[int], current: int | None = None) -> None:
        """Select the rows of ``ids`` (those still shown), ``current`` the current one."""
        selection = QItemSelection()
        last = len(COLUMNS) - 1
        for receipt_id in ids:
            index = self._index_of(receipt_id)
            if index.isValid():
                selection.select(index, index.siblingAtColumn(last))
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        model = self.selectionModel()
        if current is not None and self._index_of(current).isValid():
            model.setCurrentIndex(self._index_of(current), QItemSelectionModel.SelectionFlag.NoUpdate)
        model.select(selection, flags)

    def _index_of(self, receipt_id: int) -> QModelIndex:
        row = self.library_model.row_of(receipt_id)
        if row is None:
            return QModelIndex()
        return self.proxy.mapFromSource(self.library_model.index(row, 0))

    def _on_activated(self, index: QModelIndex) -> None:
        row = index.data(ROW_ROLE)
        if row is not None:
            self.receipt_activated.emit(row)
