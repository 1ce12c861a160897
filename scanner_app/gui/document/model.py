"""The document on screen: its page result, hovered line and selection, shared by every view.

Views subscribe to the signals and call the setters; nobody else holds this state. Edits are
applied here at once (views show them) and written to the batch store on one writer thread, in
order; ``line_edited`` follows once the store has them. Exports run on that same thread
(``after_writes``), so an export always holds every edit made before it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QImage, QUndoStack

from scanner_app.core.results import PageResult
from scanner_app.core.store.batch_store import BatchStore
from scanner_app.gui.background import Background, Done
from scanner_app.gui.document.edit_history import push_line_edit


@dataclasses.dataclass(frozen=True)
class StoredPage:
    """Where a shown page lives in a batch store (edits go there)."""

    store: BatchStore
    page_id: int


class DocumentModel(QObject):
    """The page shown, its image, the hovered line and the selected lines."""

    page_changed = Signal()  # a new page/result (or none) is shown
    image_changed = Signal()  # a new image (the result may follow later)
    hovered_changed = Signal(int)  # line index, -1 for none
    selection_changed = Signal(list)  # list[int] of line indices
    line_changed = Signal(int)  # a line's text changed on screen (store write may still be pending)
    line_edited = Signal(int, str)  # (index, new text), after the store was updated
    field_edited = Signal(str, str)  # (field name, value), after the store was updated
    edit_failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._page: PageResult | None = None
        self._source: Path | None = None
        self._name = ""
        self._image = QImage()
        self._image_scale = 1.0
        self._stored: StoredPage | None = None
        self._hovered = -1
        self._selection: list[int] = []
        self._read: dict[int, tuple[str, float]] = {}  # edited line -> what the server read (text, score)
        self._writer = Background(self, threads=1)  # edits reach the store in the order they were made
        self.undo_stack = QUndoStack(self)  # the shown page's line and field edits (Ctrl+Z, Ctrl+Shift+Z)

    # State ----------------------------------------------------------------------------------
    def server_reading(self, index: int) -> tuple[str, float] | None:
        """(text, score) the server read for a line edited since the page was shown; None if unedited."""
        return self._read.get(index)

    @property
    def page(self) -> PageResult | None:
        """The result shown (lines in reading order, edits applied), or None."""
        return self._page

    @property
    def source(self) -> Path | None:
        """The file shown (for pasted/captured images, the copy kept in the session folder)."""
        return self._source

    @property
    def name(self) -> str:
        """A short name for the document (file name or capture name)."""
        return self._name

    @property
    def image(self) -> QImage:
        """The page image (possibly downscaled for display; see ``image_scale``)."""
        return self._image

    @property
    def image_scale(self) -> float:
        """Original pixels per displayed image pixel (result boxes are in original pixels)."""
        return self._image_scale

    @property
    def stored(self) -> StoredPage | None:
        return self._stored

    @property
    def hovered(self) -> int:
        return self._hovered

    @property
    def selection(self) -> list[int]:
        return list(self._selection)

    def line_count(self) -> int:
        return len(self._page.lines) if self._page else 0

    def selected_text(self) -> str:
        """The selected lines' text, in reading order, one per row."""
        if self._page is None:
            return ""
        return "\n".join(self._page.lines[i].text for i in sorted(self._selection))

    def all_text(self) -> str:
        return self._page.text if self._page else ""

    # Changes --------------------------------------------------------------------------------
    def set_image(self, image: QImage, scale: float, name: str, source: Path | None) -> None:
        """Show a new image; the previous result, hover and selection are cleared."""
        self._image, self._image_scale, self._name, self._source = image, scale, name, source
        self._page, self._stored, self._read = None, None, {}
        self.undo_stack.clear()
        self._reset_pointers()
        self.image_changed.emit()
        self.page_changed.emit()

    def set_result(self, page: PageResult | None, stored: StoredPage | None = None) -> None:
        """Show a result for the current image."""
        self._page, self._stored, self._read = page, stored, {}
        self.undo_stack.clear()
        self._reset_pointers()
        self.page_changed.emit()

    def _reset_pointers(self) -> None:
        if self._hovered != -1:
            self._hovered = -1
            self.hovered_changed.emit(-1)
        if self._selection:
            self._selection = []
            self.selection_changed.emit([])

    def select(self, indices: Sequence[int]) -> None:
        """Select these lines (others are deselected); out-of-range indices are ignored."""
        wanted = sorted({i for i in indices if 0 <= i < self.line_count()})
        if wanted != self._selection:
            self._selection = wanted
            self.selection_changed.emit(list(wanted))

    def set_hovered(self, index: int) -> None:
        index = index if 0 <= index < self.line_count() else -1
        if index != self._hovered:
            self._hovered = index
            self.hovered_changed.emit(index)

    def edit_line(self, index: int, text: str) -> None:
        """Change a line's text: shown at once, persisted to the batch store, reaches exports; undoable."""
        if self._page is None or not 0 <= index < len(self._page.lines):
            return
        old = self._page.lines[index].text
        if old != text:
            push_line_edit(self.undo_stack, lambda value: self._set_line(index, value), index, old, text)

    def _set_line(self, index: int, text: str) -> None:
        if self._page is None or self._page.lines[index].text == text:
            return
        lines = list(self._page.lines)
        read = self._read.setdefault(index, (lines[index].text, lines[index].score))
        if text == read[0]:  # back to what the server read (undo): no longer an edit
            del self._read[index]
            lines[index] = dataclasses.replace(lines[index], text=text, score=read[1])
        else:
            lines[index] = dataclasses.replace(lines[index], text=text, score=1.0)  # a person read it
        self._page = dataclasses.replace(self._page, lines=tuple(lines))
        self.line_changed.emit(index)
        if self._stored is None:
            self.line_edited.emit(index, text)
            return
        store, page_id = self._stored.store, self._stored.page_id
        self._write(lambda: store.edit_line(page_id, index, text), lambda: self.line_edited.emit(index, text))

    def edit_field(self, name: str, value: str, receipt: int = 0) -> None:
        """Store a field set by hand for the page shown (reopening and every export show it);
        ``receipt``: 0 for the page, 1-based for one receipt of a page with several."""
        if self._stored is None:
            self.field_edited.emit(name, value)
            return
        store, page_id = self._stored.store, self._stored.page_id
        done = lambda: self.field_edited.emit(name, value)  # noqa: E731
        self._write(lambda: store.edit_field(page_id, name, value, receipt), done)

    def _write(self, write: Callable[[], Any], done: Callable[[], None]) -> None:
        def reported(_: Any, error: BaseException | None) -> None:
            if error is not None:  # shown in the status bar; the edit stays on screen
                self.edit_failed.emit(f"{type(error).__name__}: {error}")
            else:
                done()

        self._writer.run(write, reported)

    def after_writes(self, call: Callable[[], Any], on_done: Done) -> None:
        """Run ``call`` (an export) off the GUI thread once every edit made so far is stored."""
        self._writer.run(call, on_done)

    def wait_for_writes(self, msecs: int = 10_000) -> bool:
        """Block until pending edits are on disk (shutdown)."""
        return self._writer.wait(msecs)
