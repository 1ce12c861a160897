"""The review as the Batch tab's table shows it: the review queue walked in the table's order on
screen, the row of the receipt under review selected, checked marks set from the selected row, and
each file's receipts (vendor, date, total, what to check) in its row."""

from __future__ import annotations

from scanner_app.core.batch.review import by_file
from scanner_app.gui.batch.rows import RowBook
from scanner_app.gui.batch.table_model import BatchTableModel
from scanner_app.gui.batch.table_view import BatchTableView
from scanner_app.gui.review.bar import ReviewBar
from scanner_app.gui.review.session import ReviewSession


class BatchReviewRows:
    """Joins a ReviewSession and its ReviewBar to the batch table (its rows, view and model)."""

    def __init__(
        self,
        review: ReviewSession,
        bar: ReviewBar,
        book: RowBook,
        model: BatchTableModel,
        table: BatchTableView,
    ) -> None:
        self.review, self.bar, self.book, self.model, self.table = review, bar, book, model, table

    def step(self, delta: int = 1) -> None:
        """Go to the next (+1) or previous (-1) field to check, in the table's order as sorted on
        screen: its row selected, its value ready."""
        self.review.queue.set_order(self.table.shown_file_ids())
        item = self.review.queue.step(delta)
        self.show_queue()
        if item is not None:
            self._select_file(item.receipt)
            self.bar.focus_value()

    def toggle_checked(self) -> None:
        """Mark the selected file's receipts as checked, or clear the mark.

        On a page with several receipts, the one under review is marked when its file is selected."""
        file_id = self.table.current_file_id()
        if file_id is None:
            current = self.review.queue.current
            receipt = self.review.queue.receipt(current.receipt) if current else None
            file_id = receipt.file_id if receipt else None
        row = self.book.row_of(file_id) if file_id is not None else None
        review = self.book.rows[row].review if row is not None else None
        if review is None:
            return
        keys = [r.key for r in review.receipts]
        current = self.review.queue.current
        if current is not None and current.receipt in keys and len(keys) > 1:
            keys = [current.receipt]
        receipts = [r for r in review.receipts if r.key in keys]
        self.review.set_checked(keys, not all(r.checked for r in receipts))

    def on_changed(self) -> None:
        """The review read or wrote receipts: their rows repainted, the bar and the Checked button current."""
        changed = self.book.set_reviews(by_file(self.review.queue.reviews))
        self.model.rows_changed(changed)
        self.show_queue()
        self.show_checked_state()

    def show_queue(self) -> None:
        self.bar.show_queue(self.review.queue, self.review.loaded)

    def show_checked_state(self) -> None:
        """The Checked button follows the current row: enabled once its receipts are read, down once
        all of them are checked."""
        file_id = self.table.current_file_id()
        row = self.book.row_of(file_id) if file_id is not None else None
        review = self.book.rows[row].review if row is not None else None
        self.bar.checked_button.setEnabled(review is not None)
        self.bar.checked_button.setChecked(review is not None and review.checked == review.count > 0)

    def _select_file(self, key: tuple[int, int]) -> None:
        receipt = self.review.queue.receipt(key)
        row = self.book.row_of(receipt.file_id) if receipt is not None else None
        if row is not None:
            self.table.select_source_row(row)
