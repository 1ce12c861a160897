"""A person's review over a batch store's pages: corrected lines, fields set by hand, checked receipts.

A mixin of scanner_app.core.store.batch_store.BatchStore (these are its methods): it uses the store's
connection and its page reader.
"""

from __future__ import annotations

import time

from scanner_app.core.store.db import StoreDB
from scanner_app.core.store.records import PageRecord, record_id


class StoreEdits:
    """BatchStore's edit and checked-mark methods; every one is thread-safe and commits at once."""

    _db: StoreDB

    def page(self, page_id: int) -> PageRecord:
        raise NotImplementedError  # BatchStore's

    # Edits ----------------------------------------------------------------------------------
    def edit_line(self, page: PageRecord | int, line_index: int, new_text: str) -> PageRecord:
        """Record a correction of one line (the server's text is kept); the updated page.

        Editing a line back to the server's text removes the edit.
        """
        record = page if isinstance(page, PageRecord) else self.page(page)
        lines = record.result.lines
        if not 0 <= line_index < len(lines):
            raise IndexError(f"page {record.id} has {len(lines)} lines, not line {line_index}")
        original = lines[line_index].text
        with self._db.tx() as db:
            if new_text == original:
                db.execute("DELETE FROM edits WHERE page_id = ? AND line_index = ?", (record.id, line_index))
            else:
                db.execute(
                    "INSERT INTO edits (page_id, line_index, original, edited, edited_at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (page_id, line_index)"
                    " DO UPDATE SET edited = excluded.edited, edited_at = excluded.edited_at",
                    (record.id, line_index, original, new_text, time.time()),
                )
        return self.page(record.id)

    def edit_field(self, page: PageRecord | int, name: str, value: str, receipt: int = 0) -> None:
        """Record an invoice field set by hand for a page (kept when the page is recognised again).

        ``receipt`` as in the reimbursement sheet: 0 for the page (its only document), 1-based for
        one receipt of a page with several (receipt_field_edits; a table of its own because
        field_edits is UNIQUE (page_id, name), which SQLite cannot alter in place).
        """
        with self._db.tx() as db:
            if receipt:
                db.execute(
                    "INSERT INTO receipt_field_edits (page_id, receipt, name, value, edited_at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (page_id, receipt, name)"
                    " DO UPDATE SET value = excluded.value, edited_at = excluded.edited_at",
                    (record_id(page), int(receipt), name, value, time.time()),
                )
                return
            db.execute(
                "INSERT INTO field_edits (page_id, name, value, edited_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (page_id, name)"
                " DO UPDATE SET value = excluded.value, edited_at = excluded.edited_at",
                (record_id(page), name, value, time.time()),
            )

    def receipt_field_edits(
        self, page: PageRecord | int | None = None
    ) -> dict[int, dict[int, dict[str, str]]]:
        """Fields set by hand on single receipts: page id -> receipt (1-based) -> {field name: value}."""
        where, args = ("WHERE page_id = ?", (record_id(page),)) if page is not None else ("", ())
        edits: dict[int, dict[int, dict[str, str]]] = {}
        query = f"SELECT page_id, receipt, name, value FROM receipt_field_edits {where} ORDER BY edited_at"
        for row in self._db.query(query, args):
            edits.setdefault(row[0], {}).setdefault(row[1], {})[row[2]] = row[3]
        return edits

    def field_edits(self, page: PageRecord | int | None = None) -> dict[int, dict[str, str]]:
        """Fields set by hand: page id -> {field name: value}, for one page or (None) every page."""
        where, args = ("WHERE page_id = ?", (record_id(page),)) if page is not None else ("", ())
        edits: dict[int, dict[str, str]] = {}
        for row in self._db.query(f"SELECT page_id, name, value FROM field_edits {where} ORDER BY id", args):
            edits.setdefault(row[0], {})[row[1]] = row[2]
        return edits

    def remove_field_edit(self, page: PageRecord | int, name: str, receipt: int = 0) -> None:
        """Forget a field set by hand (undoing its first edit): the page's reading stands again."""
        with self._db.tx() as db:
            if receipt:
                db.execute(
                    "DELETE FROM receipt_field_edits WHERE page_id = ? AND receipt = ? AND name = ?",
                    (record_id(page), int(receipt), name),
                )
                return
            db.execute("DELETE FROM field_edits WHERE page_id = ? AND name = ?", (record_id(page), name))

    # Checked marks --------------------------------------------------------------------------
    def set_checked(self, page: PageRecord | int, receipt: int, checked: bool = True) -> None:
        """Mark one receipt as checked by a person (or not); ``receipt`` as in the reimbursement
        sheet: 0 for a page's only document, 1-based on a page with several."""
        with self._db.tx() as db:
            if checked:
                db.execute(
                    "INSERT INTO checked_receipts (page_id, receipt, checked_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (page_id, receipt) DO NOTHING",
                    (record_id(page), receipt, time.time()),
                )
            else:
                db.execute(
                    "DELETE FROM checked_receipts WHERE page_id = ? AND receipt = ?",
                    (record_id(page), receipt),
                )

    def checked_receipts(self) -> set[tuple[int, int]]:
        """Every (page id, receipt) a person marked as checked."""
        return {(r[0], r[1]) for r in self._db.query("SELECT page_id, receipt FROM checked_receipts")}
