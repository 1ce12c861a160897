"""The recognised lines as a Qt table model (#, text, confidence) over the DocumentModel."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from scanner_app.gui.document.model import DocumentModel
from scanner_app.gui.theme import readable
from scanner_app.gui.viewer.overlay import LOW_CONFIDENCE, OverlayStyle

NUMBER, TEXT, CONFIDENCE = range(3)
LINE_INDEX_ROLE = Qt.ItemDataRole.UserRole + 1
_HOVER = QBrush(QColor(*OverlayStyle().hover_fill))
_LOW = QBrush(QColor(*OverlayStyle().low_color))
_Index = QModelIndex | QPersistentModelIndex


class ResultsTableModel(QAbstractTableModel):
    """One row per line in reading order; the text column is editable (edits go to the document)."""

    def __init__(self, document: DocumentModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._hovered = -1
        document.page_changed.connect(self._on_page_changed)
        document.hovered_changed.connect(self._on_hovered_changed)
        document.line_changed.connect(self._on_line_changed)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt API)
        return 0 if parent.isValid() else self._document.line_count()

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 3

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return (self.tr("#"), self.tr("Text"), self.tr("Confidence"))[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        page = self._document.page
        if page is None or not index.isValid() or index.row() >= len(page.lines):
            return None
        line, row, column = page.lines[index.row()], index.row(), index.column()
        read = self._document.server_reading(row)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return (row + 1, line.text, self.tr("edited") if read else f"{line.score:.3f}")[column]
        if role == Qt.ItemDataRole.ToolTipRole and column == TEXT:
            return line.text
        if role == Qt.ItemDataRole.ToolTipRole and column == CONFIDENCE and read:
            return self.tr('Corrected by hand; the server read "{0}" ({1:.3f})').format(*read)
        if role == LINE_INDEX_ROLE:
            return row
        if role == Qt.ItemDataRole.BackgroundRole and row == self._hovered:
            return _HOVER
        if role == Qt.ItemDataRole.ForegroundRole and column == CONFIDENCE and line.score < LOW_CONFIDENCE:
            return QBrush(readable(_LOW.color()))  # amber with its contrast on a light or dark base
        if role == Qt.ItemDataRole.TextAlignmentRole and column != TEXT:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        flags = super().flags(index)
        return flags | Qt.ItemFlag.ItemIsEditable if index.column() == TEXT else flags

    def setData(self, index: _Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or index.column() != TEXT:
            return False
        self._document.edit_line(index.row(), str(value))
        return True

    def _on_page_changed(self) -> None:
        self.beginResetModel()
        self._hovered = -1
        self.endResetModel()

    def _on_hovered_changed(self, index: int) -> None:
        old, self._hovered = self._hovered, index
        for row in {old, index} - {-1}:
            if row < self.rowCount():
                roles = [Qt.ItemDataRole.BackgroundRole]
                self.dataChanged.emit(self.index(row, 0), self.index(row, 2), roles)

    def _on_line_changed(self, row: int) -> None:
        self.dataChanged.emit(self.index(row, TEXT), self.index(row, CONFIDENCE))
