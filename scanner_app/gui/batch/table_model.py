"""The batch queue as a Qt table model over a RowBook (cheap for thousands of files): state and
progress, and once read the receipts' vendor, date, total, fields to check, count and checked marks.
``SORT_ROLE`` gives each column a value that sorts as it should (numbers as numbers, dates in time)."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QIcon
from PySide6.QtWidgets import QApplication, QStyle

from scanner_app.core.batch.review import sort_date
from scanner_app.core.fields.amounts import format_amount
from scanner_app.gui.batch.rows import BatchRow, RowBook
from scanner_app.gui.i18n.core_text import file_cause, with_original
from scanner_app.gui.theme import readable

COLUMNS = ("file", "state", "vendor", "date", "total", "flags", "receipts", "checked", "pages", "lines", "ms")
NUMBER_COLUMNS = ("total", "flags", "receipts", "pages", "lines", "ms")
PATH_ROLE = Qt.ItemDataRole.UserRole + 1  # the file's Path
STATE_ROLE = Qt.ItemDataRole.UserRole + 2  # "queued" / "running" / "done" / "failed"
SORT_ROLE = Qt.ItemDataRole.UserRole + 3  # a float, or a string that sorts as the column should
FILE_ID_ROLE = Qt.ItemDataRole.UserRole + 4
_STATE_ORDER = {"failed": 0, "running": 1, "queued": 2, "done": 3}
_Index = QModelIndex | QPersistentModelIndex
FAILED_COLOUR = QColor(198, 40, 40)  # a failed row's text: it must not look like a done one
_ICONS = {"done": QStyle.StandardPixmap.SP_DialogApplyButton,
          "failed": QStyle.StandardPixmap.SP_MessageBoxCritical}  # fmt: skip


class BatchTableModel(QAbstractTableModel):
    """Rows of a RowBook; the panel calls ``reload`` after ``load`` and ``rows_changed`` after events."""

    def __init__(self, book: RowBook, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.book = book
        self._headers = (self.tr("File"), self.tr("State"), self.tr("Vendor"), self.tr("Date"),
                         self.tr("Total"), self.tr("To check"), self.tr("Receipts"), self.tr("Checked"),
                         self.tr("Pages"), self.tr("Lines"), self.tr("ms"))  # fmt: skip
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
            return self._tooltip(row)
        if role == SORT_ROLE:
            return _sort_key(row, column)
        if role == FILE_ID_ROLE:
            return row.file_id
        if role == Qt.ItemDataRole.TextAlignmentRole and column in NUMBER_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.TextAlignmentRole and column == "checked":
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ForegroundRole and row.state == "failed":
            return QBrush(readable(FAILED_COLOUR))  # red with its contrast on a light or dark base
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
            return self.tr("{0}: {1}").format(state, file_cause(row.path, row.cause)) if row.cause else state
        if column == "pages":
            if row.pages is None:
                return ""
            return str(row.pages) if row.state == "done" else f"{row.pages_done}/{row.pages}"
        if column == "lines":
            return str(row.lines) if row.pages_done or row.state == "done" else ""
        if column == "ms":
            return f"{row.ms:.0f}" if row.ms else ""
        return self._review_text(row, column)

    def _review_text(self, row: BatchRow, column: str) -> str:
        review = row.review
        if review is None:
            return ""
        if column == "vendor":
            text = review.vendor
            return self.tr("{0} receipts: {1}").format(review.count, text) if review.count > 1 else text
        if column == "date":
            return review.date
        if column == "total":
            return format_amount(review.total) if review.total is not None else ""
        if column == "flags":
            return str(review.flag_count) if review.flag_count else ""
        if column == "receipts":
            return str(review.count)
        if column == "checked":
            if review.checked == 0:
                return ""
            return "\u2713" if review.checked == review.count else f"{review.checked}/{review.count}"
        return ""

    def _tooltip(self, row: BatchRow) -> str:
        lines = [str(row.path)] + ([with_original(row.cause)] if row.cause else [])
        if row.review is not None and row.review.count > 1:
            for r in row.review.receipts:
                f = r.fields
                lines.append(self.tr("Receipt {0}: {1}, {2}, {3}").format(
                    r.receipt, f.value("vendor"), f.value("date"), f.value("total")))  # fmt: skip
        return "\n".join(lines)

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


def _sort_key(row: BatchRow, column: str) -> float | str:
    """Numbers as floats (missing: below every number), dates as ISO text, text case-folded."""
    review = row.review
    if column == "file":
        return row.path.name.casefold()
    if column == "state":
        return float(_STATE_ORDER.get(row.state, 9))
    if column in ("pages", "lines", "ms"):
        value = {"pages": row.pages, "lines": row.lines, "ms": row.ms}[column]
        return float(value) if value is not None else -1.0
    if review is None:
        return "" if column in ("vendor", "date") else -1.0
    if column == "vendor":
        return review.vendor.casefold()
    if column == "date":
        return sort_date(review.date)
    if column == "total":
        return float(review.total) if review.total is not None else -1.0
    if column == "flags":
        return float(review.flag_count)
    if column == "receipts":
        return float(review.count)
    return review.checked / review.count if review.count else 0.0


def _icon(state: str) -> QIcon | None:
    pixmap = _ICONS.get(state)
    app = QApplication.instance()
    return app.style().standardIcon(pixmap) if pixmap is not None and isinstance(app, QApplication) else None
