"""Our own sheet: every field but the image, CSV with a BOM, XLSX with numbers and dates as such."""

from __future__ import annotations

import csv
import dataclasses
import datetime
from decimal import Decimal
from pathlib import Path

from openpyxl import load_workbook

from scanner_app.core.accounting.records import AccountingReceipt
from scanner_app.core.accounting.sheet import COLUMNS, write_sheet
from tests.core.accounting.receipts import CJK_VENDOR, HOSTILE_VENDOR, receipt, sample

EXPECTED = (
    "id",
    "source_path",
    "page",
    "vendor",
    "date",
    "total",
    "currency",
    "tax",
    "tax_rate",
    "net",
    "number",
    "category",
    "account_code",
    "description",
    "note",
)


def test_columns_are_every_field_but_the_image() -> None:
    names = [f.name for f in dataclasses.fields(AccountingReceipt)]
    assert COLUMNS == EXPECTED and names == [*EXPECTED, "image_jpeg"]


def test_csv_has_a_bom_and_every_receipt(tmp_path: Path) -> None:
    receipts = [*sample(), receipt(30, vendor='=HYPERLINK("http://x")', note="@SUM(A1)")]
    summary = write_sheet(receipts, tmp_path / "receipts.csv")
    assert summary.path.read_bytes().startswith(b"\xef\xbb\xbf") and summary.written == len(receipts)
    with open(summary.path, encoding="utf-8-sig", newline="") as handle:
        header, *rows = list(csv.reader(handle))
    assert tuple(header) == EXPECTED and len(rows) == len(receipts)
    first, second, third = rows[0], rows[1], rows[2]
    assert (
        first[3] == HOSTILE_VENDOR
        and first[4] == "2026-03-01"
        and first[5:10] == ["119.00", "EUR", "19.00", "19", "100.00"]
    )
    assert second[3] == CJK_VENDOR and second[6] == "CNY"
    assert third[5] == ""  # no total: an empty cell, not 0
    assert rows[4][10] == "" and rows[3][5] == "-21.40"
    assert rows[-1][3].startswith("'=") and rows[-1][14] == "'@SUM(A1)"  # never a formula


def test_xlsx_numbers_as_numbers_dates_as_dates(tmp_path: Path) -> None:
    receipts = [*sample(), receipt(30, vendor="+cmd|' /C calc'!A0")]
    summary = write_sheet(receipts, tmp_path / "receipts.xlsx")
    sheet = load_workbook(summary.path).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == EXPECTED and len(rows) == len(receipts) + 1
    first = dict(zip(EXPECTED, rows[1], strict=True))
    assert first["id"] == 1 and first["page"] == 1
    assert first["date"] == datetime.datetime(2026, 3, 1)  # a date cell
    assert sheet.cell(row=2, column=5).number_format == "yyyy-mm-dd"
    assert isinstance(first["total"], int | float) and Decimal(str(first["total"])) == Decimal("119")
    assert first["tax_rate"] == 19 and first["vendor"] == HOSTILE_VENDOR.replace("\r\n", "\n")  # XML: LF
    assert dict(zip(EXPECTED, rows[3], strict=True))["total"] is None  # receipt 3: no total
    assert dict(zip(EXPECTED, rows[4], strict=True))["total"] == -21.4
    hostile = sheet.cell(row=len(receipts) + 1, column=4)
    assert hostile.data_type == "s" and hostile.value == "'+cmd|' /C calc'!A0"
