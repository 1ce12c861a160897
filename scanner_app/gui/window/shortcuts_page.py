"""Help > Keyboard shortcuts: every action of the window with its keys, in the UI language."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QHeaderView, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget


def shortcut_rows(actions: Iterable[QAction]) -> list[tuple[str, str]]:
    """(what it does, its keys) for each action that has keys; menu accelerators (&) removed."""
    rows = []
    for action in actions:
        keys = ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts())
        if keys:
            rows.append((action.text().replace("&&", "\0").replace("&", "").replace("\0", "&"), keys))
    return rows


class ShortcutsPage(QDialog):
    """A two-column table: action, keys."""

    def __init__(self, rows: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        self.table = QTableWidget(len(rows), 2, self)
        self.table.setHorizontalHeaderLabels([self.tr("Action"), self.tr("Keys")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, (text, keys) in enumerate(rows):
            self.table.setItem(row, 0, QTableWidgetItem(text))
            self.table.setItem(row, 1, QTableWidgetItem(keys))
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.resizeColumnToContents(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        self.resize(520, 560)
