"""The reimbursement sheet: one row per document (file, vendor, date, number, net, tax, total,
currency, flags) as CSV (UTF-8 with BOM) or XLSX; formula-injection safe in both."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from scanner_app.core.atomic_write import atomic_path, open_atomic
from scanner_app.core.export.formats import CSV_ENCODING, neutralise_cell
from scanner_app.core.fields.amounts import to_decimal
from scanner_app.core.fields.model import InvoiceFields

COLUMNS = ("file", "vendor", "date", "number", "net", "tax", "total", "currency", "flags")
AMOUNT_COLUMNS = ("net", "tax", "total")


def _header_row(headers: Sequence[str] | None) -> list[str]:
    """The first row: ``headers`` (a caller's names for COLUMNS, e.g. in the UI language) or COLUMNS."""
    if headers is None:
        return list(COLUMNS)
    if len(headers) != len(COLUMNS):
        raise ValueError(f"{len(headers)} headers given for the sheet's {len(COLUMNS)} columns")
    return [neutralise_cell(str(h)) for h in headers]


@dataclass(frozen=True)
class SheetRow:
    """One document's fields for the sheet (``page`` 1-based; several pages give several rows;
    ``receipt`` 1-based when the page holds several receipts, each its own row; 0 otherwise)."""

    source: str
    fields: InvoiceFields
    page: int = 1
    receipt: int = 0

    def cells(self) -> list[str]:
        f = self.fields
        name = self.source if self.page == 1 else f"{self.source} (page {self.page})"
        name = f"{name} (receipt {self.receipt})" if self.receipt else name
        return [name, f.value("vendor"), f.value("date"), f.value("number"), f.value("net"),
                f.value("tax"), f.value("total"), f.value("currency"), "; ".join(f.all_flags())]  # fmt: skip


def write_csv(rows: Iterable[SheetRow], path: Path, headers: Sequence[str] | None = None) -> Path:
    """The sheet as CSV; every text cell goes through ``neutralise_cell``. ``headers``: see _header_row."""
    with open_atomic(path, CSV_ENCODING, newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(_header_row(headers))
        for row in rows:
            writer.writerow([neutralise_cell(c) for c in row.cells()])
    return Path(path)


def _xlsx_value(column: str, text: str) -> str | Decimal | float:
    """Amounts as numbers (a spreadsheet can sum them); everything else as neutralised text."""
    if column in AMOUNT_COLUMNS and text:
        value = to_decimal(text)
        if value is not None:
            return float(value)
    return neutralise_cell(text)


def write_xlsx(rows: Iterable[SheetRow], path: Path, headers: Sequence[str] | None = None) -> Path:
    """The sheet as XLSX: amounts as numbers with two decimals, text cells stored as strings
    (``data_type "s"``, never a formula) and neutralised as in the CSV. ``headers``: see _header_row."""
    from openpyxl import Workbook  # only when an XLSX is asked for

    book = Workbook()
    sheet = book.active
    sheet.title = "Reimbursement"
    sheet.append(_header_row(headers))
    for r, row in enumerate(rows, start=2):
        for c, (column, text) in enumerate(zip(COLUMNS, row.cells(), strict=True), start=1):
            value = _xlsx_value(column, text)
            cell = sheet.cell(row=r, column=c, value=value)
            if isinstance(value, str):
                cell.data_type = "s"
            else:
                cell.number_format = "0.00"
    with atomic_path(Path(path)) as tmp:
        book.save(tmp)
    return Path(path)


def write_sheet(rows: Iterable[SheetRow], path: Path, headers: Sequence[str] | None = None) -> Path:
    """CSV or XLSX by the file's suffix; ``headers``: the column names to write (default COLUMNS)."""
    rows = list(rows)
    if Path(path).suffix.lower() == ".xlsx":
        return write_xlsx(rows, path, headers)
    return write_csv(rows, path, headers)
