"""A clerk's review of a batch (#14): receipts' columns, sorted as numbers and dates; the queue of
fields to check walked with the keyboard (accept, correct, undo); checked marks that survive a
restart; one reimbursement sheet for the batch.

Most tests open a batch store whose pages were stored beforehand (as a finished batch leaves them):
the review reads only the store, so no server is needed there. The last test runs real receipts
through the real embedded Triton server.
"""

from __future__ import annotations

import csv
import dataclasses
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtTest import QTest

from scanner_app.core.batch.review import ReviewQueue, load_reviews, write_batch_sheet
from scanner_app.core.fields.model import LOW_CONFIDENCE
from scanner_app.core.results import PageResult, Receipt
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore
from scanner_app.gui.batch.panel import BatchPanel
from scanner_app.gui.batch.table_model import COLUMNS
from scanner_app.gui.connection.link import ServerConnection
from scanner_app.gui.viewer import overlay
from scanner_app.samples.invoices import perfect_page, render_en_invoice
from tests.helpers.paths import REPO, SROIE_IMAGES

WAIT_MS = 30_000
SROIE = SROIE_IMAGES
VENDOR, DATE, TOTAL, FLAGS, RECEIPTS, CHECKED = (
    COLUMNS.index(c) for c in ("vendor", "date", "total", "flags", "receipts", "checked"))  # fmt: skip


def _low(page: PageResult, score: float = 0.7) -> PageResult:
    """The page as a poor scan gives it back: every line read with ``score``."""
    lines = tuple(dataclasses.replace(line, score=score) for line in page.lines)
    return dataclasses.replace(page, lines=lines)


def _two_receipts(a: PageResult, b: PageResult) -> PageResult:
    """One glass page holding both pages' lines, each its own receipt."""
    lines = a.lines + b.lines
    box = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    first, second = tuple(range(len(a.lines))), tuple(range(len(a.lines), len(lines)))
    receipts = (Receipt(box, first), Receipt(box, second))
    return dataclasses.replace(a, lines=lines, receipts=receipts)


def _stored_batch(folder: Path, sources: Path) -> dict[str, object]:
    """A finished batch: a clean invoice, a poorly read one, and a glass page with two receipts."""
    sources.mkdir(parents=True)
    invoices = {i: render_en_invoice(i) for i in (0, 1, 2, 3)}
    pages = {
        "clean.png": perfect_page(invoices[0].doc, "clean.png"),
        "poor.png": _low(perfect_page(invoices[1].doc, "poor.png")),
        "glass.png": _two_receipts(perfect_page(invoices[2].doc, "glass.png"),
                                   perfect_page(invoices[3].doc, "glass.png")),
    }  # fmt: skip
    with BatchStore(folder / STORE_NAME) as store:
        for name, page in pages.items():
            path = sources / name
            path.write_bytes(b"stored image " + name.encode())  # never read: the page is stored
            record = store.add_files([path])[0]
            store.save_page(record, 0, page)
            store.mark_done(record, 1)
    return {"clean": invoices[0].truth, "poor": invoices[1].truth, "glass": (invoices[2].truth,
                                                                              invoices[3].truth)}  # fmt: skip


@pytest.fixture
def batch(tmp_path: Path):
    truth = _stored_batch(tmp_path / "batch", tmp_path / "in")
    return tmp_path / "batch", truth


@pytest.fixture
def offline(qtbot):
    conn = ServerConnection(urls=["127.0.0.1:9"], start_embedded_if_unconfigured=False)  # never started
    yield conn
    conn.shutdown()


def _open_batch(qtbot, connection: ServerConnection, folder: Path) -> BatchPanel:
    """The Batch tab on an existing batch folder (Continue: nothing is queued, so no page is sent)."""
    panel = BatchPanel(connection)
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.batch_finished, timeout=WAIT_MS):
        panel.start_batch([], folder=folder)
    qtbot.waitUntil(lambda: panel.review.loaded and all(r.review for r in panel._book.rows), timeout=WAIT_MS)
    return panel


def _cell(panel: BatchPanel, name: str, column: int) -> str:
    row = next(r for r in range(panel.model.rowCount()) if panel.model.index(r, 0).data() == name)
    return panel.model.index(row, column).data()


# One threshold ---------------------------------------------------------------------------------
def test_the_gui_amber_and_the_exported_flags_use_one_threshold() -> None:
    assert overlay.LOW_CONFIDENCE is LOW_CONFIDENCE == 0.80
    assert overlay.OverlayStyle().low_confidence == LOW_CONFIDENCE


