"""Existing batch folders into the library: every stored page of every done file, as if read now.

Nothing is read twice: a page whose receipt is in the library already (read live into it, or
imported before) updates that entry (``ingest``). The batch's own corrections come along: its line
edits (the text), its field edits (as a person's edits, where the library has none) and its
checked marks (status ``checked``). The batch folder is only read; it keeps working for resume and
its own exports.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from scanner_app.core.library import receipts
from scanner_app.core.library.db import LibraryDB
from scanner_app.core.library.ingest import PageIn, ingest_page, os_user
from scanner_app.core.library.receipts import field_value
from scanner_app.core.store.apply_edits import edited_page
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore


@dataclass
class ImportSummary:
    stores: list[Path] = field(default_factory=list)
    pages: int = 0
    receipts: int = 0  # entries added or found again
    new: int = 0  # of which new to the library
    problems: list[str] = field(default_factory=list)


def store_path(folder: Path) -> Path:
    """The batch store of a batch folder (or the store file itself); FileNotFoundError when none."""
    path = folder if folder.is_file() else folder / STORE_NAME
    if not path.is_file():
        raise FileNotFoundError(f"{folder}: no batch here (no {STORE_NAME})")
    return path


def import_batches(
    library: LibraryDB, folders: Iterable[Path], on_page: Callable[[Path, int], object] | None = None
) -> ImportSummary:
    summary = ImportSummary()
    for folder in folders:
        try:
            path = store_path(Path(folder).absolute())
        except FileNotFoundError as exc:
            summary.problems.append(str(exc))
            continue
        summary.stores.append(path)
        with BatchStore(path) as store:
            _import_store(library, store, summary, on_page)
    return summary


def _import_store(
    library: LibraryDB,
    store: BatchStore,
    summary: ImportSummary,
    on_page: Callable[[Path, int], object] | None,
) -> None:
    page_edits, receipt_edits, checked = (
        store.field_edits(),
        store.receipt_field_edits(),
        store.checked_receipts(),
    )
    before = _count(library)
    for result in store.results():
        if result.file.state != "done":
            continue
        for record in result.pages:
            page = PageIn(result.file.path, result.file.sha256, record.index, edited_page(record), "import",
                          str(store.path), read_at=result.file.updated_at)  # fmt: skip
            try:
                ids = ingest_page(library, page)
            except Exception as exc:
                summary.problems.append(f"{result.file.path} page {record.index + 1}: {exc}")
                continue
            summary.pages += 1
            summary.receipts += len(ids)
            edits = [page_edits.get(record.id, {})] if len(ids) == 1 else []
            edits = edits or [receipt_edits.get(record.id, {}).get(k + 1, {}) for k in range(len(ids))]
            for k, receipt_id in enumerate(ids):
                receipt = 0 if len(ids) == 1 else k + 1
                _carry_edits(library, receipt_id, edits[k] if k < len(edits) else {},
                             (record.id, receipt) in checked)  # fmt: skip
            if on_page is not None:
                on_page(result.file.path, record.index)
    summary.new += _count(library) - before


def _carry_edits(library: LibraryDB, receipt_id: int, values: dict[str, str], checked: bool) -> None:
    """The batch's field edits where the library has no edit of its own, and its checked mark."""
    with library.tx() as tx:
        for name, value in values.items():
            edited = tx.execute("SELECT edited_at FROM fields WHERE receipt_id = ? AND name = ?",
                                (receipt_id, name)).fetchone()  # fmt: skip
            if (edited is None or edited[0] is None) and value != field_value(tx, receipt_id, name):
                try:
                    receipts.set_field(tx, receipt_id, name, value, os_user())
                except receipts.EditError:
                    continue
        if checked:
            tx.execute("UPDATE receipts SET status = 'checked' WHERE id = ?"
                       " AND status IN ('new', 'to check')",
                       (receipt_id,))  # fmt: skip


def _count(db: LibraryDB) -> int:
    return int(db.query("SELECT count(*) FROM receipts")[0][0])
