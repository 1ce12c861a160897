"""The Library tab's search: a box that answers as one types (``changed`` once typing pauses for
DEBOUNCE_MS), the filters below it and the saved searches beside it."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QPushButton, QVBoxLayout, QWidget

from scanner_app.gui.library.filter_row import FilterRow
from scanner_app.gui.library.saved_searches import SavedSearches
from scanner_app.gui.library.search import SearchState

DEBOUNCE_MS = 200


class SearchBar(QWidget):
    """``state()`` is the search on screen; ``changed(SearchState)`` after an edit settles, at once
    for ``set_state`` and a saved search chosen."""

    changed = Signal(object)  # SearchState

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        self.query = QLineEdit(self)
        self.query.setPlaceholderText(self.tr("Search the receipts: words, parts of numbers, 咖啡..."))
        self.query.setClearButtonEnabled(True)
        self.query.textChanged.connect(self._on_edited)
        self.filters_button = QPushButton(self.tr("Filters"), self)
        self.filters_button.setCheckable(True)
        self.saved = SavedSearches(self)
        self.saved.chosen.connect(self.set_state)
        top.addWidget(self.query, 1)
        top.addWidget(self.filters_button)
        top.addWidget(self.saved)
        layout.addLayout(top)
        self.filters = FilterRow(self)
        self.filters.edited.connect(self._on_edited)
        self.filters.setVisible(False)
        self.filters_button.toggled.connect(self.filters.setVisible)
        layout.addWidget(self.filters)
        self._timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._timer.timeout.connect(self._emit)

    def state(self) -> SearchState:
        return self.filters.apply_to(replace(SearchState(), query=self.query.text()))

    def set_state(self, state: SearchState) -> None:
        """Show ``state`` and search for it now."""
        self.query.blockSignals(True)
        self.query.setText(state.query)
        self.query.blockSignals(False)
        self.filters.show_state(state)
        if state != replace(SearchState(), query=state.query):
            self.filters_button.setChecked(True)
        self._emit()

    def _on_edited(self) -> None:
        self._timer.start()  # restarted by each key: one search once typing pauses

    def _emit(self) -> None:
        self._timer.stop()
        state = self.state()
        self.saved.set_current(state)
        self.changed.emit(state)
