"""Fields of every page in a batch store (line and field edits applied), as reimbursement sheet rows."""

from __future__ import annotations

from scanner_app.core.export.reimbursement import SheetRow
from scanner_app.core.fields.extract import extract_fields
from scanner_app.core.store.apply_edits import edited_page
from scanner_app.core.store.batch_store import BatchStore


def batch_rows(store: BatchStore) -> list[SheetRow]:
    """One row per page of every done file, in the store's order (blocking: reads the store)."""
    return [row for _, row in page_rows(store)]


def sheet_edits(store: BatchStore) -> dict[tuple[str, int], dict[str, str]]:
    """The store's field edits by (source file, page number from 1), as export_fields takes them."""
    edits = store.field_edits()
    pages = ((str(r.file.path), p) for r in store.results() for p in r.pages)
    return {(source, p.index + 1): edits[p.id] for source, p in pages if p.id in edits}


def sheet_receipt_edits(store: BatchStore) -> dict[tuple[str, int, int], dict[str, str]]:
    """Field edits of single receipts by (source file, page number from 1, receipt from 1)."""
    edits = store.receipt_field_edits()
    pages = ((str(r.file.path), p) for r in store.results() for p in r.pages)
    return {
        (source, p.index + 1, receipt): values
        for source, p in pages
        for receipt, values in edits.get(p.id, {}).items()
    }


def page_rows(store: BatchStore) -> list[tuple[int, SheetRow]]:
    """(page id, row) per page of every done file, line and field edits applied."""
    edits = store.field_edits()
    rows = []
    for result in store.results():
        if result.file.state != "done":
            continue
        for record in result.pages:
            fields = extract_fields(edited_page(record)).with_values(edits.get(record.id, {}))
            rows.append((record.id, SheetRow(str(result.file.path), fields, record.index + 1)))
    return rows
