"""The DATEV Buchungsstapel, read back by DATEV's rules: Windows-1252, CRLF, the EXTF header, the 125
columns, decimal comma, S/H, accounts, BU-Schlüssel, DDMM dates, Belegfeld 1, Buchungstext."""

from __future__ import annotations

import csv
import datetime
import io
import re
from decimal import Decimal
from pathlib import Path

import pytest

from scanner_app.core.accounting.datev import COLUMNS, DatevBatch, to_cp1252, write_datev
from tests.core.accounting.receipts import HOSTILE_VENDOR, receipt, sample

CREATED = datetime.datetime(2026, 4, 2, 9, 30, 5, 250000)


def _read(path: Path) -> tuple[list[str], list[str], list[list[str]], str]:
    text = path.read_bytes().decode("cp1252")  # strict: every byte is Windows-1252
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))
    return rows[0], rows[1], rows[2:], text


def test_header_columns_encoding_and_line_ends(tmp_path: Path) -> None:
    batch = DatevBatch(
        consultant=29098,
        client=55003,
        account_length=4,
        chart="04",
        label="März-Belege",
        initials="AB",
        created=CREATED,
    )
    summary = write_datev(sample(), tmp_path / "EXTF_Buchungsstapel.csv", batch=batch, contra_account="1600")
    header, columns, rows, text = _read(summary.path)
    raw = summary.path.read_bytes()
    assert raw.count(b"\r\n") == raw.count(b"\n") == len(rows) + 2 and raw.endswith(b"\r\n")
    assert b"\xef\xbb\xbf" not in raw and "März".encode("cp1252") in raw
    assert len(header) == 31
    assert header[:6] == ["EXTF", "700", "21", "Buchungsstapel", "13", "20260402093005250"]
    assert header[10:17] == ["29098", "55003", "20260101", "4", "20260301", "20260308", "März-Belege"]
    assert (header[17], header[18], header[21], header[26]) == ("AB", "1", "EUR", "04")
    assert text.startswith('"EXTF";700;21;"Buchungsstapel";13;')  # text fields quoted, numbers not
    assert columns == list(COLUMNS) and len(columns) == 125 and len(set(columns)) == 125
    assert columns[:14] == [
        "Umsatz (ohne Soll/Haben-Kz)",
        "Soll/Haben-Kennzeichen",
        "WKZ Umsatz",
        "Kurs",
        "Basis-Umsatz",
        "WKZ Basis-Umsatz",
        "Konto",
        "Gegenkonto (ohne BU-Schlüssel)",
        "BU-Schlüssel",
        "Belegdatum",
        "Belegfeld 1",
        "Belegfeld 2",
        "Skonto",
        "Buchungstext",
    ]
    assert (columns[20], columns[47], columns[48], columns[87], columns[113], columns[124]) == (
        "Beleginfo - Art 1",
        "Zusatzinformation - Art 1",
        "Zusatzinformation- Inhalt 1",
        "Stück",
        "Festschreibung",
        "Abw. Skontokonto",
    )
    assert summary.written == len(rows) == 4 and all(len(row) == 125 for row in rows)  # EUR: 1, 4, 6, 8


def test_bookings_amounts_accounts_keys_dates(tmp_path: Path) -> None:
    path = write_datev(
        sample(), tmp_path / "b.csv", batch=DatevBatch(created=CREATED), contra_account="1590"
    ).path
    _, _, rows, _ = _read(path)
    first, refund, hotel, last = rows  # receipts 1, 4, 6, 8: the EUR ones
    for row in rows:
        assert re.fullmatch(r"\d{1,10},\d{2}", row[0]) and not row[0].startswith("0,00")  # decimal comma
        assert row[1] in ("S", "H") and row[2] == "EUR" and row[7] == "1590"  # the Gegenkonto
        assert re.fullmatch(r"\d{4}", row[9]) and len(row[13]) <= 60
        assert re.fullmatch(r"[A-Za-z0-9$&%*+\-/]{1,36}", row[10])
    assert first[:11] == ["119,00", "S", "EUR", "", "", "", "4650", "1590", "9", "0103", "R-1"]
    assert refund[:2] == ["21,40", "H"]  # a refund: unsigned, Haben
    assert refund[8] == hotel[8] == "8"  # 7 % Vorsteuer
    assert last[8] == "" and last[9] == "0803"  # no tax, no key
    assert hotel[6] == "4670"