# Qt-free: the queue and the store ------------------------------------------------------------------
def test_the_queue_holds_flagged_fields_of_unchecked_receipts_and_keeps_its_place(batch) -> None:
    folder, _ = batch
    with BatchStore(folder / STORE_NAME) as store:
        reviews = load_reviews(store)
        assert [(Path(r.source).name, r.receipt) for r in reviews] == [
            ("clean.png", 0), ("poor.png", 0), ("glass.png", 1), ("glass.png", 2)]  # fmt: skip
        queue = ReviewQueue()
        queue.update(reviews)
        poor = next(r for r in reviews if r.source.endswith("poor.png"))
        assert queue.remaining >= 2 and {i.receipt for i in queue.items} == {poor.key}
        assert all(i.confidence < LOW_CONFIDENCE and "low_confidence" in i.flags for i in queue.items)
        first, second = queue.items[0], queue.items[1]
        assert queue.step(-1) == queue.items[-1] and queue.step(1) == first  # wraps both ways
        store.edit_field(poor.page_id, first.name, first.value)  # accepted by a person
        queue.update(load_reviews(store))
        assert queue.current == second and first.name not in {i.name for i in queue.items}
        store.set_checked(poor.page_id, 0)
        queue.update(load_reviews(store))
        assert queue.remaining == 0 and queue.current is None  # a checked receipt is not in the queue


def test_checked_marks_survive_reopening_and_are_per_receipt(batch) -> None:
    folder, _ = batch
    with BatchStore(folder / STORE_NAME) as store:
        glass = [r for r in load_reviews(store) if r.source.endswith("glass.png")]
        store.set_checked(glass[1].page_id, glass[1].receipt)
        store.set_checked(glass[1].page_id, glass[1].receipt)  # twice: still one mark
    with BatchStore(folder / STORE_NAME) as store:  # the app restarted
        assert store.checked_receipts() == {glass[1].key}
        again = {r.key: r.checked for r in load_reviews(store)}
        assert again[glass[1].key] and not again[glass[0].key]
        store.set_checked(glass[1].page_id, glass[1].receipt, False)
        assert store.checked_receipts() == set()


def test_the_batch_sheet_has_a_row_per_receipt_with_edits_in_xlsx_and_csv(batch, tmp_path: Path) -> None:
    from openpyxl import load_workbook

    folder, truth = batch
    with BatchStore(folder / STORE_NAME) as store:
        clean = next(r for r in load_reviews(store) if r.source.endswith("clean.png"))
        store.edit_field(clean.page_id, "vendor", "Hand Corrected Ltd")
        write_batch_sheet(store, tmp_path / "sheet.xlsx")
        write_batch_sheet(store, tmp_path / "sheet.csv")
    rows = [[c.value for c in row] for row in load_workbook(tmp_path / "sheet.xlsx").active.iter_rows()]
    assert rows[0][:2] == ["file", "vendor"] and len(rows) == 1 + 4  # the header, four receipts
    by_file = {Path(r[0]).name: r for r in rows[1:]}
    assert by_file["clean.png"][1] == "Hand Corrected Ltd"
    assert by_file["glass.png (receipt 1)"][1] == truth["glass"][0]["vendor"]
    assert by_file["glass.png (receipt 2)"][1] == truth["glass"][1]["vendor"]
    assert by_file["glass.png (receipt 2)"][6] == float(truth["glass"][1]["total"])  # amounts as numbers
    with open(tmp_path / "sheet.csv", encoding="utf-8-sig", newline="") as handle:
        assert [Path(r["file"]).name for r in csv.DictReader(handle)] == [Path(r[0]).name for r in rows[1:]]


# The Batch tab -----------------------------------------------------------------------------------
def test_rows_carry_vendor_date_total_flags_and_receipts_and_sort_by_value(qtbot, offline, batch) -> None:
    folder, truth = batch
    panel = _open_batch(qtbot, offline, folder)
    assert _cell(panel, "clean.png", VENDOR) == truth["clean"]["vendor"]
    assert _cell(panel, "clean.png", DATE) == truth["clean"]["date"]
    assert _cell(panel, "clean.png", TOTAL) == truth["clean"]["total"]
    assert _cell(panel, "clean.png", FLAGS) == "" and int(_cell(panel, "poor.png", FLAGS)) >= 2
    assert _cell(panel, "glass.png", RECEIPTS) == "2" and _cell(panel, "clean.png", RECEIPTS) == "1"
    assert _cell(panel, "glass.png", VENDOR).startswith("2 receipts: ")  # a page with several says so
    glass_total = float(truth["glass"][0]["total"]) + float(truth["glass"][1]["total"])
    assert float(_cell(panel, "glass.png", TOTAL)) == pytest.approx(glass_total)

    def shown(column: int) -> list[str]:
        return [panel.proxy.index(r, column).data() for r in range(panel.proxy.rowCount())]

    panel.table.sortByColumn(TOTAL, Qt.SortOrder.AscendingOrder)
    totals = [float(t) for t in shown(TOTAL)]
    assert totals == sorted(totals)  # as numbers: "848.51" before "1074.83"
    panel.table.sortByColumn(DATE, Qt.SortOrder.DescendingOrder)
    dates = shown(DATE)
    assert dates == sorted(dates, reverse=True)  # ISO dates: text order is time order
    panel.table.sortByColumn(FLAGS, Qt.SortOrder.DescendingOrder)
    assert shown(0)[0] == "poor.png"


