"""The library's receipts handed to the accounting writers (core.accounting), and marked exported.

A receipt goes out once: an export leaves out receipts exported before unless ``again`` (an explicit
choice), and confirmed duplicates unless ``include_duplicates``. The receipts a writer wrote (not
those it skipped, with its reason) get the status ``exported`` and the export's name; the export is
recorded with its format, file, time and user.
"""

from __future__ import annotations

import datetime
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scanner_app.core.accounting.common import ExportSummary
from scanner_app.core.accounting.datev import write_datev
from scanner_app.core.accounting.quickbooks import write_quickbooks
from scanner_app.core.accounting.records import AccountingReceipt
from scanner_app.core.accounting.report import write_report
from scanner_app.core.accounting.sheet import write_sheet_csv, write_sheet_xlsx
from scanner_app.core.accounting.xero import write_xero
from scanner_app.core.library.crop import REPORT_SIDE, document_crop, jpeg, page_image
from scanner_app.core.library.ingest import os_user
from scanner_app.core.library.receipts import ReceiptRecord
from scanner_app.core.library.search import Filters
from scanner_app.core.results import PageResult

if TYPE_CHECKING:
    from scanner_app.core.library.library import Library

Writer = Callable[..., ExportSummary]
WRITERS: dict[str, Writer] = {
    "xero": write_xero, "qbo": write_quickbooks, "datev": write_datev, "csv": write_sheet_csv,
    "xlsx": write_sheet_xlsx, "pdf": write_report,
}  # fmt: skip
# What each writer takes of the export's options (the rest would be refused).
OPTIONS = {
    "xero": ("default_currency", "default_account"), "qbo": ("default_currency",),
    "datev": ("default_currency", "default_account"), "csv": (), "xlsx": (),
    "pdf": ("default_currency", "claimant"),
}  # fmt: skip


@dataclass(frozen=True)
class LibraryExport:
    name: str
    summary: ExportSummary
    chosen: int  # receipts the filters found (before the writer's own skips)
    left_out_exported: int  # found, but exported before (and not ``again``)


def _decimal(text: str) -> Decimal | None:
    try:
        value = Decimal(text.replace(",", "").rstrip("%").strip())
    except (InvalidOperation, AttributeError):
        return None
    return value if value.is_finite() else None


def _date(text: str) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        return None


def accounting_receipt(record: ReceiptRecord, image_jpeg: bytes | None = None) -> AccountingReceipt:
    v = record.value
    items = [ln.strip() for ln in record.text.splitlines()[1:4] if re.search(r"[A-Za-z\u4e00-\u9fff]{3}", ln)]
    description = " - ".join(x for x in (v("vendor"), ", ".join(items[:2])) if x)
    return AccountingReceipt(
        id=record.id, source_path=record.source_path, page=record.page, vendor=v("vendor") or None,
        date=_date(v("date")), total=_decimal(v("total")) if v("total") else None,
        currency=v("currency") or None, tax=_decimal(v("tax")) if v("tax") else None,
        tax_rate=_decimal(v("tax_rate")) if v("tax_rate") else None,
        net=_decimal(v("net")) if v("net") else None, number=v("number") or None,
        category=record.category, account_code=record.account_code, description=description,
        note=record.note, image_jpeg=image_jpeg,
    )  # fmt: skip


def report_image(library: Library, record: ReceiptRecord) -> bytes | None:
    """The receipt's upright crop at REPORT_SIDE from its source file, else its thumbnail."""
    try:
        rows = library.db.query("SELECT page_index FROM receipt_pages WHERE receipt_id = ?"
                                " ORDER BY page_index"
                                " LIMIT 1", (record.id,))  # fmt: skip
        stored = _page_result(library, record.id, rows[0][0]) if rows else None
        if stored is not None:
            result, document = stored
            image = page_image(Path(record.source_path), rows[0][0])
            return jpeg(document_crop(image, result, document), REPORT_SIDE, 85)
    except Exception:  # the source is gone or changed: the thumbnail will do
        pass
    return library.thumbnail(record.id)


def _page_result(library: Library, receipt_id: int, index: int) -> tuple[PageResult, int] | None:
    """The page's reading as the batch stored it, and the receipt's document on it (a source still
    on disk with the same content; None otherwise: the crop needs the page's boxes)."""
    row = library.db.query(
        "SELECT batch, sha256, source_path, document FROM receipts WHERE id = ?", (receipt_id,)
    )
    if not row or not row[0][0]:
        return None
    from scanner_app.core.store.batch_store import BatchStore

    batch, sha, source, document = row[0]
    if not Path(batch).is_file():
        return None
    with BatchStore(batch) as store:
        for file in store.files():
            if str(file.path) == source and file.sha256 == sha:
                for page in store.pages(file):
                    if page.index == index:
                        return page.result, (document or 1) - 1
    return None


def export(
    library: Library,
    fmt: str,
    out: Path,
    query: str = "",
    filters: Filters | None = None,
    *,
    again: bool = False,
    name: str | None = None,
    options: dict[str, Any] | None = None,
) -> LibraryExport:
    """Write the receipts found as ``fmt`` to ``out``; mark those written exported."""
    if fmt not in WRITERS:
        raise ValueError(f"unknown export format {fmt!r}; choose from {', '.join(WRITERS)}")
    filters = filters or Filters(include_duplicates=False)
    records = list(reversed(library.search(query, filters)))  # oldest first
    fresh = [r for r in records if again or not r.exports]
    chosen = [accounting_receipt(r, report_image(library, r) if fmt == "pdf" else None) for r in fresh]
    kwargs = {k: v for k, v in (options or {}).items() if k in OPTIONS[fmt] and v is not None}
    summary = WRITERS[fmt](chosen, Path(out), **kwargs)
    label = name or f"{fmt}-{time.strftime('%Y%m%d-%H%M%S')}"
    skipped = {s.receipt_id for s in summary.skipped}
    written = [r.id for r in fresh if r.id not in skipped]
    _mark(library, label, fmt, Path(out), written)
    return LibraryExport(label, summary, len(records), len(records) - len(fresh))


def _mark(library: Library, name: str, fmt: str, out: Path, ids: Sequence[int]) -> None:
    with library.db.tx() as tx:
        export_id = tx.execute(
            "INSERT INTO exports (name, format, path, exported_at, exported_by, receipts)"
            " VALUES (?, ?, ?, ?, ?, ?)"
            " RETURNING id", (name, fmt, str(out.absolute()), time.time(), os_user(), len(ids))
        ).fetchone()[0]  # fmt: skip
        for receipt_id in ids:
            tx.execute("INSERT OR IGNORE INTO receipt_exports (receipt_id, export_id) VALUES (?, ?)",
                       (receipt_id, export_id))  # fmt: skip
            tx.execute(
                "UPDATE receipts SET status = 'exported' WHERE id = ? AND status != 'duplicate'",
                (receipt_id,),
            )
