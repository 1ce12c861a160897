"""The receipt library, opened: what the commands, the ways in and the app call.

``Library(path)`` opens (or creates) the file (``db``); ``sink(way_in)`` is what a batch store is
given so that each page lands here as it is read; the rest reads, finds, edits and decides. Each
method is one transaction; every one is thread-safe.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path

from scanner_app.core.library import categories, duplicates, receipts, rules
from scanner_app.core.library.batch_import import ImportSummary, import_batches
from scanner_app.core.library.categories import Category
from scanner_app.core.library.db import LibraryDB, LibraryError
from scanner_app.core.library.duplicates import DuplicateFlag
from scanner_app.core.library.ingest import PageIn, ingest_page, os_user
from scanner_app.core.library.location import default_library_path
from scanner_app.core.library.receipts import ReceiptRecord
from scanner_app.core.library.rules import Rule
from scanner_app.core.library.search import Filters, search_ids
from scanner_app.core.library.search_index import reindex
from scanner_app.core.library.sink import LibrarySink


class Library:
    """One library file, open in this process."""

    def __init__(self, path: Path | str | None = None) -> None:
        """``path``: the library file (default: the user's, ``location.default_library_path``)."""
        self.path = Path(path).expanduser().absolute() if path else default_library_path()
        self.db = LibraryDB(self.path)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # Ways in -------------------------------------------------------------------------------------
    def sink(self, way_in: str, keep_batch: bool = True) -> LibrarySink:
        """What a batch store is given (``BatchStore(path, sink=...)``) so each page lands here.
        ``keep_batch=False``: the batch is temporary (not recorded as the receipts' batch)."""
        return LibrarySink(self.db, way_in, keep_batch)

    def ingest(self, page: PageIn) -> list[int]:
        """One page's receipts in; their ids (the same ids when the page is read again)."""
        return ingest_page(self.db, page)

    def import_batches(self, folders: Iterable[Path]) -> ImportSummary:
        return import_batches(self.db, folders)

    # Reading -------------------------------------------------------------------------------------
    def count(self) -> int:
        return int(self.db.query("SELECT count(*) FROM receipts")[0][0])

    def get(self, receipt_id: int) -> ReceiptRecord:
        with self.db.read() as db:
            found = receipts.load(db, [receipt_id])
        if not found:
            raise receipts.EditError(f"no receipt {receipt_id} in the library")
        return found[0]

    def receipts(self, ids: Sequence[int]) -> list[ReceiptRecord]:
        with self.db.read() as db:
            return receipts.load(db, ids)

    def thumbnail(self, receipt_id: int) -> bytes | None:
        rows = self.db.query("SELECT jpeg FROM thumbnails WHERE receipt_id = ?", (receipt_id,))
        return bytes(rows[0][0]) if rows else None

    def search_ids(
        self, query: str = "", filters: Filters | None = None, limit: int | None = None
    ) -> list[int]:
        with self.db.read() as db:
            return search_ids(db, query, filters, limit)

    def search(
        self, query: str = "", filters: Filters | None = None, limit: int | None = None
    ) -> list[ReceiptRecord]:
        """Receipts matching every word of ``query`` and the filters, newest first."""
        with self.db.read() as db:
            return receipts.load(db, search_ids(db, query, filters, limit))

    # Edits ---------------------------------------------------------------------------------------
    def set_field(self, receipt_id: int, name: str, value: str, by: str | None = None) -> None:
        with self.db.tx() as tx:
            receipts.set_field(tx, receipt_id, name, value, by or os_user())

    def set_category(self, receipt_id: int, name: str | None) -> None:
        with self.db.tx() as tx:
            receipts.set_category(tx, receipt_id, name)

    def set_tags(self, receipt_id: int, add: Iterable[str] = (), remove: Iterable[str] = ()) -> None:
        with self.db.tx() as tx:
            receipts.set_tags(tx, receipt_id, add, remove)

    def set_note(self, receipt_id: int, note: str) -> None:
        with self.db.tx() as tx:
            receipts.set_note(tx, receipt_id, note)

    def set_status(self, receipt_id: int, status: str) -> None:
        with self.db.tx() as tx:
            receipts.set_status(tx, receipt_id, status)

    # Categories and rules ------------------------------------------------------------------------
    def categories(self) -> list[Category]:
        with self.db.read() as db:
            return categories.all_categories(db)

    def add_category(self, name: str, account_code: str | None = None) -> Category:
        with self.db.tx() as tx:
            return categories.add(tx, name, account_code)

    def edit_category(
        self, name: str, new_name: str | None = None, account_code: str | None = None
    ) -> Category:
        with self.db.tx() as tx:
            found = categories.edit(tx, name, new_name, account_code)
            for (receipt_id,) in tx.execute(
                "SELECT id FROM receipts WHERE category_id = ?", (found.id,)
            ).fetchall():
                reindex(tx, receipt_id)
            return found

    def remove_category(self, name: str) -> Category:
        with self.db.tx() as tx:
            found, ids = categories.remove(tx, name)
            for receipt_id in ids:
                reindex(tx, receipt_id)
            return found

    def rules(self) -> list[Rule]:
        with self.db.read() as db:
            return rules.all_rules(db)

    def add_rule(self, kind: str, pattern: str, category: str) -> int:
        with self.db.tx() as tx:
            return rules.add_rule(tx, kind, pattern, categories.find(tx, category).id)

    def remove_rule(self, rule_id: int) -> bool:
        with self.db.tx() as tx:
            return rules.remove_rule(tx, rule_id)

    def apply_rules(self, ids: Iterable[int] | None = None) -> int:
        """The rules applied to receipts already in the library (all, or ``ids``); how many changed.
        A category a person chose stays."""
        with self.db.tx() as tx:
            chosen = list(ids) if ids is not None else [r[0] for r in tx.execute("SELECT id FROM receipts")]
            return receipts.apply_rules(tx, chosen)

    # Duplicates ----------------------------------------------------------------------------------
    def duplicates(self, states: tuple[str, ...] = ("open",)) -> list[DuplicateFlag]:
        with self.db.read() as db:
            return duplicates.flags(db, states)

    def decide_duplicate(self, a: int, b: int, state: str, by: str | None = None) -> DuplicateFlag:
        with self.db.tx() as tx:
            return duplicates.decide(tx, a, b, state, by or os_user())

    # The file ------------------------------------------------------------------------------------
    def check(self) -> list[str]:
        return self.db.check()

    def backup(self, target: Path | str) -> Path:
        """A consistent copy of the library at ``target`` (SQLite's online backup: fine while in use)."""
        target = Path(target).expanduser().absolute()
        if target == self.path:
            raise LibraryError(f"{target}: a backup cannot overwrite the library itself")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".part")
        partial.unlink(missing_ok=True)
        copy = sqlite3.connect(partial)
        try:
            self.db.backup_to(copy)
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            copy.close()
        partial.chmod(0o600)
        partial.replace(target)
        return target