def test_keyboard_walk_accept_correct_undo_and_check(qtbot, offline, batch) -> None:
    folder, _ = batch
    panel = _open_batch(qtbot, offline, folder)
    panel.show()
    qtbot.waitExposed(panel)
    store = panel.store()
    queue = panel.review.queue
    total = queue.remaining
    assert total >= 2 and panel.review_bar.position.text() == f"1 of {total} to check"
    panel.review_step(1)
    assert panel.review_bar.position.text() == f"2 of {total} to check"
    panel.review_step(-1)
    item = queue.current
    page_id = item.receipt[0]
    assert panel.table.currentIndex().data() == "poor.png"  # the row of the field under review
    qtbot.waitUntil(panel.review_bar.value.hasFocus)
    assert panel.review_bar.value.selectedText() == item.value  # typing replaces it

    QTest.keyClick(panel.review_bar.value, Qt.Key.Key_Return)  # Enter: accepted as read
    qtbot.waitUntil(lambda: queue.remaining == total - 1, timeout=WAIT_MS)
    assert store.field_edits()[page_id] == {item.name: item.value}
    assert panel.review_bar.position.text() == f"1 of {total - 1} to check"

    second = queue.current
    QTest.keyClicks(panel.review_bar.value, "Typed By Hand")  # the value was selected: replaced
    QTest.keyClick(panel.review_bar.value, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: queue.remaining == total - 2, timeout=WAIT_MS)
    assert store.field_edits()[page_id][second.name] == "Typed By Hand"
    assert panel.review.undo_stack.undoText().startswith("correction of ")

    panel.review.undo_stack.undo()  # the correction is removed: the field is back in the queue
    qtbot.waitUntil(lambda: queue.remaining == total - 1, timeout=WAIT_MS)
    assert second.name not in store.field_edits()[page_id]
    panel.review.undo_stack.redo()
    qtbot.waitUntil(lambda: queue.remaining == total - 2, timeout=WAIT_MS)
    assert store.field_edits()[page_id][second.name] == "Typed By Hand"

    panel.toggle_checked()  # Ctrl+M in the window; the selected row is the poor receipt's
    qtbot.waitUntil(lambda: queue.remaining == 0, timeout=WAIT_MS)
    assert store.checked_receipts() == {(page_id, 0)}
    assert _cell(panel, "poor.png", CHECKED) == "\u2713" and panel.review_bar.checked_button.isChecked()
    assert panel.review_bar.position.text() == "Nothing to check"


def test_the_walk_follows_the_table_as_sorted_on_screen(qtbot, offline, tmp_path: Path) -> None:
    folder, sources = tmp_path / "batch", tmp_path / "in"
    sources.mkdir()
    with BatchStore(folder / STORE_NAME) as store:
        for n, name in enumerate(("a_poor.png", "b_poor.png", "c_poor.png")):
            path = sources / name
            path.write_bytes(b"stored image " + name.encode())
            record = store.add_files([path])[0]
            store.save_page(record, 0, _low(perfect_page(render_en_invoice(n).doc, name)))
            store.mark_done(record, 1)
    panel = _open_batch(qtbot, offline, folder)

    def walked() -> list[str]:
        names = []
        for _ in range(panel.review.queue.remaining):
            panel.review_step(1)
            names.append(panel.table.currentIndex().siblingAtColumn(0).data())
        return list(dict.fromkeys(names))  # each file once, in the order first reached

    assert walked() == ["a_poor.png", "b_poor.png", "c_poor.png"]  # the store's order, from a's fields
    panel.table.sortByColumn(0, Qt.SortOrder.DescendingOrder)  # the clerk sorts by file name, Z-A
    # the walk goes on from the field under review (a's, now the bottom row), then wraps to the top
    assert walked() == ["a_poor.png", "c_poor.png", "b_poor.png"]


