"""Undo/redo of line and field edits: one QUndoStack per shown page, shared by the lines and fields."""

from __future__ import annotations

from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction, QKeySequence, QUndoCommand, QUndoStack


class _Edit(QUndoCommand):
    """Set a value; undo sets the one before (each through ``apply``, which also stores it)."""

    def __init__(self, text: str, apply: Callable[[str], None], old: str, new: str) -> None:
        super().__init__(text)
        self._apply, self._old, self._new = apply, old, new

    def redo(self) -> None:
        self._apply(self._new)

    def undo(self) -> None:
        self._apply(self._old)


def push_line_edit(stack: QUndoStack, apply: Callable[[str], None], index: int, old: str, new: str) -> None:
    """Push (and do) the edit of line ``index``; the Edit menu names it "Undo edit of line N"."""
    text = QCoreApplication.translate("EditHistory", "edit of line {0}").format(index + 1)
    stack.push(_Edit(text, apply, old, new))


def push_field_edit(stack: QUndoStack, apply: Callable[[str], None], label: str, old: str, new: str) -> None:
    """Push (and do) the edit of a field (``label``: its name for people)."""
    text = QCoreApplication.translate("EditHistory", "edit of {0}").format(label)
    stack.push(_Edit(text, apply, old, new))


class _Command(QUndoCommand):
    """Any change with its own undo (a review's accept or correction that undoing removes)."""

    def __init__(self, text: str, do: Callable[[], None], undo: Callable[[], None]) -> None:
        super().__init__(text)
        self._do, self._undo = do, undo

    def redo(self) -> None:
        self._do()

    def undo(self) -> None:
        self._undo()


def push_command(stack: QUndoStack, text: str, do: Callable[[], None], undo: Callable[[], None]) -> None:
    """Push (and do) a change; ``text`` names it in the Edit menu ("Undo <text>")."""
    stack.push(_Command(text, do, undo))


class HistoryActions(QObject):
    """Edit > Undo (Ctrl+Z) and Redo (Ctrl+Shift+Z, Ctrl+Y), named after the edit they undo or redo."""

    def __init__(self, stack: QUndoStack, parent: QObject) -> None:
        super().__init__(parent)
        self._stack = stack
        self.undo = QAction(parent)
        self.undo.setShortcuts([QKeySequence("Ctrl+Z")])
        self.undo.triggered.connect(lambda: self._stack.undo())
        self.redo = QAction(parent)
        self.redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.redo.triggered.connect(lambda: self._stack.redo())
        self._connect(stack)
        self.retranslate()

    def set_stack(self, stack: QUndoStack) -> None:
        """Undo and Redo act on ``stack`` from now on (the Batch tab's review has its own)."""
        if stack is self._stack:
            return
        for signal in (self._stack.canUndoChanged, self._stack.canRedoChanged, self._stack.indexChanged):
            signal.disconnect(self.retranslate)
        self._stack = stack
        self._connect(stack)
        self.retranslate()

    def _connect(self, stack: QUndoStack) -> None:
        for signal in (stack.canUndoChanged, stack.canRedoChanged, stack.indexChanged):
            signal.connect(self.retranslate)

    def retranslate(self) -> None:
        stack = self._stack
        if not shiboken6.isValid(stack) or not shiboken6.isValid(self.undo):  # the window is going
            return
        undo, redo = stack.undoText(), stack.redoText()
        self.undo.setText(self.tr("&Undo {0}").format(undo) if undo else self.tr("&Undo"))
        self.redo.setText(self.tr("&Redo {0}").format(redo) if redo else self.tr("&Redo"))
        self.undo.setEnabled(stack.canUndo())
        self.redo.setEnabled(stack.canRedo())
