"""A page's invoice fields as a Qt table model (field, value, confidence, flags); values editable."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor

from scanner_app.core.fields.model import (
    LOW_CONFIDENCE,  # one amber threshold for lines and fields
    REQUIRED_FIELDS,
    InvoiceFields,
)
from scanner_app.gui.fields.flag_text import flag_sentence
from scanner_app.gui.theme import tinted

NAME, VALUE, CONFIDENCE, FLAGS = range(4)
LINES_ROLE = Qt.ItemDataRole.UserRole + 1  # tuple of the page line indices a field came from
FIELD_ROLE = Qt.ItemDataRole.UserRole + 2  # the field's canonical name
FLAGGED = QBrush(QColor(255, 224, 178))  # amber: needs a person's look
_Index = QModelIndex | QPersistentModelIndex


class FieldsTableModel(QAbstractTableModel):
    """One row per field found (and per required field missing); flagged rows are coloured."""

    value_edited = Signal(str, str)  # (field name, new value): the panel applies it

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._fields = InvoiceFields()
        self._names: list[str] = []

    @property
    def fields(self) -> InvoiceFields:
        return self._fields

    def set_fields(self, fields: InvoiceFields) -> None:
        self.beginResetModel()
        self._fields = fields
        present = fields.names()
        self._names = present + [n for n in REQUIRED_FIELDS if n not in present]
        self.endResetModel()

    def label(self, name: str) -> str:
        """A field's name for people (translated); unknown names as they are."""
        labels = {
            "vendor": self.tr("Vendor"), "address": self.tr("Address"), "number": self.tr("Number"),
            "date": self.tr("Date"), "net": self.tr("Net"), "tax": self.tr("Tax"),
            "tax_rate": self.tr("Tax rate"),
            "total": self.tr("Total"), "currency": self.tr("Currency"), "rounding": self.tr("Rounding"),
            "invoice_code": self.tr("Invoice code"), "total_words": self.tr("Total in words"),
            "buyer_name": self.tr("Buyer"), "buyer_tax_id": self.tr("Buyer tax ID"),
            "seller_name": self.tr("Seller"), "seller_tax_id": self.tr("Seller tax ID"),
        }  # fmt: skip
        return labels.get(name, name)

    def field_flags(self, name: str) -> list[str]:
        """The page's flags of a field, plus "low_confidence" below the lines' amber threshold."""
        flags = self._fields.flags(name)
        field = self._fields.get(name)
        low = field is not None and field.value and not field.edited and field.confidence < LOW_CONFIDENCE
        return [*flags, "low_confidence"] if low and "low_confidence" not in flags else flags

    def flagged_count(self) -> int:
        """Fields (rows) that need a look."""
        return sum(1 for name in self._names if self.field_flags(name))

    def name_at(self, row: int) -> str:
        return self._names[row]

    def row_of(self, name: str) -> int:
        return self._names.index(name)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt API)
        return 0 if parent.isValid() else len(self._names)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 4

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return (self.tr("Field"), self.tr("Value"), self.tr("Confidence"), self.tr("Flags"))[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._names):
            return None
        name = self._names[index.row()]
        field = self._fields.get(name)
        flags = self.field_flags(name)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if index.column() == NAME:
                return self.label(name)
            if index.column() == VALUE:
                return field.value if field else ""
            if index.column() == CONFIDENCE:
                # Rounded down: a 0.795 field (amber) must not read "0.80" (the threshold).
                return f"{math.floor(field.confidence * 100 + 1e-9) / 100:.2f}" if field else ""
            return "; ".join(flag_sentence(flag) for flag in flags)
        if role == Qt.ItemDataRole.ToolTipRole:
            value = [field.value] if field and field.value and index.column() == VALUE else []
            sentences = [flag_sentence(flag) for flag in flags]
            messages = [c.message for c in self._fields.checks if name in c.fields and not c.ok]
            source = [self.tr("Read from: {0}").format(field.raw)] if field and field.raw else []
            return "\n".join([*value, *sentences, *messages, *source])
        if role == Qt.ItemDataRole.BackgroundRole and flags:
            return QBrush(tinted(FLAGGED.color()))  # a dark amber on a dark palette
        if role == LINES_ROLE:
            return tuple(field.lines) if field else ()
        if role == FIELD_ROLE:
            return name
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        base = super().flags(index)
        return base | Qt.ItemFlag.ItemIsEditable if index.column() == VALUE else base

    def setData(self, index: _Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or index.column() != VALUE or not index.isValid():
            return False
        name = self._names[index.row()]
        if str(value) == self._fields.value(name):
            return False
        self.value_edited.emit(name, str(value))
        return True