def test_checked_marks_and_edits_are_there_after_a_restart(qtbot, offline, batch, tmp_path: Path) -> None:
    folder, _ = batch
    panel = _open_batch(qtbot, offline, folder)
    row = next(r for r in range(panel.proxy.rowCount()) if panel.proxy.index(r, 0).data() == "glass.png")
    panel.table.setCurrentIndex(panel.proxy.index(row, 0))
    panel.toggle_checked()  # the Checked button's slot: both receipts of the glass page
    qtbot.waitUntil(lambda: _cell(panel, "glass.png", CHECKED) == "\u2713", timeout=WAIT_MS)
    panel.shutdown()

    copy = tmp_path / "copied-batch"  # the same folder, read by a new app
    shutil.copytree(folder, copy)
    again = _open_batch(qtbot, offline, copy)
    assert _cell(again, "glass.png", CHECKED) == "\u2713" and _cell(again, "poor.png", CHECKED) == ""
    with qtbot.waitSignal(again.export_finished, timeout=WAIT_MS) as written:
        again.export_sheet(tmp_path / "batch.csv")
    assert written.args[0] == [tmp_path / "batch.csv"]
    with open(tmp_path / "batch.csv", encoding="utf-8-sig", newline="") as handle:
        assert len(list(csv.DictReader(handle))) == 4
    again.shutdown()


def test_review_keys_and_undo_from_the_main_window(qtbot, batch, tmp_path: Path) -> None:
    from tests.helpers.gui_shell import main_window

    folder, _ = batch
    with main_window(qtbot, ["127.0.0.1:9"], tmp_path / "session", wait_ready=False) as window:
        panel = window.batch_panel
        with qtbot.waitSignal(panel.batch_finished, timeout=WAIT_MS):
            panel.start_batch([], folder=folder)
        qtbot.waitUntil(lambda: panel.review.queue.remaining >= 2, timeout=WAIT_MS)
        window.tabs.setCurrentIndex(0)
        actions = window.main_actions.actions
        assert actions["review_next"].shortcut().toString() == "F8"
        assert actions["review_previous"].shortcut().toString() == "Shift+F8"
        assert actions["review_checked"].shortcut().toString() == "Ctrl+M"
        keys = [k for a in actions.values() for k in a.shortcuts()] + window.history.undo.shortcuts()
        assert len({k.toString() for k in keys}) == len(keys)  # no key does two things
        actions["review_next"].trigger()
        assert window.tabs.currentWidget() is panel and panel.review_bar.position.text().startswith("2 of ")
        before = panel.review.queue.remaining
        panel.review_accept()
        qtbot.waitUntil(lambda: panel.review.queue.remaining == before - 1, timeout=WAIT_MS)
        assert window.history.undo.isEnabled() and "acceptance of" in window.history.undo.text()
        window.history.undo.trigger()  # Ctrl+Z on the Batch tab undoes the review's step
        qtbot.waitUntil(lambda: panel.review.queue.remaining == before, timeout=WAIT_MS)
        window.tabs.setCurrentIndex(0)
        assert not window.history.undo.isEnabled()  # the Document tab's own history: nothing yet
        rows = dict(window_shortcut_rows(window))
        assert rows["Next field to check"] == "F8" and rows["Mark receipt as checked"] == "Ctrl+M"


def window_shortcut_rows(window) -> list[tuple[str, str]]:
    """What Help > Keyboard shortcuts lists."""
    window.show_shortcuts()
    table = window._shortcuts_page.table
    rows = [(table.item(r, 0).text(), table.item(r, 1).text()) for r in range(table.rowCount())]
    window._shortcuts_page.close()
    return rows


# Against the real server ------------------------------------------------------------------------
def test_real_receipts_fill_the_columns_and_the_sheet(qtbot, connection, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(REPO / "resources" / "samples" / "invoice.png", folder / "invoice.png")
    for name in ("000", "001"):
        shutil.copy(SROIE / f"{name}.jpg", folder / f"sroie-{name}.jpg")
    panel = BatchPanel(connection)
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.batch_finished, timeout=300_000) as finished:
        panel.start_batch([folder], folder=tmp_path / "batch")
    assert len(finished.args[0].ok) == 3
    qtbot.waitUntil(lambda: all(r.review is not None for r in panel._book.rows), timeout=WAIT_MS)
    for name in ("invoice.png", "sroie-000.jpg", "sroie-001.jpg"):
        assert _cell(panel, name, VENDOR) and _cell(panel, name, RECEIPTS) == "1"
        assert float(_cell(panel, name, TOTAL)) > 0
    reviews = load_reviews(panel.store())
    expected_flags = sum(len(r.items()) for r in reviews)
    assert panel.review.queue.remaining == expected_flags
    shown = sum(int(_cell(panel, n, FLAGS) or 0) for n in ("invoice.png", "sroie-000.jpg", "sroie-001.jpg"))
    assert shown == expected_flags
    with qtbot.waitSignal(panel.export_finished, timeout=WAIT_MS):
        panel.export_sheet(tmp_path / "sheet.xlsx")
    from openpyxl import load_workbook

    sheet = list(load_workbook(tmp_path / "sheet.xlsx").active.iter_rows(values_only=True))
    assert len(sheet) == 4 and {Path(r[0]).name for r in sheet[1:]} == {"invoice.png", "sroie-000.jpg",
                                                                         "sroie-001.jpg"}  # fmt: skip
    assert panel.model.index(0, 0).parent() == QModelIndex()
