"""Per-receipt results in the core: sheet rows, one file per receipt, receipts counted in the summary."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from scanner_app.commands.scan import print_summary
from scanner_app.core.export.fields_sheet import FIELDS_CSV, export_fields, receipt_rows
from scanner_app.core.export.formats import DocumentResult
from scanner_app.core.export.receipt_files import write_receipt_files
from scanner_app.core.fields.extract import extract_fields
from scanner_app.core.results import PageResult, Receipt, TextLine
from scanner_app.core.store.batch_store import BatchStore


def _line(x: float, y: float, text: str) -> TextLine:
    return TextLine(((x, y), (x + 300, y), (x + 300, y + 30), (x, y + 30)), text, 0.99)


def _glass_page() -> PageResult:
    """Two receipts side by side: lines 0-2 on the left one, 3-5 on the right one."""
    texts = ("LEFT MART SDN BHD", "DATE 01/02/2018", "TOTAL 12.50")
    texts += ("RIGHT CAFE SDN BHD", "DATE 03/04/2018", "TOTAL 99.00")
    lines = tuple(_line(20 + 500 * (i // 3), 20 + 60 * (i % 3), text) for i, text in enumerate(texts))
    left = ((0.0, 0.0), (400.0, 0.0), (400.0, 400.0), (0.0, 400.0))
    right = tuple((x + 500, y) for x, y in left)
    receipts = (Receipt(left, (0, 1, 2)), Receipt(right, (3, 4, 5)))
    return PageResult("glass.jpg", 1000, 400, lines, receipts=receipts)


def test_each_receipt_on_a_page_is_a_sheet_row() -> None:
    page = _glass_page()
    rows = receipt_rows("glass.jpg", 1, page, extract_fields(page))
    assert [row.receipt for row in rows] == [1, 2]
    assert [row.fields.value("total") for row in rows] == ["12.50", "99.00"]
    assert rows[1].cells()[0] == "glass.jpg (receipt 2)"
    ordinary = PageResult("one.jpg", 400, 400, page.lines[:3])
    (row,) = receipt_rows("one.jpg", 1, ordinary, extract_fields(ordinary))
    assert row.receipt == 0 and row.cells()[0] == "one.jpg"


def test_the_reimbursement_sheet_and_json_export_carry_each_receipt(tmp_path: Path) -> None:
    docs = [DocumentResult("glass.jpg", [_glass_page()])]
    export_fields(docs, tmp_path, ["csv", "json"], None)
    with open(tmp_path / FIELDS_CSV, encoding="utf-8-sig", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert [(r["file"], r["total"]) for r in table] == [
        ("glass.jpg (receipt 1)", "12.50"), ("glass.jpg (receipt 2)", "99.00")
    ]  # fmt: skip
    (page,) = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["files"][0]["pages"]
    assert [r["fields"]["fields"]["total"]["value"] for r in page["receipts"]] == ["12.50", "99.00"]


def test_one_file_per_receipt(tmp_path: Path) -> None:
    written = write_receipt_files(tmp_path, "glass", _glass_page(), fields=True)
    assert sorted(p.name for p in written) == [
        "glass.receipt-1.json", "glass.receipt-1.txt", "glass.receipt-2.json", "glass.receipt-2.txt"
    ]  # fmt: skip
    second = json.loads((tmp_path / "glass.receipt-2.json").read_text(encoding="utf-8"))
    assert second["receipt"] == 2 and second["receipts"] == 2
    assert second["lines"][0]["text"] == "RIGHT CAFE SDN BHD"
    assert second["fields"]["fields"]["total"]["value"] == "99.00"
    text = (tmp_path / "glass.receipt-1.txt").read_text(encoding="utf-8")
    assert "LEFT MART" in text and "RIGHT CAFE" not in text
    ordinary = PageResult("one.jpg", 400, 400, _glass_page().lines[:3])
    assert [p.name for p in write_receipt_files(tmp_path, "one", ordinary)] == [
        "one.receipt-1.json", "one.receipt-1.txt"
    ]  # fmt: skip


def test_the_store_summary_counts_receipts_as_well_as_pages(tmp_path: Path) -> None:
    for name in ("glass.jpg", "one.jpg"):
        (tmp_path / name).write_bytes(b"an image")
    with BatchStore(tmp_path / "store.sqlite") as store:
        glass, one = store.add_files([tmp_path / "glass.jpg", tmp_path / "one.jpg"])
        store.save_page(glass, 0, _glass_page())
        store.save_page(one, 0, PageResult("one.jpg", 400, 400, _glass_page().lines[:3]))
        totals = store.summary()
    assert (totals.pages, totals.receipts) == (2, 3)


def test_the_batch_summary_line_names_receipts() -> None:
    from scanner_app.core.batch.events import BatchSummary

    summary = BatchSummary((), (), (), (), 2, 9, pages_sent=2, seconds=1.0, stopped=None, receipts=3)
    out = io.StringIO()
    print_summary(summary, out)
    assert "2 pages (3 receipts)" in out.getvalue()


def test_a_field_edit_of_one_receipt_reaches_its_row_and_json_only(tmp_path: Path) -> None:
    from scanner_app.core.batch.export import export_store

    (tmp_path / "glass.jpg").write_bytes(b"an image")
    with BatchStore(tmp_path / "store.sqlite") as store:
        (glass,) = store.add_files([tmp_path / "glass.jpg"])
        page_id = store.save_page(glass, 0, _glass_page())
        store.mark_done(glass, 1)
        store.edit_field(page_id, "total", "13.00", receipt=2)
        store.edit_field(page_id, "total", "77.00", receipt=2)  # a second edit replaces the first
        assert store.receipt_field_edits() == {page_id: {2: {"total": "77.00"}}}
        assert store.field_edits() == {}  # the page's own fields are untouched
        export_store(store, tmp_path / "out", ["csv", "json"], fields=True)
        store.remove_field_edit(page_id, "total", receipt=2)
        assert store.receipt_field_edits() == {}
    with open(tmp_path / "out" / FIELDS_CSV, encoding="utf-8-sig", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert [r["total"] for r in table] == ["12.50", "77.00"]
    data = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    (page,) = data["files"][0]["pages"]
    assert [r["fields"]["fields"]["total"]["value"] for r in page["receipts"]] == ["12.50", "77.00"]


def test_a_store_made_before_receipt_edits_takes_them(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite"
    with BatchStore(path) as store:
        (tmp_path / "glass.jpg").write_bytes(b"an image")
        (glass,) = store.add_files([tmp_path / "glass.jpg"])
        page_id = store.save_page(glass, 0, _glass_page())
    with sqlite3.connect(path) as db:  # as an older version left it
        db.execute("DROP TABLE receipt_field_edits")
    with BatchStore(path) as store:
        store.edit_field(page_id, "date", "05/06/2018", receipt=1)
        assert store.receipt_field_edits(page_id) == {page_id: {1: {"date": "05/06/2018"}}}
