"""The Batch tab's queue table: sorted on screen through a proxy, whole rows selected, read-only."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from scanner_app.gui.batch.table_model import FILE_ID_ROLE, PATH_ROLE, SORT_ROLE, BatchTableModel


class BatchTableView(QTableView):
    """Shows `model` through `proxy` (sorted by SORT_ROLE) in the store's order until a header is
    clicked; rows are found by the file ids the model gives them. ``file_activated(Path)``: a row
    double-clicked."""

    file_activated = Signal(object)  # Path

    def __init__(self, model: BatchTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.proxy = QSortFilterProxyModel(self)  # the order shown (a header clicked)
        self.proxy.setSourceModel(model)
        self.proxy.setSortRole(SORT_ROLE)
        self.setModel(self.proxy)
        self.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # the store's order
        self.setSortingEnabled(True)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.verticalHeader().setVisible(False)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)  # the vendor takes the room left
        self.setColumnWidth(0, 220)
        self.setColumnWidth(1, 240)  # a failed row's cause is elided here, whole in the tooltip
        for column in range(5, model.columnCount()):  # counts, the tick, pages, lines, ms
            self.setColumnWidth(column, 76)
        self.doubleClicked.connect(self._on_double_clicked)

    def shown_file_ids(self) -> list[int]:
        """The files' ids in the order the rows are shown (as sorted on screen)."""
        shown = (self.proxy.index(n, 0).data(FILE_ID_ROLE) for n in range(self.proxy.rowCount()))
        return [file_id for file_id in shown if file_id is not None]

    def current_file_id(self) -> int | None:
        """The id of the file in the current row, or None without one."""
        index = self.currentIndex()
        return index.data(FILE_ID_ROLE) if index.isValid() else None

    def select_source_row(self, row: int) -> None:
        """Select, make current and scroll to the source model's `row`, wherever sorting shows it."""
        index = self.proxy.mapFromSource(self.proxy.sourceModel().index(row, 0))
        self.selectRow(index.row())
        self.setCurrentIndex(index)
        self.scrollTo(index)

    def _on_double_clicked(self, index: QModelIndex) -> None:
        path = index.data(PATH_ROLE)  # a proxy index: the row as shown
        if path is not None:
            self.file_activated.emit(Path(path))
