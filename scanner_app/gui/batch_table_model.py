"""The batch queue as a Qt table model over a RowBook (cheap for thousands of files)."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QIcon
from PySide6.QtWidgets import QApplication, QStyle

from scanner_app.gui.batch_rows import BatchRow, RowBook

COLUMNS = ("file", "state", "pages", "lines", "ms")
PATH_ROLE = Qt.ItemDataRole.UserRole + 1  # the file's Path
STATE_ROLE = Qt.ItemDataRole.UserRole + 2  # "queued" / "running" / "done" / "failed"
_Index = QModelIndex | QPersistentModelIndex
FAILED_COLOUR = QColor(198, 40, 40)  # a failed row's text: it must not look like a done one
_ICONS = {"done": QStyle.StandardPixmap.SP_DialogApplyButton,
          "failed": QStyle.StandardPixmap.SP_MessageBoxCritical}  # fmt: skip


class BatchTableModel(QAbstractTableModel):
    """Rows of a RowBook; the panel calls ``reload`` after ``load`` and ``rows_changed`` after events."""

    def __init__(self, book: RowBook, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.book = book
        self._headers = (self.tr("File"), self.tr("State"), self.tr("Pages"), self.tr("Lines"), self.tr("ms"))
        self._states = {"queued": self.tr("queued"), "running": self.tr("running"),
                        "done": self.tr("done"), "failed": self.tr("failed")}  # fmt: skip

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's default argument)
        return 0 if parent.isValid() else len(self.book.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self._headers[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or index.row() >= len(self.book.rows):
            return None
        row = self.book.rows[index.row()]
        column = COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{row.path}\n{row.cause}" if row.cause else str(row.path)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in ("pages", "lines", "ms"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and row.state == "failed":
            return QBrush(FAILED_COLOUR)
        if role == Qt.ItemDataRole.DecorationRole and column == "state":
            return _icon(row.state)
        if role == PATH_ROLE:
            return row.path
        if role == STATE_ROLE:
            return row.state
        return None

    def _display(self, row: BatchRow, column: str) -> str:
        if column == "file":
            return row.path.name
        if column == "state":
            state = self._states.get(row.state, row.state)
            return self.tr("{0}: {1}").format(state, row.cause) if row.cause else state
        if column == "pages":
            if row.pages is None:
                return ""
            return str(row.pages) if row.state == "done" else f"{row.pages_done}/{row.pages}"
        if column == "lines":
            return str(row.lines) if row.pages_done or row.state == "done" else ""
        return f"{row.ms:.0f}" if row.ms else ""

    def reload(self) -> None:
        """The book was loaded with other files."""
        self.beginResetModel()
        self.endResetModel()

    def rows_changed(self, rows: Iterable[int]) -> None:
        """Repaint the given rows: one dataChanged over their span."""
        rows = list(rows)
        if rows:
            top, bottom = min(rows), max(rows)
            self.dataChanged.emit(self.index(top, 0), self.index(bottom, len(COLUMNS) - 1))


def _icon(state: str) -> QIcon | None:
    pixmap = _ICONS.get(state)
    app = QApplication.instance()
    return app.style().standardIcon(pixmap) if pixmap is not None and isinstance(app, QApplication) else None
