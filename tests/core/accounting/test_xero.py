"""Xero's bills import CSV, read back with the csv module: template columns, required cells, dates,
numbers, signs, currencies, hostile text."""

from __future__ import annotations

import csv
import datetime
from decimal import Decimal
from pathlib import Path

from scanner_app.core.accounting.xero import COLUMNS, DATE_MDY, REQUIRED, write_xero
from tests.core.accounting.receipts import CJK_VENDOR, receipt, sample

# Xero's bill template, written out by hand so that a slip in COLUMNS cannot hide itself.
TEMPLATE = (
    "*ContactName,EmailAddress,POAddressLine1,POAddressLine2,POAddressLine3,POAddressLine4,POCity,PORegion,"
    "POPostalCode,POCountry,*InvoiceNumber,*InvoiceDate,*DueDate,Total,InventoryItemCode,Description,*Quantity,"
    "*UnitAmount,*AccountCode,*TaxType,TaxAmount,TrackingName1,TrackingOption1,TrackingName2,TrackingOption2,"
    "Currency"
)


def _read(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    raw = path.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf")  # no BOM: it would become part of *ContactName
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        return list(reader.fieldnames or []), list(reader)


def test_bills_have_the_template_columns_and_every_required_cell(tmp_path: Path) -> None:
    summary = write_xero(sample(), tmp_path / "bills.csv")
    header, rows = _read(summary.path)
    assert header == TEMPLATE.split(",") == list(COLUMNS)
    assert REQUIRED == (
        "ContactName",
        "InvoiceNumber",
        "InvoiceDate",
        "DueDate",
        "Quantity",
        "UnitAmount",
        "AccountCode",
        "TaxType",
    )
    assert summary.written == len(rows) == 7
    for row in rows:
        assert all(row["*" + name] for name in REQUIRED), row
        assert row["*Quantity"] == "1"
        for column in ("Total", "*UnitAmount", "TaxAmount"):
            assert row[column] == "" or Decimal(row[column]) == Decimal(row[column]).quantize(Decimal("0.01"))


def test_a_receipt_without_a_total_is_skipped_never_a_zero_bill(tmp_path: Path) -> None:
    summary = write_xero([*sample(), receipt(20, total=Decimal("0.00"))], tmp_path / "bills.csv")
    _, rows = _read(summary.path)
    assert {(s.receipt_id, s.reason) for s in summary.skipped} == {(3, "no total"), (20, "total is 0")}
    assert all(Decimal(row["Total"]) != 0 for row in rows)


def test_dates_day_first_by_default_month_first_for_a_us_organisation(tmp_path: Path) -> None:
    one = [receipt(4, date=datetime.date(2026, 3, 4))]
    _, [row] = _read(write_xero(one, tmp_path / "a.csv", due_days=30).path)
    assert (row["*InvoiceDate"], row["*DueDate"]) == ("04/03/2026", "03/04/2026")
    assert datetime.datetime.strptime(row["*InvoiceDate"], "%d/%m/%Y").date() == datetime.date(2026, 3, 4)
    _, [row] = _read(write_xero(one, tmp_path / "b.csv", date_format=DATE_MDY).path)
    assert row["*InvoiceDate"] == row["*DueDate"] == "03/04/2026"


def test_numbers_are_unique_and_generated_when_missing(tmp_path: Path) -> None:
    _, rows = _read(write_xero(sample(), tmp_path / "bills.csv").path)
    numbers = [row["*InvoiceNumber"] for row in rows]
    assert len(set(numbers)) == len(numbers)  # rows with one number would merge into one bill
    assert "SA-5" in numbers  # receipt 5 has none
    assert "R-1" in numbers and "R-1-SA-8" in numbers  # receipt 8 repeats receipt 1's


def test_refunds_are_negative_three_currencies_and_hostile_text(tmp_path: Path) -> None:
    _, rows = _read(write_xero(sample(), tmp_path / "bills.csv").path)
    by_number = {row["*InvoiceNumber"]: row for row in rows}
    refund = by_number["R-4"]
    assert (refund["Total"], refund["*UnitAmount"], refund["TaxAmount"]) == ("-21.40", "-21.40", "-1.40")
    assert {row["Currency"] for row in rows} == {"EUR", "MYR", "CNY"}
    hostile = by_number["R-1"]
    assert hostile["*ContactName"] == 'Bäckerei "Müller"; Inh. Schmidt & Co'  # one line, quotes kept
    assert hostile["Description"] == "Brot; Kuchen 2x"
    assert by_number["R-2"]["*ContactName"] == CJK_VENDOR
    assert all("\n" not in value and "\r" not in value for row in rows for value in row.values())


def test_tax_types_and_exclusive_amounts(tmp_path: Path) -> None:
    rates = {Decimal("6"): "SST 6%", Decimal("19"): "19% Vorsteuer"}
    path = write_xero(sample(), tmp_path / "bills.csv", tax_types=rates, amounts_inclusive=False).path
    by_number = {row["*InvoiceNumber"]: row for row in _read(path)[1]}
    assert by_number["SA-5"]["*TaxType"] == "SST 6%"
    assert by_number["R-1"]["*TaxType"] == "19% Vorsteuer"
    assert by_number["R-1"]["*UnitAmount"] == "100.00"  # net
    assert by_number["R-4"]["*TaxType"] == "Tax on Purchases"  # 7 %: no name given, the default
    assert by_number["R-2"]["*TaxType"] == "Tax Exempt"  # no tax


def test_no_account_code_is_skipped_unless_a_default_is_given(tmp_path: Path) -> None:
    one = [receipt(9, account_code=None), receipt(10, vendor=None)]
    summary = write_xero(one, tmp_path / "a.csv")
    assert [(s.receipt_id, s.reason) for s in summary.skipped] == [(9, "no account code")]
    _, rows = _read(write_xero(one, tmp_path / "b.csv", default_account="429").path)
    assert [row["*AccountCode"] for row in rows] == ["429", "4650"]
    assert rows[1]["*ContactName"] == "Unknown supplier"
