"""Fields of every page in a batch store (line edits applied), as reimbursement sheet rows."""

from __future__ import annotations

from scanner_app.core.batch_export import edited_page
from scanner_app.core.fields.extract import extract_fields
from scanner_app.core.fields.reimbursement import SheetRow
from scanner_app.core.store import BatchStore


def batch_rows(store: BatchStore) -> list[SheetRow]:
    """One row per page of every done file, in the store's order (blocking: reads the store)."""
    rows = []
    for result in store.results():
        if result.file.state != "done":
            continue
        for record in result.pages:
            fields = extract_fields(edited_page(record))
            rows.append(SheetRow(str(result.file.path), fields, record.index + 1))
    return rows
