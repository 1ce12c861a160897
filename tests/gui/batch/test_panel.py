"""BatchPanel against the real embedded Triton: a folder to the end, pause/resume, cancel, export, down."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, QSettings, QStandardPaths, Qt

from scanner_app.core.batch.events import FileDone, FileFailed, FileStarted, PageDone, Progress
from scanner_app.core.results import PageResult, TextLine
from scanner_app.core.store.batch_store import BatchStore, FileRecord
from scanner_app.gui.batch.panel import BatchPanel, batches_root, new_batch_folder
from scanner_app.gui.batch.rows import RowBook
from scanner_app.gui.batch.table_model import PATH_ROLE, STATE_ROLE, BatchTableModel
from scanner_app.gui.connection.link import ServerConnection
from scanner_app.samples.documents import distinct_receipts, encode
from scanner_app.server.ports import free_port

CORRUPT = "zz-broken.png"


def receipts_folder(folder: Path, n: int, corrupt: bool = False, seed: int = 0) -> Path:
    folder.mkdir(parents=True)
    for i, doc in enumerate(distinct_receipts(n, seed=seed)):
        (folder / f"receipt{i:02d}.png").write_bytes(encode(doc.image))
    if corrupt:
        (folder / CORRUPT).write_bytes(b"\x89PNG\r\n\x1a\n" + b"not really an image" * 10)
    (folder / "notes.txt").write_text("not an image")  # skipped, not a row
    return folder


def make_panel(qtbot, connection: ServerConnection, jobs: int) -> BatchPanel:
    panel = BatchPanel(connection)
    qtbot.addWidget(panel)
    panel.jobs_spin.setValue(jobs)
    return panel


# Qt-free rows and the model ---------------------------------------------------------------------


def _record(i: int) -> FileRecord:
    return FileRecord(i, Path(f"/in/f{i:04d}.png"), "", 1, 0.0, None, "queued", None, 0.0)


def _page(lines: int) -> PageResult:
    line = TextLine(((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)), "x", 0.9)
    return PageResult("p", 10, 10, (line,) * lines, 12.5)


def test_row_book_folds_events_into_rows() -> None:
    book = RowBook()
    book.load([_record(1), _record(2)])
    assert book.apply(FileStarted(2, Path("/in/f0002.png"))) == 1
    assert book.apply(PageDone(2, Path("/in/f0002.png"), 0, 2, _page(3))) == 1
    assert book.rows[1].state == "running" and book.rows[1].pages_done == 1 and book.rows[1].lines == 3
    book.apply(FileFailed(1, Path("/in/f0001.png"), "f0001.png: truncated"))
    assert book.apply(Progress(0, 1, 2, 1, 3, 2.0)) is None
    assert (book.rows[0].state, book.rows[0].cause) == ("failed", "f0001.png: truncated")
    assert book.totals.images_per_s == pytest.approx(0.5)
    book.requeue_unfinished()
    assert book.rows[1].state == "queued"


def test_thousand_rows_repaint_once_per_drain(qtbot) -> None:
    book = RowBook()
    book.load([_record(i) for i in range(1000)])
    model = BatchTableModel(book)
    changes = []
    model.dataChanged.connect(lambda top, bottom: changes.append((top.row(), bottom.row())))
    rows = {book.apply(FileDone(i, Path(f"/in/f{i:04d}.png"), 1)) for i in range(0, 1000, 3)}
    model.rows_changed(rows)
    assert changes == [(0, 999)]
    assert model.rowCount() == 1000 and model.data(model.index(999, 1), STATE_ROLE) == "done"
    assert model.data(model.index(5, 0)) == "f0005.png"


def test_batch_folders_go_under_app_data_or_the_chosen_folder(tmp_path: Path) -> None:
    QStandardPaths.setTestModeEnabled(True)
    app_data = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    assert batches_root() == Path(app_data) / "batches"
    QSettings().setValue("batch/folder", str(tmp_path))
    assert batches_root() == tmp_path
    first = new_batch_folder(tmp_path)
    first.mkdir()
    second = new_batch_folder(tmp_path)
    assert first != second and second.parent == tmp_path


# Against the real server ------------------------------------------------------------------------


def test_folder_runs_to_the_end_then_exports_and_opens_rows(qtbot, connection, tmp_path: Path) -> None:
    folder = receipts_folder(tmp_path / "in", 8, corrupt=True)
    panel = make_panel(qtbot, connection, jobs=4)
    with qtbot.waitSignal(panel.batch_finished, timeout=300_000) as finished:
        panel.start_batch([folder], folder=tmp_path / "batch")
    summary = finished.args[0]
    assert summary.stopped is None and len(summary.ok) == 8 and len(summary.failed) == 1
    rows = {row.path.name: row for row in panel._book.rows}
    assert len(rows) == 9 and "notes.txt" not in rows
    broken = rows.pop(CORRUPT)
    assert broken.state == "failed" and CORRUPT in broken.cause
    assert all(row.state == "done" and row.lines >= 5 and row.ms > 0 for row in rows.values())
    model = panel.model
    failed_row = next(r for r in range(model.rowCount()) if model.data(model.index(r, 0)) == CORRUPT)
    assert model.data(model.index(failed_row, 1)).startswith("failed: ")
    assert panel.progress.value() == panel.progress.maximum() == 9
    assert "images/s" in panel.status_label.text() and "1 skipped" in panel.status_label.text()
    assert (tmp_path / "batch" / "scanner-app.sqlite").is_file()
    assert panel.store() is not None and panel.store().summary().done == 8

    out = tmp_path / "export"
    with qtbot.waitSignal(panel.export_finished, timeout=120_000) as exported:
        panel.export_to(out, ["json", "csv", "txt"])
    written = exported.args[0]
    expected = {"results.json", "results.txt", "results_lines.csv", "results_files.csv"}
    assert {p.name for p in written} >= expected
    docs = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert len(json.dumps(docs)) > 1000 and CORRUPT in json.dumps(docs)

    panel.show()
    qtbot.waitExposed(panel)
    index = model.index(0, 0)
    rect = panel.table.visualRect(panel.proxy.mapFromSource(index))  # the table shows the sorting proxy
    viewport = panel.table.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=rect.center())  # Qt 6: a click first
    with qtbot.waitSignal(panel.open_requested) as opened:
        qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=rect.center())
    assert opened.args == [model.data(index, PATH_ROLE), 0]


def test_pause_then_resume(qtbot, connection, tmp_path: Path) -> None:
    folder = receipts_folder(tmp_path / "in", 4, seed=11)
    panel = make_panel(qtbot, connection, jobs=1)
    panel.start_batch([folder], folder=tmp_path / "batch")
    panel.pause()  # before the first page is sent: the run is paused from its start
    assert panel.resume_button.isEnabled() and not panel.pause_button.isEnabled()
    # prepared; the first file started, and its first page is held before it is sent
    started = lambda: panel.model.rowCount() == 4 and any(r.state == "running" for r in panel._book.rows)  # noqa: E731
    qtbot.waitUntil(started, timeout=120_000)
    with qtbot.assertNotEmitted(panel.model.dataChanged, wait=3000):
        pass  # no page comes back: none was sent
    assert panel.totals.pages_sent == 0 and "Paused" in panel.status_label.text()
    with qtbot.waitSignal(panel.batch_finished, timeout=300_000) as finished:
        panel.resume()
    assert len(finished.args[0].ok) == 4 and finished.args[0].stopped is None


def test_cancel_stops_and_continue_finishes(qtbot, connection, tmp_path: Path) -> None:
    folder = receipts_folder(tmp_path / "in", 5, seed=21)
    panel = make_panel(qtbot, connection, jobs=1)
    panel.start_batch([folder], folder=tmp_path / "batch")
    qtbot.waitUntil(lambda: panel.totals.pages_sent >= 1, timeout=120_000)
    with qtbot.waitSignal(panel.batch_finished, timeout=120_000) as finished:
        panel.cancel()
    summary = finished.args[0]
    assert summary.stopped == "cancelled" and summary.pending and len(summary.ok) < 5
    assert not panel.running and panel.continue_button.isEnabled()
    assert sum(row.state == "queued" for row in panel._book.rows) == len(summary.pending)
    with qtbot.waitSignal(panel.batch_finished, timeout=300_000) as again:
        panel.continue_batch()
    assert len(again.args[0].ok) == 5 and again.args[0].pages_sent == len(summary.pending)


def test_server_down_waits_and_reports_without_freezing(qtbot, tmp_path: Path) -> None:
    url = f"127.0.0.1:{free_port()}"
    folder = receipts_folder(tmp_path / "in", 2, seed=31)
    conn = ServerConnection(urls=[url], start_embedded_if_unconfigured=False)
    panel = make_panel(qtbot, conn, jobs=2)
    try:
        conn.start()
        qtbot.waitUntil(lambda: conn.state.status == "down", timeout=30_000)
        assert url in conn.state.message
        panel.start_batch([folder], folder=tmp_path / "batch")
        qtbot.waitUntil(lambda: "Server unavailable" in panel.status_label.text(), timeout=30_000)
        assert url in panel.status_label.text()
        assert all(row.state in ("queued", "running") for row in panel._book.rows)
        with qtbot.waitSignal(panel.batch_finished, timeout=30_000) as finished:
            panel.cancel()
        assert finished.args[0].stopped == "cancelled" and len(finished.args[0].pending) == 2
    finally:
        conn.shutdown()


def test_start_while_running_is_refused(qtbot, connection, tmp_path: Path) -> None:
    panel = make_panel(qtbot, connection, jobs=1)
    panel.start_batch([receipts_folder(tmp_path / "a", 2, seed=41)], folder=tmp_path / "batch-a")
    panel.start_batch([tmp_path / "a"], folder=tmp_path / "batch-b")
    assert "running" in panel.status_label.text() and panel.folder == tmp_path / "batch-a"
    with qtbot.waitSignal(panel.batch_finished, timeout=120_000):
        panel.cancel()
    assert panel.model.rowCount(QModelIndex()) == 2


def test_shutdown_cancels_a_running_batch_and_keeps_what_was_read(qtbot, connection, tmp_path: Path) -> None:
    panel = make_panel(qtbot, connection, jobs=1)
    panel.start_batch([receipts_folder(tmp_path / "in", 3, seed=51)], folder=tmp_path / "batch")
    qtbot.waitUntil(lambda: panel.totals.pages_sent >= 1, timeout=120_000)
    panel.shutdown(timeout_s=60)
    assert not panel.running and panel.store() is None
    with BatchStore(tmp_path / "batch" / "scanner-app.sqlite") as store:
        summary = store.summary()
    assert summary.done >= 1 and summary.queued + summary.done == 3 and summary.running == 0
