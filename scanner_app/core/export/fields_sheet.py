"""Exports with invoice fields (`scan --fields`, batch exports): fields in the JSON, a reimbursement CSV."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from scanner_app.core.export.formats import DocumentResult, PageImages, export
from scanner_app.core.export.reimbursement import SheetRow, write_csv
from scanner_app.core.fields.extract import extract_fields
from scanner_app.core.fields.model import InvoiceFields
from scanner_app.core.results import PageResult

FIELDS_CSV = "results_fields.csv"


def page_fields_json(
    page: PageResult,
    page_fields: InvoiceFields | None = None,
    receipt_edits: Mapping[int, Mapping[str, str]] | None = None,
) -> dict[str, Any]:
    """``{"fields": ..., "receipts": [...]}`` for one page: the page's fields (``page_fields`` when
    given, e.g. with edits), and each document's (the page's when it is the only one).
    ``receipt_edits``: fields set by hand per receipt (1-based), on a page with several."""
    fields = (page_fields or extract_fields(page)).to_json()
    receipts = page.to_json()["receipts"]
    for index, receipt in enumerate(receipts):
        if len(receipts) == 1:
            receipt["fields"] = fields
        else:
            receipt["fields"] = receipt_fields(page, index, receipt_edits).to_json()
    return {"fields": fields, "receipts": receipts}


def receipt_fields(
    page: PageResult, index: int, receipt_edits: Mapping[int, Mapping[str, str]] | None = None
) -> InvoiceFields:
    """Receipt ``index`` (0-based) of a page with several: its own fields, its hand edits applied."""
    return extract_fields(page.document_page(index)).with_values((receipt_edits or {}).get(index + 1, {}))


def export_fields(
    docs: Sequence[DocumentResult],
    out_dir: Path,
    formats: Sequence[str],
    page_images: PageImages | None,
    edits: Mapping[tuple[str, int], Mapping[str, str]] | None = None,
    receipt_edits: Mapping[tuple[str, int, int], Mapping[str, str]] | None = None,
) -> list[Path]:
    """``export`` with each page's fields in the JSON and JSON Lines, and (with "csv")
    ``results_fields.csv``: one reimbursement row per receipt (per page, one row per document on it).
    ``edits``: fields set by hand, by (source, page number from 1) (see fields.batch.sheet_edits);
    ``receipt_edits``: by (source, page number, receipt from 1) (fields.batch.sheet_receipt_edits)."""
    cache: dict[int, InvoiceFields] = {}
    edits = edits or {}
    by_page = {id(p): edits.get((d.source, n), {}) for d in docs for n, p in enumerate(d.pages, 1)}
    by_receipt: dict[int, dict[int, Mapping[str, str]]] = {}
    for (source, number, receipt), values in (receipt_edits or {}).items():
        for doc in docs:
            if doc.source == source and 1 <= number <= len(doc.pages):
                by_receipt.setdefault(id(doc.pages[number - 1]), {})[receipt] = values

    def fields_of(page: PageResult) -> InvoiceFields:
        key = id(page)  # the same page objects reach every writer (docs holds them): extract once
        if key not in cache:
            cache[key] = extract_fields(page).with_values(by_page.get(key, {}))
        return cache[key]

    def extra(page: PageResult) -> dict[str, Any]:
        return page_fields_json(page, fields_of(page), by_receipt.get(id(page)))

    def rows_of(doc: DocumentResult, n: int, page: PageResult) -> list[SheetRow]:
        return receipt_rows(doc.source, n, page, fields_of(page), by_receipt.get(id(page)))

    written = export(docs, out_dir, formats, page_images=page_images, page_extra=extra)
    if "csv" in {f.lower() for f in formats}:
        rows = [row for doc in docs for n, page in enumerate(doc.pages, 1) for row in rows_of(doc, n, page)]
        written.append(write_csv(rows, Path(out_dir) / FIELDS_CSV))
    return written


def receipt_rows(
    source: str,
    page_number: int,
    page: PageResult,
    fields: InvoiceFields,
    receipt_edits: Mapping[int, Mapping[str, str]] | None = None,
) -> list[SheetRow]:
    """The sheet rows of one page: one per receipt on it (``fields``, the page's, when it is one),
    each receipt's hand edits (``receipt_edits``, by receipt from 1) applied."""
    count = len(page.documents())
    if count == 1:
        return [SheetRow(source, fields, page_number)]
    return [
        SheetRow(source, receipt_fields(page, i, receipt_edits), page_number, i + 1) for i in range(count)
    ]
