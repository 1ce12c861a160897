"""The reimbursement sheet (CSV and XLSX): columns, values, flags, formula-injection safety."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from openpyxl import load_workbook

from scanner_app.core.export.reimbursement import COLUMNS, SheetRow, write_sheet
from scanner_app.core.fields import extract_fields
from scanner_app.samples.invoices import render_en_invoice, render_vat_invoice
from tests.helpers.fields import page_of

HOSTILE = ('=HYPERLINK("http://evil.example","x")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\tTAB")


def _rows() -> list[SheetRow]:
    en = extract_fields(page_of(render_en_invoice(0).doc))
    vat = extract_fields(page_of(render_vat_invoice(0).doc))
    hostile = en.with_value("vendor", HOSTILE[0]).with_value("number", HOSTILE[1])
    hostile = hostile.with_value("currency", HOSTILE[2]).with_value("date", HOSTILE[4])
    hostile = hostile.with_value("total", "99.00")  # now net + tax != total: flagged
    return [SheetRow("a.png", en), SheetRow("b.png", vat), SheetRow(HOSTILE[3], hostile, page=2)]


def _read_csv(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return list(csv.reader(handle))


def test_csv_sheet_columns_values_and_flags(tmp_path: Path) -> None:
    rows = _rows()
    table = _read_csv(write_sheet(rows, tmp_path / "sheet.csv"))
    assert table[0] == list(COLUMNS)
    en, vat = rows[0].fields, rows[1].fields
    assert table[1] == ["a.png", en.value("vendor"), en.value("date"), en.value("number"), en.value("net"),
                        en.value("tax"), en.value("total"), en.value("currency"), ""]  # fmt: skip
    assert table[2][1] == vat.value("seller_name") and table[2][7] == "CNY"
    assert "total:net_tax_total" in table[3][8]


def test_csv_sheet_is_formula_injection_safe(tmp_path: Path) -> None:
    table = _read_csv(write_sheet(_rows(), tmp_path / "sheet.csv"))
    hostile = table[3]
    assert hostile[0] == "'" + HOSTILE[3] + " (page 2)"
    assert hostile[1] == "'" + HOSTILE[0] and hostile[3] == "'" + HOSTILE[1]
    assert hostile[7] == "'" + HOSTILE[2] and hostile[2] == "'" + HOSTILE[4]
    assert "date:date_format" in hostile[8]
    for row in table[1:]:
        assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in row), row


def test_xlsx_sheet_has_numbers_and_no_formulas(tmp_path: Path) -> None:
    rows = _rows()
    path = write_sheet(rows, tmp_path / "sheet.xlsx")
    sheet = load_workbook(path).active
    values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert values[0] == list(COLUMNS)
    assert values[1][6] == pytest.approx(float(rows[0].fields.value("total")))  # a number, sums in Excel
    for row in sheet.iter_rows(min_row=2):
        for cell in row:
            assert cell.data_type != "f", cell.value
            if isinstance(cell.value, str):
                assert not cell.value.startswith(("=", "+", "-", "@", "\t", "\r")), cell.value
    assert values[3][1] == "'" + HOSTILE[0]
