"""Saved searches of the Library tab: a name for a search and its filters, kept in the settings.

``saved()`` / ``save(name, state)`` / ``remove(name)`` read and write the setting (one JSON object,
name -> search); ``SavedSearches`` is the row's combo box and its Save... and Delete buttons.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QInputDialog, QPushButton, QWidget

from scanner_app.gui.library.search import SearchState

SETTING = "library/saved_searches"


def saved() -> dict[str, SearchState]:
    """The saved searches by name, in the order they were saved (a damaged setting reads as none)."""
    try:
        data = json.loads(str(QSettings().value(SETTING, "{}") or "{}"))
    except ValueError:
        return {}
    out = {}
    for name, text in (data if isinstance(data, dict) else {}).items():
        try:
            out[str(name)] = SearchState.from_json(str(text))
        except (ValueError, TypeError):
            continue
    return out


def _write(searches: dict[str, SearchState]) -> None:
    QSettings().setValue(
        SETTING, json.dumps({n: s.to_json() for n, s in searches.items()}, ensure_ascii=False)
    )


def save(name: str, state: SearchState) -> None:
    searches = saved()
    searches[name] = state
    _write(searches)


def remove(name: str) -> None:
    searches = saved()
    if searches.pop(name, None) is not None:
        _write(searches)


class SavedSearches(QWidget):
    """A combo box of the saved searches; choosing one emits ``chosen(SearchState)``."""

    chosen = Signal(object)  # SearchState

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._current: SearchState = SearchState()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.combo = QComboBox(self)
        self.combo.setMinimumContentsLength(14)
        self.combo.activated.connect(self._on_activated)
        self.save_button = QPushButton(self.tr("Save search..."), self)
        self.save_button.clicked.connect(self._ask_name)
        self.delete_button = QPushButton(self.tr("Delete"), self)
        self.delete_button.setToolTip(self.tr("Delete the saved search chosen"))
        self.delete_button.clicked.connect(self._delete)
        for widget in (self.combo, self.save_button, self.delete_button):
            row.addWidget(widget)
        self.reload()

    def set_current(self, state: SearchState) -> None:
        """The search on screen now (what Save... saves)."""
        self._current = state

    def reload(self, select: str | None = None) -> None:
        self.combo.clear()
        self.combo.addItem(self.tr("Saved searches"), None)
        for name in saved():
            self.combo.addItem(name, name)
        self.combo.setCurrentIndex(max(0, self.combo.findData(select)) if select else 0)
        self.delete_button.setEnabled(self.combo.currentData() is not None)

    def save_as(self, name: str) -> None:
        name = name.strip()
        if name:
            save(name, self._current)
            self.reload(select=name)

    def choose(self, name: str) -> None:
        """Apply the saved search ``name`` (as if chosen in the combo box)."""
        state = saved().get(name)
        if state is not None:
            self.reload(select=name)
            self.chosen.emit(state)

    def _on_activated(self, index: int) -> None:
        name = self.combo.itemData(index)
        self.delete_button.setEnabled(name is not None)
        if name is not None:
            self.choose(str(name))

    def _ask_name(self) -> None:
        name, ok = QInputDialog.getText(self, self.tr("Save search"), self.tr("Name of this search:"))
        if ok:
            self.save_as(name)

    def _delete(self) -> None:
        name = self.combo.currentData()
        if name is not None:
            remove(str(name))
            self.reload()
