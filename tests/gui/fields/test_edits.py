"""Field and line edits live in the store: a reopened page shows them, every export carries them.

The page's result is stored beforehand (as a batch would have left it), so no server is needed:
opening a stored page shows the stored result.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from scanner_app.core.batch.export import export_store
from scanner_app.core.batch.fields import batch_rows
from scanner_app.core.batch.review import load_reviews
from scanner_app.core.export.fields_sheet import FIELDS_CSV
from scanner_app.core.store.batch_store import BatchStore
from scanner_app.gui.connection.link import ServerConnection
from scanner_app.gui.document.controller import DocumentController
from scanner_app.gui.document.model import DocumentModel
from scanner_app.gui.document.session_folder import SessionFolder
from scanner_app.gui.fields.panel import FieldsPanel
from scanner_app.samples.invoices import perfect_page, render_en_invoice

WAIT_MS = 30_000
EDITED = "Hand Corrected Trading Ltd"


@pytest.fixture
def stored(tmp_path: Path):
    invoice = render_en_invoice(3)
    path = tmp_path / "en-3.png"
    invoice.doc.image.save(path)
    store = BatchStore(tmp_path / "batch" / "scanner-app.sqlite")
    record = store.add_files([path])[0]
    store.save_page(record, 0, perfect_page(invoice.doc, path.name))
    store.mark_done(record, 1)
    yield store, path, invoice
    store.close()


def _open(qtbot, tmp_path: Path, store: BatchStore, path: Path):
    """A document, its fields panel and controller (as a main window has them), showing ``path``."""
    document = DocumentModel()
    panel = FieldsPanel(document)
    qtbot.addWidget(panel)
    connection = ServerConnection(urls=["127.0.0.1:9"], start_embedded_if_unconfigured=False)  # never started
    controller = DocumentController(document, connection, SessionFolder(tmp_path / "session"))
    with qtbot.waitSignal(controller.recognized, timeout=WAIT_MS):
        controller.open_path(path, 0, store)
    qtbot.waitUntil(lambda: panel.fields.value("total") != "", timeout=WAIT_MS)
    return document, panel, controller


def test_a_field_edit_survives_reopening_and_reaches_every_sheet(qtbot, stored, tmp_path: Path) -> None:
    store, path, invoice = stored
    document, panel, controller = _open(qtbot, tmp_path, store, path)
    assert panel.fields.value("vendor") == invoice.truth["vendor"] != EDITED
    with qtbot.waitSignal(document.field_edited, timeout=WAIT_MS):
        panel.edit_field("vendor", EDITED)
    controller.shutdown()

    _, reopened, again = _open(qtbot, tmp_path, store, path)  # a new window on the same store
    qtbot.waitUntil(lambda: reopened.fields.value("vendor") == EDITED, timeout=WAIT_MS)
    assert reopened.fields.get("vendor").edited
    assert reopened.fields.value("total") == invoice.truth["total"]  # the other fields are re-read

    with qtbot.waitSignal(reopened.exported, timeout=WAIT_MS):
        reopened.export_to(tmp_path / "page.csv")
    with open(tmp_path / "page.csv", encoding="utf-8-sig", newline="") as handle:
        assert [row["vendor"] for row in csv.DictReader(handle)] == [EDITED]
    assert [row.fields.value("vendor") for row in batch_rows(store)] == [EDITED]  # the batch's sheet
    written = export_store(store, tmp_path / "cli", ["csv", "json"], fields=True)  # scan --fields, Batch tab
    with open(tmp_path / "cli" / FIELDS_CSV, encoding="utf-8-sig", newline="") as handle:
        assert [row["vendor"] for row in csv.DictReader(handle)] == [EDITED]
    assert any(EDITED in p.read_text(encoding="utf-8") for p in written if p.suffix == ".json")
    assert load_reviews(store)[0].fields.value("vendor") == EDITED  # the Batch tab's columns and sheet
    again.shutdown()


def test_the_batch_review_stores_its_corrections(qtbot, stored) -> None:
    from scanner_app.core.batch.review import ReviewItem
    from scanner_app.gui.review.session import ReviewSession

    store, _, invoice = stored
    session = ReviewSession()
    with qtbot.waitSignal(session.changed, timeout=WAIT_MS):
        session.load(store)
    receipt = session.queue.reviews[0]
    total = receipt.fields.get("total")
    # the perfect page has nothing to check: put its total in the queue as a doubtful read would
    session.queue.items = [ReviewItem(receipt.key, "total", ("low_confidence",), total.value, 0.5)]
    with qtbot.waitSignal(session.changed, timeout=WAIT_MS):
        assert session.correct("0.01")  # the Batch tab's review row: typed, then Enter
    assert list(store.field_edits().values()) == [{"total": "0.01"}]
    assert batch_rows(store)[0].fields.value("total") == "0.01" != invoice.truth["total"]


def test_an_export_right_after_a_line_edit_holds_the_edit(qtbot, stored, tmp_path: Path) -> None:
    store, path, _ = stored
    document, _, controller = _open(qtbot, tmp_path, store, path)
    original = document.page.lines[0].text
    with qtbot.waitSignal(controller.exported, timeout=WAIT_MS) as exported:
        document.edit_line(0, "EDITED FIRST LINE")
        controller.export_current(tmp_path / "out", ["txt"])  # queued behind the edit, never beside it
    text = next(p for p in exported.args[0] if p.suffix == ".txt").read_text(encoding="utf-8")
    assert "EDITED FIRST LINE" in text and original not in text
    controller.shutdown()