def test_hostile_text_becomes_windows_1252_on_one_line(tmp_path: Path) -> None:
    receipts = [
        receipt(1, description="", vendor=HOSTILE_VENDOR, number="RE 2026/01#7_ä"),
        receipt(2, description="星巴克 Starbucks 😀 Łódź Őz " + "x" * 80),
    ]
    _, _, rows, text = _read(write_datev(receipts, tmp_path / "b.csv").path)
    assert rows[0][13] == 'Bäckerei "Müller"; Inh. Schmidt & Co'
    assert rows[0][10] == "RE2026/017"  # DATEV's Belegfeld characters only
    assert rows[1][13].startswith("? Starbucks ? ?ódz Oz xxx") and len(rows[1][13]) == 60
    assert '"Bäckerei ""Müller""; Inh. Schmidt & Co"' in text  # quoted, quotes doubled
    assert to_cp1252("a\tb\nc€") == "a b c€"


def test_skipped_receipts_no_total_currency_date_account(tmp_path: Path) -> None:
    receipts = [
        *sample(),
        receipt(21, account_code=None),
        receipt(22, account_code="Meals"),
        receipt(23, date=datetime.date(2025, 12, 31)),
        receipt(24, currency=None),
        receipt(25, total=Decimal("-0.001")),
    ]
    summary = write_datev(receipts, tmp_path / "b.csv")
    reasons = {s.receipt_id: s.reason for s in summary.skipped}
    assert reasons[3] == "no total" and reasons[25] == "total is 0"
    assert reasons[2] == "currency CNY, not the batch's EUR" and reasons[5].startswith("currency MYR")
    assert reasons[21] == "no account code" and reasons[22].startswith("account 'Meals'")
    assert reasons[24] == "no currency"
    assert reasons[23].startswith("dated 2025-12-31, outside this batch")  # the batch is 2026's
    _, _, rows, _ = _read(summary.path)
    assert summary.written == len(rows) == 4 and [row[10] for row in rows] == ["R-1", "R-4", "R-6", "R-1"]


def test_a_tax_rate_without_a_key_is_booked_with_a_note(tmp_path: Path) -> None:
    summary = write_datev(
        sample(), tmp_path / "b.csv", default_currency="MYR", batch=DatevBatch(currency="MYR")
    )
    _, _, rows, _ = _read(summary.path)
    assert [row[10] for row in rows] == ["SA-5", "R-7"] and rows[0][8] == ""
    assert summary.notes == ("receipt 5: tax rate 6.00 % has no BU-Schlüssel, booked gross without one",)


def test_the_period_and_settings_are_checked(tmp_path: Path) -> None:
    fiscal = DatevBatch(fiscal_year_start=datetime.date(2025, 7, 1))
    receipts = [receipt(1, date=datetime.date(2025, 12, 30)), receipt(2, date=datetime.date(2026, 1, 2))]
    summary = write_datev(receipts, tmp_path / "b.csv", batch=fiscal)
    header, _, rows, _ = _read(summary.path)
    assert header[12:16] == ["20250701", "4", "20260102", "20260102"] and len(rows) == 1  # a tie: the later
    assert summary.skipped[0].receipt_id == 1  # the same fiscal year, another calendar year
    for bad in (
        DatevBatch(consultant=1000),
        DatevBatch(client=0),
        DatevBatch(account_length=9),
        DatevBatch(date_from=datetime.date(2026, 12, 1), date_to=datetime.date(2027, 1, 5)),
    ):
        with pytest.raises(ValueError):
            write_datev(receipts, tmp_path / "bad.csv", batch=bad)
    with pytest.raises(ValueError, match="contra account"):
        write_datev(receipts, tmp_path / "bad.csv", contra_account="Kasse")
    assert not (tmp_path / "bad.csv").exists()
