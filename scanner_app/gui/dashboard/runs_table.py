"""Finished runs side by side: a table model, and a view that shows the speed-up of two selected runs."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from .records import RunRecord, compare, ordered_for_speedup

_Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("label", "target", "concurrency", "throughput", "p50", "p95", "p99", "completed", "errors",
           "mismatches", "batch", "queue_compute", "utilisation", "stable")  # fmt: skip


def _models_text(record: RunRecord, what: str) -> str:
    if what == "batch":
        return " · ".join(f"{m.short_name} {m.avg_batch:.2f}" for m in record.models)
    return " · ".join(f"{m.short_name} {m.queue_ms:.0f}/{m.compute_ms:.0f}" for m in record.models)


class RunsTableModel(QAbstractTableModel):
    """One row per finished run; the label column is editable."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._records: list[RunRecord] = []
        self._headers = {
            "label": self.tr("Run"), "target": self.tr("Target"), "concurrency": self.tr("Concurrency"),
            "throughput": self.tr("Images/s"), "p50": self.tr("p50 ms"), "p95": self.tr("p95 ms"),
            "p99": self.tr("p99 ms"), "completed": self.tr("Completed"), "errors": self.tr("Errors"),
            "mismatches": self.tr("Golden mismatches"), "batch": self.tr("Avg batch"),
            "queue_compute": self.tr("Queue/compute ms"), "utilisation": self.tr("CPU/GPU %"),
            "stable": self.tr("Stable"),
        }  # fmt: skip

    @property
    def records(self) -> tuple[RunRecord, ...]:
        return tuple(self._records)

    def add(self, record: RunRecord) -> None:
        row = len(self._records)
        self.beginInsertRows(QModelIndex(), row, row)
        self._records.append(record)
        self.endInsertRows()

    def clear(self) -> None:
        self.beginResetModel()
        self._records.clear()
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._records)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self._headers[COLUMNS[section]]
        return str(section + 1)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        flags = super().flags(index)
        if index.isValid() and COLUMNS[index.column()] == "label":
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        record, column = self._records[index.row()], COLUMNS[index.column()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return self._text(record, column)
        if role == Qt.ItemDataRole.ForegroundRole and column in ("errors", "mismatches"):
            count = record.error_count if column == "errors" else record.result.mismatches
            return Qt.GlobalColor.red if count else None
        if role == Qt.ItemDataRole.ToolTipRole and column == "errors" and record.result.errors:
            return "\n".join(f"{n} x {cause}" for cause, n in record.result.errors.items())
        if role == Qt.ItemDataRole.ToolTipRole:  # the whole text, should a narrow window elide it
            return self._text(record, column) or None
        if role == Qt.ItemDataRole.TextAlignmentRole and column not in ("label", "target"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def setData(self, index: _Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or COLUMNS[index.column()] != "label" or role != Qt.ItemDataRole.EditRole:
            return False
        text = str(value).strip()
        if not text:
            return False
        self._records[index.row()] = replace(self._records[index.row()], label=text)
        self.dataChanged.emit(index, index)
        return True

    def _text(self, record: RunRecord, column: str) -> str:
        r = record.result
        values = {
            "label": record.label, "target": r.target, "concurrency": str(r.concurrency),
            "throughput": f"{r.throughput:.2f}", "p50": f"{r.p50_ms:.0f}", "p95": f"{r.p95_ms:.0f}",
            "p99": f"{r.p99_ms:.0f}", "completed": str(r.completed), "errors": str(record.error_count),
            "mismatches": str(r.mismatches), "stable": self.tr("yes") if r.stable else self.tr("no"),
            "batch": _models_text(record, "batch"), "queue_compute": _models_text(record, "queue"),
            "utilisation": "" if record.mean_utilisation is None
            else f"{record.utilisation_kind} {record.mean_utilisation:.0f}",
        }  # fmt: skip
        return values[column]


class RunsView(QWidget):
    """The runs table and, when two rows are selected, their speed-up ratio."""

    selection_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = RunsTableModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # "Triton c=4 … 2 inst" keeps both ends
        for signal in (self.model.rowsInserted, self.model.dataChanged, self.model.modelReset):
            signal.connect(lambda *_: self.table.resizeColumnsToContents())
        self.comparison = QLabel(self.tr("Select two runs to compare them."))
        self.comparison.setWordWrap(True)
        self.comparison.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        layout.addWidget(self.comparison)
        self.table.selectionModel().selectionChanged.connect(self._on_selection_changed)

    def selected_records(self) -> list[RunRecord]:
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()})
        return [self.model.records[row] for row in rows]

    def select_rows(self, rows: list[int]) -> None:
        self.table.clearSelection()
        mode = self.table.selectionMode()
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.MultiSelection)
        for row in rows:
            self.table.selectRow(row)
        self.table.setSelectionMode(mode)

    def _on_selection_changed(self, *_: object) -> None:
        records = self.selected_records()
        if len(records) != 2:
            self.comparison.setText(self.tr("Select two runs to compare them."))
        else:
            self.comparison.setText(self.comparison_text(records))
        self.selection_changed.emit()

    def comparison_text(self, records: list[RunRecord]) -> str:
        """ "A vs B: 3.10x the throughput (2.9 vs 0.9 images/s) · p50 410 vs 1290 ms · p99 ..."."""
        reference, candidate = ordered_for_speedup(records)
        c = compare(reference, candidate)
        a, b = reference.result, candidate.result
        speedup = f"{c.throughput_ratio:.2f}x" if c.throughput_ratio is not None else self.tr("n/a")
        return self.tr(
            "{0} vs {1}: {2} the throughput ({3:.2f} vs {4:.2f} images/s) · p50 {5:.0f} vs {6:.0f} ms"
            " · p99 {7:.0f} vs {8:.0f} ms"
        ).format(c.candidate, c.reference, speedup, b.throughput, a.throughput, b.p50_ms, a.p50_ms,
                 b.p99_ms, a.p99_ms)  # fmt: skip
