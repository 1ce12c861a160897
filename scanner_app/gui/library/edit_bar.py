"""Edits of the selected receipts, all at once: their category, tags and status. The bar only asks;
``edit_requested(kind, value)`` says what (the panel edits the library off the GUI thread)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QHBoxLayout, QInputDialog, QLabel, QMenu, QPushButton, QToolButton, QWidget

from scanner_app.core.library.receipts import STATUSES


def split_tags(text: str) -> list[str]:
    """Tags typed with commas between them."""
    return [t.strip() for t in text.split(",") if t.strip()]


class EditBar(QWidget):
    """``edit_requested(kind, value)``: kind "category" (a name, or "" for none), "add_tags" and
    "remove_tags" (a list), "status" (one of STATUSES)."""

    edit_requested = Signal(str, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.count_label = QLabel(self)
        self.category_button = self._menu_button(self.tr("Category"))
        self.category_menu = self.category_button.menu()
        self.add_tag_button = QPushButton(self.tr("Add tag..."), self)
        self.add_tag_button.clicked.connect(lambda: self._ask_tags("add_tags", self.tr("Add tags")))
        self.remove_tag_button = QPushButton(self.tr("Remove tag..."), self)
        self.remove_tag_button.clicked.connect(lambda: self._ask_tags("remove_tags", self.tr("Remove tags")))
        self.status_button = self._menu_button(self.tr("Status"))
        self.statuses: dict[str, str] = {s: s for s in STATUSES}
        self.status_button.menu().aboutToShow.connect(self._fill_statuses)
        for widget in (self.count_label, self.category_button, self.add_tag_button, self.remove_tag_button,
                       self.status_button):  # fmt: skip
            row.addWidget(widget)
        row.addStretch(1)
        self._categories: tuple[str, ...] = ()
        self.category_menu.aboutToShow.connect(self._fill_categories)
        self.set_selected(0)

    def _menu_button(self, text: str) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        button.setMenu(QMenu(button))
        return button

    def set_selected(self, count: int) -> None:
        self.count_label.setText(self.tr("%n selected:", "", count) if count else "")
        for widget in (self.category_button, self.add_tag_button, self.remove_tag_button, self.status_button):
            widget.setEnabled(count > 0)

    def set_categories(self, names: tuple[str, ...]) -> None:
        self._categories = names

    def _fill_categories(self) -> None:
        menu = self.category_menu
        menu.clear()
        for name in self._categories:
            self._add(menu, name, "category", name)
        menu.addSeparator()
        self._add(menu, self.tr("No category"), "category", "")

    def _fill_statuses(self) -> None:
        menu = self.status_button.menu()
        menu.clear()
        for status in STATUSES:
            self._add(menu, self.statuses.get(status, status), "status", status)

    def _add(self, menu: QMenu, text: str, kind: str, value: str) -> QAction:
        action = menu.addAction(text)
        action.triggered.connect(lambda: self.edit_requested.emit(kind, value))
        return action

    def _ask_tags(self, kind: str, title: str) -> None:
        text, ok = QInputDialog.getText(self, title, self.tr("Tags, separated by commas:"))
        tags = split_tags(text) if ok else []
        if tags:
            self.edit_requested.emit(kind, tags)
