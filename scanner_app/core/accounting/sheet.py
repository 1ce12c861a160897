"""Our own accounting sheet: every field of every receipt but its image, as CSV or XLSX (no Qt).

CSV: UTF-8 with a byte order mark (so Excel reads it as UTF-8), ISO dates, amounts as plain
decimals, empty cells for unknown values. XLSX: numbers as numbers, dates as dates. Text cells are
formula-neutralised in both (``core.export.formats.neutralise_cell``). Nothing is skipped.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path

from scanner_app.core.accounting.common import ExportSummary, plain
from scanner_app.core.accounting.records import AccountingReceipt
from scanner_app.core.atomic_write import atomic_path, open_atomic
from scanner_app.core.export.formats import CSV_ENCODING, neutralise_cell

COLUMNS = tuple(f.name for f in dataclasses.fields(AccountingReceipt) if f.name != "image_jpeg")
DATE_FORMAT = "yyyy-mm-dd"  # XLSX date cells
Cell = str | int | Decimal | datetime.date | None


def _values(receipt: AccountingReceipt) -> list[Cell]:
    return [getattr(receipt, name) for name in COLUMNS]


def _csv_cell(value: Cell) -> str | int:
    if value is None:
        return ""
    if isinstance(value, Decimal):
        return plain(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    return neutralise_cell(value) if isinstance(value, str) else value


def write_sheet_csv(receipts: Sequence[AccountingReceipt], path: Path) -> ExportSummary:
    """One row per receipt, COLUMNS as the header."""
    with open_atomic(path, CSV_ENCODING, newline="") as handle:
        writer = csv.writer(handle)  # QUOTE_MINIMAL, CRLF rows
        writer.writerow(COLUMNS)
        writer.writerows([_csv_cell(v) for v in _values(r)] for r in receipts)
    return ExportSummary(Path(path), len(receipts))


def write_sheet_xlsx(receipts: Sequence[AccountingReceipt], path: Path) -> ExportSummary:
    """One row per receipt on the sheet "Receipts": amounts and ids as numbers, dates as date cells,
    text as strings (never a formula)."""
    from openpyxl import Workbook  # only when an XLSX is asked for

    book = Workbook()
    sheet = book.active
    sheet.title = "Receipts"
    sheet.append(list(COLUMNS))
    for r, receipt in enumerate(receipts, start=2):
        for c, value in enumerate(_values(receipt), start=1):
            if value is None:
                continue
            if isinstance(value, str):
                sheet.cell(row=r, column=c, value=neutralise_cell(value)).data_type = "s"  # never a formula
            else:
                cell = sheet.cell(row=r, column=c, value=value)
                if isinstance(value, datetime.date):
                    cell.number_format = DATE_FORMAT
    sheet.freeze_panes = "A2"
    with atomic_path(Path(path)) as tmp:
        book.save(tmp)
    return ExportSummary(Path(path), len(receipts))


def write_sheet(receipts: Sequence[AccountingReceipt], path: Path) -> ExportSummary:
    """XLSX for a ``.xlsx`` path, else CSV."""
    if Path(path).suffix.lower() == ".xlsx":
        return write_sheet_xlsx(receipts, path)
    return write_sheet_csv(receipts, path)
