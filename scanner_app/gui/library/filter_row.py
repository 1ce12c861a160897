"""The Library tab's filters: vendor, date range, amount range, currency, category, tag, status, way in,
and "duplicates to decide". Text as typed; the search turns it into filters (and names a bad one)."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QLineEdit, QWidget

from scanner_app.core.library.receipts import STATUSES
from scanner_app.gui.library.search import SearchState

WAYS_IN = ("viewer", "camera", "clipboard", "batch", "scanner", "scan", "watch", "device", "import")
TEXT_FIELDS = ("vendor", "date_from", "date_to", "amount_min", "amount_max", "currency", "tag")
ERROR_STYLE = "QLineEdit { border: 1px solid #c62828; }"


class FilterRow(QWidget):
    """``edited()`` on any change; ``apply_to(state)`` / ``show_state(state)`` read and set the fields."""

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.edits: dict[str, QLineEdit] = {}
        placeholders = {
            "vendor": self.tr("Vendor"), "date_from": self.tr("From YYYY-MM-DD"),
            "date_to": self.tr("To YYYY-MM-DD"), "amount_min": self.tr("Total from"),
            "amount_max": self.tr("Total to"), "currency": self.tr("Currency"), "tag": self.tr("Tag"),
        }  # fmt: skip
        widths = {"date_from": 120, "date_to": 120, "amount_min": 80, "amount_max": 80, "currency": 70}
        for name in TEXT_FIELDS:
            edit = QLineEdit(self)
            edit.setPlaceholderText(placeholders[name])
            edit.setClearButtonEnabled(True)
            if name in widths:
                edit.setMaximumWidth(widths[name])
            edit.textChanged.connect(lambda *_: self.edited.emit())
            self.edits[name] = edit
        self.category = self._combo(self.tr("Any category"), [])
        self.status = self._combo(self.tr("Any status"), [(s, s) for s in STATUSES])
        self.way_in = self._combo(self.tr("Any way in"), [(w, w) for w in WAYS_IN])
        self.duplicates_only = QCheckBox(self.tr("Duplicates to decide"), self)
        self.duplicates_only.toggled.connect(lambda *_: self.edited.emit())
        row.addWidget(QLabel(self.tr("Filters:"), self))
        for name in ("vendor", "date_from", "date_to", "amount_min", "amount_max", "currency"):
            row.addWidget(self.edits[name])
        row.addWidget(self.category)
        row.addWidget(self.edits["tag"])
        row.addWidget(self.status)
        row.addWidget(self.way_in)
        row.addWidget(self.duplicates_only)
        row.addStretch(1)

    def _combo(self, any_text: str, items: list[tuple[str, str]]) -> QComboBox:
        combo = QComboBox(self)
        combo.addItem(any_text, "")
        for label, value in items:
            combo.addItem(label, value)
        combo.currentIndexChanged.connect(lambda *_: self.edited.emit())
        return combo

    def set_labels(self, statuses: dict[str, str], ways_in: dict[str, str]) -> None:
        """The status and way-in names in the UI language."""
        for combo, names in ((self.status, statuses), (self.way_in, ways_in)):
            for n in range(1, combo.count()):
                combo.setItemText(n, names.get(str(combo.itemData(n)), str(combo.itemData(n))))

    def set_categories(self, names: tuple[str, ...]) -> None:
        """The library's categories (the one chosen stays chosen)."""
        chosen = self.category.currentData()
        if tuple(self.category.itemData(n) for n in range(1, self.category.count())) == names:
            return
        self.category.blockSignals(True)
        while self.category.count() > 1:
            self.category.removeItem(1)
        for name in names:
            self.category.addItem(name, name)
        self.category.setCurrentIndex(max(0, self.category.findData(chosen)))
        self.category.blockSignals(False)

    def apply_to(self, state: SearchState) -> SearchState:
        values: dict[str, str] = {name: edit.text() for name, edit in self.edits.items()}
        for name, combo in (("category", self.category), ("status", self.status), ("way_in", self.way_in)):
            values[name] = str(combo.currentData() or "")
        return replace(state, **values, duplicates_only=self.duplicates_only.isChecked())

    def show_state(self, state: SearchState) -> None:
        """Show ``state``'s filters (no ``edited`` for each field set)."""
        self.blockSignals(True)
        for name, edit in self.edits.items():
            edit.setText(str(getattr(state, name)))
        for combo, value in ((self.category, state.category), (self.status, state.status),
                             (self.way_in, state.way_in)):  # fmt: skip
            found = combo.findData(value)
            if found < 0 and value:  # a category this library does not have (yet)
                combo.addItem(value, value)
                found = combo.count() - 1
            combo.setCurrentIndex(max(0, found))
        self.duplicates_only.setChecked(state.duplicates_only)
        self.blockSignals(False)

    def mark_error(self, name: str | None, message: str = "") -> None:
        """Outline the field that cannot be read (None: none)."""
        for field_name, edit in self.edits.items():
            bad = field_name == name
            edit.setStyleSheet(ERROR_STYLE if bad else "")
            edit.setToolTip(message if bad else "")
