"""The fields panel: click a field to select its lines, edit a value, flagged rows, export."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit

from scanner_app.gui.document.model import DocumentModel
from scanner_app.gui.fields.model import FLAGGED, VALUE
from scanner_app.gui.fields.panel import FieldsPanel
from scanner_app.samples.invoices import perfect_page, render_en_invoice

WAIT_MS = 10_000


@pytest.fixture
def shown(qtbot):
    document = DocumentModel()
    panel = FieldsPanel(document)
    qtbot.addWidget(panel)
    panel.resize(700, 500)
    panel.show()
    invoice = render_en_invoice(3)
    with qtbot.waitSignal(panel.fields_changed, timeout=WAIT_MS):
        document.set_result(perfect_page(invoice.doc, "en-3.png"))
    return document, panel, invoice


def _click_row(qtbot, panel: FieldsPanel, name: str) -> None:
    index = panel.model.index(panel.model.row_of(name), 0)
    rect = panel.table.visualRect(index)
    QTest.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_fields_shown_and_clicking_a_field_selects_its_lines(qtbot, shown) -> None:
    document, panel, invoice = shown
    assert {n: panel.fields.value(n) for n in invoice.truth} == invoice.truth
    total_lines = list(panel.fields.get("total").lines)
    amount_line = document.page.lines[total_lines[-1]]
    assert amount_line.text.replace(",", "") == invoice.truth["total"]
    with qtbot.waitSignal(document.selection_changed, timeout=WAIT_MS) as signal:
        _click_row(qtbot, panel, "total")
    assert signal.args == [total_lines] and document.selection == total_lines
    _click_row(qtbot, panel, "vendor")
    assert document.selection == list(panel.fields.get("vendor").lines)
    assert document.page.lines[document.selection[0]].text == invoice.truth["vendor"]


def test_edited_field_is_flagged_when_checks_fail_and_reaches_the_export(qtbot, shown, tmp_path) -> None:
    document, panel, invoice = shown
    row = panel.model.row_of("vendor")
    index = panel.model.index(row, VALUE)
    panel.table.setCurrentIndex(index)
    panel.table.edit(index)
    editor = panel.table.findChild(QLineEdit)
    assert editor is not None
    editor.setText("=Corrected Vendor Ltd")
    with qtbot.waitSignal(panel.fields_changed, timeout=WAIT_MS):
        QTest.keyClick(editor, Qt.Key.Key_Return)
    assert panel.fields.value("vendor") == "=Corrected Vendor Ltd" and panel.fields.get("vendor").edited

    panel.edit_field("total", "1.00")  # net + tax no longer equals the total
    total_row = panel.model.row_of("total")
    assert "net + tax does not equal the total" in panel.model.index(total_row, 3).data()
    assert panel.model.index(total_row, 0).data(Qt.ItemDataRole.BackgroundRole) == FLAGGED
    panel.edit_field("total", invoice.truth["total"])
    assert panel.model.index(total_row, 0).data(Qt.ItemDataRole.BackgroundRole) is None

    line = panel.fields.get("number").lines[-1]  # a line edit re-reads the fields; field edits stay
    with qtbot.waitSignal(panel.fields_changed, timeout=WAIT_MS):
        document.edit_line(line, "Invoice No: INV-9999-00001")
    assert panel.fields.value("number") == "INV-9999-00001"
    assert panel.fields.value("vendor") == "=Corrected Vendor Ltd"

    for suffix in ("csv", "xlsx"):
        with qtbot.waitSignal(panel.exported, timeout=WAIT_MS) as signal:
            panel.export_to(tmp_path / f"sheet.{suffix}")
        assert signal.args[0] == tmp_path / f"sheet.{suffix}"
    with open(tmp_path / "sheet.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows[0]["vendor"] == "'=Corrected Vendor Ltd"  # edited, and neutralised
    assert rows[0]["number"] == "INV-9999-00001" and rows[0]["total"] == invoice.truth["total"]


def test_export_failure_is_reported(qtbot, shown, tmp_path: Path) -> None:
    _, panel, _ = shown
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with qtbot.waitSignal(panel.export_failed, timeout=WAIT_MS) as signal:
        panel.export_to(blocker / "sheet.csv")  # a file where a folder should be
    assert str(blocker / "sheet.csv") in signal.args[0]


def test_no_page_shows_nothing(qtbot) -> None:
    document = DocumentModel()
    panel = FieldsPanel(document)
    qtbot.addWidget(panel)
    assert panel.model.rowCount() == 3  # vendor, date, total: required, shown as missing
    assert all(panel.model.index(r, 3).data() == "required, but not found" for r in range(3))


def test_batch_review_lists_every_page_and_its_sheet_exports_edits(tmp_path: Path) -> None:
    # the Batch tab's review (FieldsBatchTable folded into it, #14): its receipts and its sheet
    from openpyxl import load_workbook

    from scanner_app.core.batch.review import load_reviews, write_batch_sheet
    from scanner_app.core.store.batch_store import BatchStore
    from scanner_app.samples.invoices import render_vat_invoice

    invoices = {"en.png": render_en_invoice(1), "vat.png": render_vat_invoice(1)}
    with BatchStore(tmp_path / "batch.sqlite") as store:
        for name, invoice in invoices.items():
            (tmp_path / name).write_bytes(b"image bytes " + name.encode())
            record = store.add_files([tmp_path / name])[0]
            store.save_page(record, 0, perfect_page(invoice.doc, name))
            store.mark_done(record, 1)
        reviews = load_reviews(store)
        assert len(reviews) == 2
        by_name = {Path(r.source).name: r for r in reviews}
        assert by_name["vat.png"].fields.value("vendor") == invoices["vat.png"].truth["seller_name"]
        assert by_name["en.png"].fields.value("total") == invoices["en.png"].truth["total"]
        assert not by_name["en.png"].fields.flagged
        store.edit_field(by_name["en.png"].page_id, "total", "0.01")  # total no longer net + tax
        edited = next(r for r in load_reviews(store) if r.source.endswith("en.png"))
        assert edited.fields.flagged and "total" in edited.edited
        write_batch_sheet(store, tmp_path / "sheet.xlsx")
    values = {r[0].value: r for r in load_workbook(tmp_path / "sheet.xlsx").active.iter_rows(min_row=2)}
    en_row = values[str(tmp_path / "en.png")]
    assert en_row[6].value == 0.01 and "net_tax_total" in en_row[8].value
