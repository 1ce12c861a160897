"""Exports with invoice fields (`scan --fields`, batch exports): fields in the JSON, a reimbursement CSV."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from scanner_app.core.export import DocumentResult, PageImages, export
from scanner_app.core.fields.extract import extract_fields
from scanner_app.core.fields.model import InvoiceFields
from scanner_app.core.fields.reimbursement import SheetRow, write_csv
from scanner_app.core.results import PageResult

FIELDS_CSV = "results_fields.csv"


def page_fields_json(page: PageResult) -> dict[str, Any]:
    """``{"fields": ...}`` for one page (InvoiceFields.to_json)."""
    return {"fields": extract_fields(page).to_json()}


def export_fields(
    docs: Sequence[DocumentResult], out_dir: Path, formats: Sequence[str], page_images: PageImages | None
) -> list[Path]:
    """``export`` with each page's fields in the JSON and JSON Lines, and (with "csv")
    ``results_fields.csv``: one reimbursement row per page of every file that has pages."""
    cache: dict[int, InvoiceFields] = {}

    def fields_of(page: PageResult) -> InvoiceFields:
        key = id(page)  # the same page objects reach every writer (docs holds them): extract once
        if key not in cache:
            cache[key] = extract_fields(page)
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
