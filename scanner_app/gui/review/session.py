"""The Batch tab's review: a ReviewQueue over the batch store, its edits stored and undoable.

Every store read and write runs on one Background thread, in order (an edit, then the reload of
its file); the queue (scanner_app.core.batch.review) lives on the GUI thread and is replaced by what
comes back. Accepting or correcting a field stores it as a field edit (of the receipt: the page's
for its only document, ``receipt=K`` for receipt K of several); undo removes that edit, so the
field is back in the queue. The "checked" marks are stored per receipt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from scanner_app.core.batch.review import ReceiptKey, ReceiptReview, ReviewItem, ReviewQueue, load_reviews
from scanner_app.core.store.batch_store import BatchStore
from scanner_app.gui.document.edit_history import push_command


class ReviewSession(QObject):
    """``load(store)``, ``refresh(file_ids)``; ``accept()``, ``correct(value)``, ``set_checked``;
    ``changed`` after each update of ``queue``; ``failed(message)``."""

    changed = Signal()
    failed = Signal(str)
    sheet_written = Signal(object)  # Path

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        from scanner_app.gui.background import Background

        self._background = Background(self, threads=1)
        self._store: BatchStore | None = None
        self.queue = ReviewQueue()
        self.undo_stack = QUndoStack(self)
        self.loaded = False  # the store's receipts were read at least once

    @property
    def store(self) -> BatchStore | None:
        return self._store

    def load(self, store: BatchStore) -> None:
        """Read every receipt of ``store`` (a new or continued batch)."""
        if store is not self._store:
            self.undo_stack.clear()
            self.queue = ReviewQueue()
        self._store = store
        self._background.run(lambda: load_reviews(store), self._on_loaded)

    def refresh(self, file_ids: Iterable[int]) -> None:
        """Read these files' receipts again (they were just recognised)."""
        store, ids = self._store, list(file_ids)
        if store is not None and ids:
            self._background.run(lambda: load_reviews(store, ids), lambda r, e: self._on_files(r, e, ids))

    # The clerk's moves -----------------------------------------------------------------------
    def accept(self) -> bool:
        """The current field is right as read: stored as set by hand (it leaves the queue)."""
        item = self.queue.current
        return item is not None and self._set(item, item.value, self.tr("acceptance of {0}"))

    def correct(self, value: str) -> bool:
        """The current field reads ``value``: stored as a field edit."""
        item = self.queue.current
        return item is not None and self._set(item, value, self.tr("correction of {0}"))

    def set_checked(self, keys: Iterable[ReceiptKey], checked: bool) -> None:
        """Mark receipts as checked by a person (or not); kept in the store."""
        store, keys = self._store, list(keys)
        if store is None or not keys:
            return
        files = {r.file_id for r in self.queue.reviews if r.key in set(keys)}

        def call() -> list[ReceiptReview]:
            for page_id, receipt in keys:
                store.set_checked(page_id, receipt, checked)
            return load_reviews(store, files)

        self._background.run(call, lambda r, e: self._on_files(r, e, files))

    def write_sheet(self, path: Path) -> None:
        """The batch's reimbursement sheet (XLSX or CSV), edits applied, headers in the UI language,
        off the GUI thread."""
        from scanner_app.core.batch.review import write_batch_sheet
        from scanner_app.gui.i18n.core_text import sheet_headers

        store = self._store
        if store is None:
            self.failed.emit(self.tr("Nothing to export yet."))
            return

        def done(written: Path | None, error: BaseException | None) -> None:
            if error is not None:
                self.failed.emit(self.tr("Could not write {0}: {1}").format(path, error))
            else:
                self.sheet_written.emit(written)

        headers = sheet_headers()  # translated here, on the GUI thread
        self._background.run(lambda: write_batch_sheet(store, Path(path), headers), done)

    def wait(self, msecs: int = -1) -> bool:
        return self._background.wait(msecs)

    # Internals -------------------------------------------------------------------------------
    def _set(self, item: ReviewItem, value: str, what: str) -> bool:
        store = self._store
        receipt = self.queue.receipt(item.receipt)
        if store is None or receipt is None:
            return False
        # receipt 0: the page's only document (field_edits); K: receipt K of several (receipt_field_edits)
        page_id, number, file_id, name = item.receipt[0], receipt.receipt, receipt.file_id, item.name

        def write(call: Callable[[], None]) -> None:
            def run() -> list[ReceiptReview]:
                call()
                return load_reviews(store, [file_id])

            self._background.run(run, lambda r, e: self._on_files(r, e, [file_id]))

        from scanner_app.gui.review.bar import field_label

        push_command(
            self.undo_stack,
            what.format(field_label(name)),
            lambda: write(lambda: store.edit_field(page_id, name, value, receipt=number)),
            lambda: write(lambda: store.remove_field_edit(page_id, name, receipt=number)),
        )
        return True

    def _on_loaded(self, reviews: list[ReceiptReview] | None, error: BaseException | None) -> None:
        if error is not None:
            self.failed.emit(self.tr("The receipts could not be read: {0}").format(error))
            return
        self.queue.update(reviews or [])
        self.loaded = True
        self.changed.emit()

    def _on_files(self, reviews: list[ReceiptReview] | None, error: BaseException | None,
                  file_ids: Iterable[int]) -> None:  # fmt: skip
        if error is not None:
            self.failed.emit(self.tr("The review could not be stored: {0}").format(error))
            return
        self.queue.replace_files(reviews or [], file_ids)
        self.changed.emit()
