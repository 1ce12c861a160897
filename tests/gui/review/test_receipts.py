"""The review queue on a glass page (#14 with #11's per-receipt edits): accepting or correcting a
field of one of several receipts stores it for that receipt only, takes it out of the queue and
reaches that receipt's sheet row; the sheet written from the app carries the UI language's headers.

The page is stored beforehand (as a finished batch leaves it): the review reads only the store, so
no server is needed.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from scanner_app.core.batch.review import ReviewQueue, load_reviews, write_batch_sheet
from scanner_app.core.export.reimbursement import COLUMNS
from scanner_app.core.results import PageResult, Receipt, TextLine
from scanner_app.core.store.batch_store import BatchStore
from tests.gui.i18n.test_translators import core_catalogue  # noqa: F401  (a fixture: a real compiled CoreText catalogue)

WAIT_MS = 30_000
HEADERS = tuple(f"col {c}" for c in COLUMNS)


def _glass_page(score: float = 0.7) -> PageResult:
    """Two receipts side by side, read poorly (every line ``score``: vendor and date flagged), whose
    net + tax is not their total (net, tax and total fail the check)."""
    texts = ("LEFT MART SDN BHD", "DATE 01/02/2018", "SUBTOTAL 10.00", "TAX 1.00", "TOTAL 12.50")
    texts += ("RIGHT CAFE SDN BHD", "DATE 03/04/2018", "SUBTOTAL 90.00", "TAX 5.00", "TOTAL 99.00")
    lines = tuple(
        TextLine(((x, y), (x + 300, y), (x + 300, y + 30), (x, y + 30)), text, score)
        for x, y, text in ((20 + 500 * (i // 5), 20 + 60 * (i % 5), t) for i, t in enumerate(texts))
    )
    left = ((0.0, 0.0), (400.0, 0.0), (400.0, 400.0), (0.0, 400.0))
    right = tuple((x + 500, y) for x, y in left)
    receipts = (Receipt(left, tuple(range(5))), Receipt(right, tuple(range(5, 10))))
    return PageResult("glass.jpg", 1000, 400, lines, receipts=receipts)


@pytest.fixture
def glass_store(tmp_path: Path):
    (tmp_path / "glass.jpg").write_bytes(b"stored image")  # never read: the page is stored
    with BatchStore(tmp_path / "store.sqlite") as store:
        (record,) = store.add_files([tmp_path / "glass.jpg"])
        page_id = store.save_page(record, 0, _glass_page())
        store.mark_done(record, 1)
        yield store, page_id


def _rows(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return list(csv.reader(handle))


def _totals(rows: list[list[str]]) -> dict[str, str]:
    """File cell -> total cell of a sheet read back (header row first)."""
    return {Path(r[0]).name: r[COLUMNS.index("total")] for r in rows[1:]}


def _open(queue: ReviewQueue, receipt: tuple[int, int], name: str) -> bool:
    return any(i.receipt == receipt and i.name == name for i in queue.items)


# Qt-free ---------------------------------------------------------------------------------------
def test_an_edit_of_receipt_2_leaves_the_queue_and_reaches_its_row_only(glass_store, tmp_path: Path) -> None:
    store, page_id = glass_store
    queue = ReviewQueue()
    queue.update(load_reviews(store))
    assert [r.receipt for r in queue.reviews] == [1, 2]
    assert _open(queue, (page_id, 1), "total") and _open(queue, (page_id, 2), "total")

    store.edit_field(page_id, "total", "95.00", receipt=2)  # as ReviewSession._set stores a correction
    queue.update(load_reviews(store))
    assert not _open(queue, (page_id, 2), "total")  # dealt with; net + tax = total now, so they too
    assert not _open(queue, (page_id, 2), "net") and _open(queue, (page_id, 2), "vendor")
    assert _open(queue, (page_id, 1), "total")  # receipt 1's total still needs a look
    assert queue.receipt((page_id, 2)).edited == frozenset({"total"})
    assert queue.receipt((page_id, 1)).edited == frozenset()
    assert store.field_edits() == {}  # nothing stored for the page as a whole

    rows = _rows(write_batch_sheet(store, tmp_path / "sheet.csv", headers=HEADERS))
    assert _totals(rows) == {"glass.jpg (receipt 1)": "12.50", "glass.jpg (receipt 2)": "95.00"}
    assert "total:net_tax_total" in rows[1][-1] and "total" not in rows[2][-1]  # the flags cell


def test_the_headers_given_are_the_sheets_first_row(glass_store, tmp_path: Path) -> None:
    from openpyxl import load_workbook

    store, _ = glass_store
    assert tuple(_rows(write_batch_sheet(store, tmp_path / "given.csv", headers=HEADERS))[0]) == HEADERS
    assert tuple(_rows(write_batch_sheet(store, tmp_path / "default.csv"))[0]) == COLUMNS  # the CLI's names
    book = load_workbook(write_batch_sheet(store, tmp_path / "given.xlsx", headers=HEADERS))
    assert tuple(c.value for c in book.active[1]) == HEADERS


# The GUI's session (Qt, no server) --------------------------------------------------------------
@pytest.fixture
def session(qtbot, glass_store):
    from scanner_app.gui.review.session import ReviewSession

    store, page_id = glass_store
    review = ReviewSession()
    failures: list[str] = []
    review.failed.connect(failures.append)
    review.load(store)
    qtbot.waitUntil(lambda: review.loaded, timeout=WAIT_MS)
    yield review, store, page_id, failures
    review.wait()


def _go_to(queue: ReviewQueue, receipt: tuple[int, int], name: str) -> None:
    queue.position = next(n for n, i in enumerate(queue.items) if i.receipt == receipt and i.name == name)


def test_the_session_stores_and_undoes_an_edit_of_one_of_several_receipts(qtbot, session) -> None:
    review, store, page_id, failures = session
    queue = review.queue
    _go_to(queue, (page_id, 2), "total")
    before = queue.remaining
    assert review.correct("98.00")  # still not net + tax: only the total leaves the queue
    qtbot.waitUntil(lambda: queue.remaining == before - 1, timeout=WAIT_MS)
    assert store.receipt_field_edits() == {page_id: {2: {"total": "98.00"}}} and store.field_edits() == {}
    assert not _open(queue, (page_id, 2), "total") and _open(queue, (page_id, 1), "total")
    assert queue.receipt((page_id, 2)).fields.value("total") == "98.00"
    assert queue.receipt((page_id, 1)).fields.value("total") == "12.50"

    _go_to(queue, (page_id, 2), "vendor")
    vendor = queue.current.value
    assert review.accept()  # as read
    qtbot.waitUntil(lambda: queue.remaining == before - 2, timeout=WAIT_MS)
    assert store.receipt_field_edits()[page_id][2] == {"total": "98.00", "vendor": vendor}

    review.undo_stack.undo()  # the acceptance is removed: the vendor is back in the queue
    qtbot.waitUntil(lambda: queue.remaining == before - 1, timeout=WAIT_MS)
    assert _open(queue, (page_id, 2), "vendor")
    review.undo_stack.undo()
    qtbot.waitUntil(lambda: queue.remaining == before, timeout=WAIT_MS)
    assert store.receipt_field_edits() == {} and _open(queue, (page_id, 2), "total")
    review.undo_stack.redo()  # and back again, for receipt 2 only
    qtbot.waitUntil(lambda: queue.remaining == before - 1, timeout=WAIT_MS)
    assert store.receipt_field_edits() == {page_id: {2: {"total": "98.00"}}}
    assert failures == []


@pytest.mark.usefixtures("core_catalogue")
def test_the_sheet_written_from_the_app_has_the_ui_languages_headers(qtbot, session, tmp_path: Path) -> None:
    from scanner_app.gui.i18n.core_text import sheet_headers

    review, _, _, failures = session
    headers = sheet_headers()
    assert headers[0] == "文件" and headers != COLUMNS  # the catalogue is in force
    with qtbot.waitSignal(review.sheet_written, timeout=WAIT_MS) as written:
        review.write_sheet(tmp_path / "sheet.csv")
    assert tuple(_rows(written.args[0])[0]) == headers
    assert failures == []
