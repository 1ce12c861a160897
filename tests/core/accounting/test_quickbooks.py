"""QuickBooks Online's bank CSV, read back with the csv module: the two layouts, dates, signs, one
currency, no zero amounts."""

from __future__ import annotations

import csv
import datetime
from decimal import Decimal
from pathlib import Path

import pytest

from scanner_app.core.accounting.quickbooks import DATE_DMY, write_quickbooks
from tests.core.accounting.receipts import receipt, sample


def _read(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def test_three_columns_expenses_negative_refunds_positive(tmp_path: Path) -> None:
    summary = write_quickbooks(sample(), tmp_path / "bank.csv", currency="EUR")
    header, *rows = _read(summary.path)
    assert header == ["Date", "Description", "Amount"]
    assert summary.written == len(rows) == 4  # receipts 1, 4, 6, 8
    amounts = {row[1]: Decimal(row[2]) for row in rows}
    assert amounts["Brot; Kuchen 2x"] == Decimal("-119.00")  # money out
    assert amounts["Refund GmbH"] == Decimal("21.40")  # a refund is money in
    assert all(len(row) == 3 and row[2] and Decimal(row[2]) != 0 for row in rows)
    for row in rows:
        datetime.datetime.strptime(row[0], "%m/%d/%Y")  # MM/DD/YYYY
    assert rows[0][0] == "03/01/2026"


def test_four_columns_one_positive_amount_per_row(tmp_path: Path) -> None:
    path = write_quickbooks(sample(), tmp_path / "bank.csv", columns=4, currency="EUR").path
    header, *rows = _read(path)
    assert header == ["Date", "Description", "Credit", "Debit"]
    for _, _, credit, debit in rows:
        assert bool(credit) != bool(debit)  # exactly one, the other blank (never 0)
        assert Decimal(credit or debit) > 0
    by_text = {row[1]: row for row in rows}
    assert by_text["Hotel Adlon"][2:] == ["250.00", ""]  # money out: Credit (Intuit)
    assert by_text["Refund GmbH"][2:] == ["", "21.40"]  # money in: Debit


def test_one_currency_per_file(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="3 currencies"):
        write_quickbooks(sample(), tmp_path / "bank.csv")
    assert not (tmp_path / "bank.csv").exists()
    summary = write_quickbooks(sample(), tmp_path / "bank.csv", currency="myr", date_format=DATE_DMY)
    reasons = {s.receipt_id: s.reason for s in summary.skipped}
    assert reasons[2] == "currency CNY, not the account's MYR" and reasons[3] == "no total"
    rows = _read(summary.path)[1:]
    assert [row[2] for row in rows] == ["-31.80", "-12.00"]
    assert rows[0][0] == "05/03/2026"  # DD/MM/YYYY on request


def test_no_total_or_zero_is_skipped_and_the_receipts_own_currency_is_taken(tmp_path: Path) -> None:
    receipts = [receipt(1), receipt(2, total=None), receipt(3, total=Decimal("0")), receipt(4, date=None)]
    summary = write_quickbooks(receipts, tmp_path / "bank.csv")
    assert [(s.receipt_id, s.reason) for s in summary.skipped] == [
        (2, "no total"),
        (3, "total is 0"),
        (4, "no date"),
    ]
    assert _read(summary.path)[1:] == [["03/01/2026", "Vendor 1", "-10.00"]]
