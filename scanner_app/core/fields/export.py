"""Exports with invoice fields (`scan --fields`, batch exports): fields in the JSON, a reimbursement CSV."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from scanner_app.core.export import DocumentResult, PageImages, export
from scanner_app.core.fields.batch import with_edits
from scanner_app.core.fields.extract import extract_fields
from scanner_app.core.fields.model import InvoiceFields
from scanner_app.core.fields.reimbursement import SheetRow, write_csv
from scanner_app.core.results import PageResult

FIELDS_CSV = "results_fields.csv"


def page_fields_json(page: PageResult) -> dict[str, Any]:
    """``{"fields": ..., "receipts": [...]}`` for one page: the page's fields, and each document's."""
    fields = extract_fields(page).to_json()
    receipts = page.to_json()["receipts"]
    for index, receipt in enumerate(receipts):
        own = fields if len(receipts) == 1 else extract_fields(page.document_page(index)).to_json()
        receipt["fields"] = own
    return {"fields": fields, "receipts": receipts}


def export_fields(
    docs: Sequence[DocumentResult],
    out_dir: Path,
    formats: Sequence[str],
    page_images: PageImages | None,
    edits: Mapping[tuple[str, int], Mapping[str, str]] | None = None,
) -> list[Path]:
    """``export`` with each page's fields in the JSON and JSON Lines, and (with "csv")
    ``results_fields.csv``: one reimbursement row per page of every file that has pages.
    ``edits``: fields set by hand, by (source, page number from 1) (see fields.batch.sheet_edits)."""
    cache: dict[int, InvoiceFields] = {}
    edits = edits or {}
    by_page = {id(p): edits.get((d.source, n), {}) for d in docs for n, p in enumerate(d.pages, 1)}

    def fields_of(page: PageResult) -> InvoiceFields:
        key = id(page)  # the same page objects reach every writer (docs holds them): extract once
        if key not in cache:
            cache[key] = with_edits(extract_fields(page), by_page.get(key, {}))
        return cache[key]

    def extra(page: PageResult) -> dict[str, Any]:
        return {"fields": fields_of(page).to_json()}

    written = export(docs, out_dir, formats, page_images=page_images, page_extra=extra)
    if "csv" in {f.lower() for f in formats}:
        rows = [
            SheetRow(doc.source, fields_of(page), n) for doc in docs for n, page in enumerate(doc.pages, 1)
        ]
        written.append(write_csv(rows, Path(out_dir) / FIELDS_CSV))
    return written
