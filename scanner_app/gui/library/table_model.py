"""The library's receipts as a Qt table model (cheap for thousands of rows: rows are fetched off the
GUI thread and handed over whole; thumbnails come from a ThumbnailCache as rows are painted).
``SORT_ROLE`` gives each column a value that sorts as it should (amounts as numbers, dates in time)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from scanner_app.core.library.duplicates import DuplicateFlag
from scanner_app.gui.library.search import LibraryRow
from scanner_app.gui.library.thumbnails import ThumbnailCache
from scanner_app.gui.theme import readable

COLUMNS = ("receipt", "date", "vendor", "total", "currency", "category", "status", "way_in", "source",
           "duplicate")  # fmt: skip
ID_ROLE = Qt.ItemDataRole.UserRole + 1  # the receipt's id
SORT_ROLE = Qt.ItemDataRole.UserRole + 2  # a float, or a string that sorts as the column should
ROW_ROLE = Qt.ItemDataRole.UserRole + 3  # the LibraryRow
FLAG_COLOUR = QColor(176, 96, 0)  # amber: a possible duplicate waits for a decision
_Index = QModelIndex | QPersistentModelIndex


class LibraryTableModel(QAbstractTableModel):
    """Rows of one fetch; ``set_rows`` replaces them (the view restores its selection by id)."""

    def __init__(self, thumbnails: ThumbnailCache, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.thumbnails = thumbnails
        self._rows: list[LibraryRow] = []
        self._flags: dict[int, DuplicateFlag] = {}
        self._row_of: dict[int, int] = {}
        thumbnails.ready.connect(self._on_thumbnail)
        self.retranslate()

    def retranslate(self) -> None:
        self._headers = (self.tr("Receipt"), self.tr("Date"), self.tr("Vendor"), self.tr("Total"),
                         self.tr("Currency"), self.tr("Category"), self.tr("Status"), self.tr("Way in"),
                         self.tr("Source"), self.tr("Duplicate of"))  # fmt: skip
        self.statuses = {"new": self.tr("new"), "to check": self.tr("to check"),
                         "checked": self.tr("checked"), "exported": self.tr("exported"),
                         "duplicate": self.tr("duplicate")}  # fmt: skip
        self.ways_in = {
            "viewer": self.tr("viewer"), "camera": self.tr("camera"), "clipboard": self.tr("clipboard"),
            "batch": self.tr("batch"), "scanner": self.tr("scanner"), "scan": self.tr("scan command"),
            "watch": self.tr("watched folder"), "device": self.tr("device command"),
            "import": self.tr("imported batch"),
        }  # fmt: skip
        self.reasons = {"same file": self.tr("same file"), "same image": self.tr("same image"),
                        "same fields": self.tr("same fields"), "by hand": self.tr("by hand")}  # fmt: skip
        if self._rows:
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)

    # Rows ---------------------------------------------------------------------------------------
    def set_rows(self, rows: Sequence[LibraryRow], flags: dict[int, DuplicateFlag]) -> None:
        self.beginResetModel()
        self._rows, self._flags = list(rows), dict(flags)
        self._row_of = {row.id: n for n, row in enumerate(self._rows)}
        self.endResetModel()

    @property
    def rows(self) -> list[LibraryRow]:
        return self._rows

    def row_of(self, receipt_id: int) -> int | None:
        return self._row_of.get(receipt_id)

    def flag(self, receipt_id: int) -> DuplicateFlag | None:
        return self._flags.get(receipt_id)

    # Qt -----------------------------------------------------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's default argument)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self._headers[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        row, column = self._rows[index.row()], COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, column)
        if role == Qt.ItemDataRole.DecorationRole and column == "receipt":
            return self.thumbnails.image(row.id)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, column)
        if role == SORT_ROLE:
            return _sort_key(row, column, self._flags.get(row.id))
        if role == ID_ROLE:
            return row.id
        if role == ROW_ROLE:
            return row
        if role == Qt.ItemDataRole.TextAlignmentRole and column == "total":
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and column == "duplicate" and row.id in self._flags:
            return QBrush(readable(FLAG_COLOUR))
        return None

    def _display(self, row: LibraryRow, column: str) -> str:
        if column == "receipt":
            return f"#{row.id}"
        if column == "status":
            return self.statuses.get(row.status, row.status)
        if column == "way_in":
            return self.ways_in.get(row.way_in, row.way_in)
        if column == "source":
            name = Path(row.source).name
            return self.tr("{0}, page {1}").format(name, row.page) if row.pages > 1 or row.page > 1 else name
        if column == "duplicate":
            flag = self._flags.get(row.id)
            if flag is None:
                return ""
            reason = self.reasons.get(flag.reason, flag.reason)
            return "\u2691 " + self.tr("#{0} ({1})").format(flag.original_id, reason)
        if column == "total":
            return row.total_text
        return str(getattr(row, column))

    def _tooltip(self, row: LibraryRow, column: str) -> str | None:
        flag = self._flags.get(row.id)
        if column == "duplicate" and flag is not None:
            text = self.tr("Possibly the same receipt as #{0} ({1}): {2}")
            return text.format(flag.original_id, flag.original_path, flag.detail)
        lines = [row.source]
        if row.tags:
            lines.append(self.tr("Tags: {0}").format(", ".join(row.tags)))
        if row.note:
            lines.append(row.note)
        if row.exports:
            lines.append(self.tr("Exported in: {0}").format(", ".join(row.exports)))
        return "\n".join(lines)

    def _on_thumbnail(self, receipt_id: int) -> None:
        row = self._row_of.get(receipt_id)
        if row is not None:
            index = self.index(row, 0)
            self.dataChanged.emit(index, index, [Qt.ItemDataRole.DecorationRole])


def _sort_key(row: LibraryRow, column: str, flag: DuplicateFlag | None) -> float | str:
    """Numbers as floats (missing: below every number), dates as ISO text, text case-folded."""
    if column == "receipt":
        return float(row.id)
    if column == "total":
        return float(row.total) if row.total is not None else float("-inf")
    if column == "source":
        return f"{Path(row.source).name.casefold()}\0{row.page:06d}"
    if column == "duplicate":
        return float(flag.original_id) if flag is not None else -1.0
    return str(getattr(row, column)).casefold()
