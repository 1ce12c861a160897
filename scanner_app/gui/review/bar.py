"""The Batch tab's review row: where the clerk is ("3 of 17 to check"), the field to look at, its
value to accept (Enter) or overwrite (type, then Enter), and the receipt's "checked" mark."""

from __future__ import annotations

import math
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from scanner_app.core.batch.review import ReviewItem, ReviewQueue
from scanner_app.gui.fields.flag_text import flag_sentence


class ReviewBar(QWidget):
    """Renders a ReviewQueue; emits what the clerk asks for (the panel acts on it)."""

    step_requested = Signal(int)  # +1 next, -1 previous
    accept_requested = Signal()
    correct_requested = Signal(str)
    checked_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.position = QLabel(self)
        self.position.setMinimumWidth(120)
        layout.addWidget(self.position)
        self.previous_button = self._button(self.tr("Previous"), lambda: self.step_requested.emit(-1), layout)
        self.next_button = self._button(self.tr("Next to check"), lambda: self.step_requested.emit(1), layout)
        self.what = QLabel(self)
        layout.addWidget(self.what, 1)
        self.value = QLineEdit(self)
        self.value.setPlaceholderText(self.tr("Type the right value, Enter stores it"))
        self.value.setMinimumWidth(180)
        self.value.returnPressed.connect(self._on_return)
        layout.addWidget(self.value)
        self.accept_button = self._button(self.tr("Accept"), self.accept_requested.emit, layout)
        self.accept_button.setToolTip(self.tr("The value is right as read (Enter)"))
        self.checked_button = self._button(self.tr("Checked"), self.checked_requested.emit, layout)
        self.checked_button.setCheckable(True)
        self.checked_button.setToolTip(self.tr("Mark the selected receipt as checked (Ctrl+M)"))
        self._item: ReviewItem | None = None

    def _button(self, text: str, slot, layout: QHBoxLayout) -> QPushButton:
        button = QPushButton(text, self)
        button.clicked.connect(lambda: slot())
        layout.addWidget(button)
        return button

    def show_queue(self, queue: ReviewQueue, loaded: bool) -> None:
        """Show the queue's current item (keeps what is being typed when it is the same item)."""
        item = queue.current
        if not loaded:
            self.position.setText(self.tr("No receipts yet"))
        elif item is None:
            self.position.setText(self.tr("Nothing to check"))
        else:
            self.position.setText(self.tr("{0} of {1} to check").format(queue.position + 1, queue.remaining))
        for widget in (self.previous_button, self.next_button, self.accept_button, self.value):
            widget.setEnabled(item is not None)
        if item is None:
            self.what.setText("")
            self.value.clear()
        elif item != self._item:
            receipt = queue.receipt(item.receipt)
            source, number = (receipt.source, receipt.receipt) if receipt else ("", 0)
            self.what.setText(describe(item, source, number))
            self.what.setToolTip(source)
            self.value.setText(item.value)
            self.value.selectAll()
        self._item = item

    def focus_value(self) -> None:
        """Ready for the clerk's keys: Enter accepts, typing replaces the selected value."""
        self.value.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.value.selectAll()

    def _on_return(self) -> None:
        if self._item is None:
            return
        text = self.value.text().strip()
        if text == self._item.value:
            self.accept_requested.emit()
        else:
            self.correct_requested.emit(text)


def describe(item: ReviewItem, source: str, receipt: int) -> str:
    """The item for people, e.g. "r.png, receipt 2: Total 9.00: low confidence (0.62)"."""
    where = Path(source).name
    if receipt:
        where = QCoreApplication.translate("ReviewBar", "{0}, receipt {1}").format(where, receipt)
    why = "; ".join(flag_sentence(f) for f in item.flags)
    if "low_confidence" in item.flags:
        why += f" ({math.floor(item.confidence * 100) / 100:.2f})"  # rounded down: 0.7995 is not 0.80
    value = item.value or QCoreApplication.translate("ReviewBar", "(nothing read)")
    text = QCoreApplication.translate("ReviewBar", "{0}: {1} {2}: {3}")
    return text.format(where, field_label(item.name), value, why)


_LABELS = {"vendor": "Vendor", "date": "Date", "number": "Number", "net": "Net", "tax": "Tax",
           "total": "Total", "currency": "Currency"}  # fmt: skip


def field_label(name: str) -> str:
    """A sheet field's name for people, with the Fields tab's translations (FieldsModel.label)."""
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("FieldsModel", _LABELS[name]) if name in _LABELS else name
