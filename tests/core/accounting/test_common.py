"""The input record and what the writers share: the checks, one-line text, tax, the format names."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from pathlib import Path

import pytest

from scanner_app.core.accounting.common import (
    booking_problem,
    currency_of,
    label_of,
    one_line,
    plain,
    signed_tax,
    tax_rate_of,
)
from scanner_app.core.accounting.datev import write_datev
from scanner_app.core.accounting.quickbooks import write_quickbooks
from scanner_app.core.accounting.report import write_report
from scanner_app.core.accounting.sheet import write_sheet_csv, write_sheet_xlsx
from scanner_app.core.accounting.xero import write_xero
from tests.core.accounting.receipts import receipt, sample


def test_the_record_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        receipt(1).total = Decimal("1")  # type: ignore[misc]


def test_booking_problems() -> None:
    assert booking_problem(receipt(1)) is None
    assert booking_problem(receipt(1, total=None)) == "no total"
    assert booking_problem(receipt(1, total=Decimal("0.004"))) == "total is 0"
    assert booking_problem(receipt(1, total=Decimal("NaN"))) == "total NaN is not a number"
    assert booking_problem(receipt(1, date=None)) == "no date"
    assert booking_problem(receipt(1, date=None), needs_date=False) is None


def test_text_tax_and_currency_helpers() -> None:
    assert one_line("a\r\nb\tc\u2028d  ") == "a b c d"
    assert plain(Decimal("1E+2")) == "100" and plain(Decimal("-0.50")) == "-0.50"
    refund = receipt(1, total=Decimal("-21.40"), tax=Decimal("1.40"))
    assert signed_tax(refund) == Decimal("-1.40") and signed_tax(receipt(1)) is None
    assert tax_rate_of(refund) == Decimal("7")  # 1.40 of a net 20.00
    assert tax_rate_of(receipt(1, tax=Decimal("1"), net=Decimal("20"))) == Decimal("5")
    assert currency_of(receipt(1, currency=" myr "), None) == "MYR"
    assert currency_of(receipt(1, currency=None), "eur") == "EUR"
    assert currency_of(receipt(1, currency=None), None) is None
    assert label_of(receipt(1, vendor=None, description="", category=None)) == "Receipt 1"
    assert label_of(receipt(1, description=" Lunch\n2 people ")) == "Lunch 2 people"


def test_every_writer_writes_atomically(tmp_path: Path) -> None:
    writers = {"x.csv": write_xero, "d.csv": write_datev, "s.csv": write_sheet_csv}
    writers |= {"s.xlsx": write_sheet_xlsx, "r.pdf": write_report}
    for name, writer in writers.items():
        summary = writer(sample(), tmp_path / name)
        assert summary.path == tmp_path / name and summary.path.stat().st_size > 0
        assert 0 < summary.written <= len(sample())
    assert write_quickbooks(sample(), tmp_path / "q.csv", currency="EUR").written == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*writers, "q.csv"])  # no temporary file left
