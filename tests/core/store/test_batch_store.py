"""BatchStore: SQLite in WAL mode, one stored result per page, content hashes, edits."""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

import pytest

from scanner_app.core.results import PageResult, TextLine
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore


def _page(name: str, *texts: str) -> PageResult:
    lines = tuple(
        TextLine(box=((0.0, i * 10.0), (50.0, i * 10.0), (50.0, i * 10 + 8.0), (0.0, i * 10 + 8.0)), text=t,
                 score=0.9)
        for i, t in enumerate(texts)
    )  # fmt: skip
    return PageResult(image=name, width=100, height=100, lines=lines, elapsed_ms=12.5)


@pytest.fixture
def store(tmp_path: Path) -> BatchStore:
    with BatchStore(tmp_path / "out" / STORE_NAME) as s:
        yield s


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    paths = []
    for i in range(3):
        path = tmp_path / f"in{i}.png"
        path.write_bytes(f"image {i}".encode())
        paths.append(path)
    return paths


def test_wal_mode_and_schema(store: BatchStore) -> None:
    assert store.journal_mode() == "wal"
    db = sqlite3.connect(store.path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"files", "pages", "edits"} <= tables
    db.close()


def test_add_files_queues_and_records(store: BatchStore, files: list[Path]) -> None:
    records = store.add_files(files)
    assert [r.path for r in records] == [p.absolute() for p in files]
    assert [r.size for r in records] == [len(p.read_bytes()) for p in files]
    assert all(r.state == "queued" for r in records)
    assert len({r.sha256 for r in records}) == 3
    assert [r.id for r in store.pending()] == [r.id for r in records]


def test_save_page_upserts_without_duplicates(store: BatchStore, files: list[Path]) -> None:
    rec = store.add_files(files[:1])[0]
    first = store.save_page(rec, 0, _page("a", "one"))
    again = store.save_page(rec, 0, _page("a", "uno", "dos"))
    store.save_page(rec, 1, _page("a#2", "two"))
    assert first == again
    pages = store.pages(rec)
    assert [p.index for p in pages] == [0, 1]
    assert pages[0].result.text == "uno\ndos"
    assert store.summary().pages == 2 and store.summary().lines == 3


def test_unchanged_done_file_not_queued_again(store: BatchStore, files: list[Path]) -> None:
    rec = store.add_files(files[:1])[0]
    store.save_page(rec, 0, _page("a", "one"))
    store.mark_done(rec, pages=1)
    again = store.add_files(files[:1])[0]
    assert again.id == rec.id and again.state == "done"
    assert store.pending() == []
    assert len(store.pages(rec)) == 1


def test_copy_with_done_content_is_not_sent(store: BatchStore, files: list[Path], tmp_path: Path) -> None:
    rec = store.add_files(files[:1])[0]
    store.save_page(rec, 0, _page("a", "one"))
    store.mark_done(rec, pages=1)
    copy = tmp_path / "copy.png"
    copy.write_bytes(files[0].read_bytes())
    twin = store.add_files([copy])[0]
    assert twin.state == "done" and twin.pages == 1 and twin.id != rec.id
    assert store.pages(twin)[0].result.text == "one"
    assert store.pending() == []


def test_changed_file_requeued_and_pages_replaced(store: BatchStore, files: list[Path]) -> None:
    rec = store.add_files(files[:1])[0]
    store.save_page(rec, 0, _page("a", "old"))
    store.save_page(rec, 1, _page("a", "old 2"))
    store.mark_done(rec, pages=2)
    files[0].write_bytes(b"new content")
    os.utime(files[0], (1e9, 1e9))  # a time of its own even on a coarse clock
    again = store.add_files(files[:1])[0]
    assert again.id == rec.id and again.state == "queued" and again.sha256 != rec.sha256
    assert again.pages is None
    assert store.pages(rec) == []


def test_failed_file_keeps_cause_and_stays_failed(store: BatchStore, files: list[Path]) -> None:
    rec = store.add_files(files[:1])[0]
    store.mark_running(rec)
    store.mark_failed(rec, "in0.png: not an image")
    assert store.add_files(files[:1])[0].state == "failed"
    assert store.file(rec).error == "in0.png: not an image"
    assert store.requeue_failed() == 1
    assert store.file(rec).state == "queued" and store.file(rec).error is None


def test_edits_keep_original(store: BatchStore, files: list[Path]) -> None:
    rec = store.add_files(files[:1])[0]
    page_id = store.save_page(rec, 0, _page("a", "Tota1 5.00", "Thanks"))
    page = store.edit_line(page_id, 0, "Total 5.00")
    assert page.effective_text == "Total 5.00\nThanks"
    assert page.result.lines[0].text == "Tota1 5.00"
    assert page.edits[0].original == "Tota1 5.00" and page.edits[0].edited == "Total 5.00"
    page = store.edit_line(page, 0, "Total 6.00")
    assert len(page.edits) == 1 and page.effective_text.startswith("Total 6.00")
    assert store.edit_line(page, 0, "Tota1 5.00").edits == ()
    with pytest.raises(IndexError):
        store.edit_line(page, 5, "x")
    results = store.results()
    assert [r.file.id for r in results] == [rec.id]
    assert results[0].pages[0].id == page_id


def test_reset_running(store: BatchStore, files: list[Path]) -> None:
    recs = store.add_files(files)
    store.mark_running(recs[0])
    store.mark_running(recs[1])
    store.mark_done(recs[1])
    assert store.summary().running == 1
    assert store.reset_running() == 1
    assert [r.id for r in store.pending()] == [recs[0].id, recs[2].id]
    summary = store.summary()
    assert (summary.queued, summary.running, summary.done, summary.failed) == (2, 0, 1, 0)


def test_reopen_and_threads(tmp_path: Path, files: list[Path]) -> None:
    path = tmp_path / STORE_NAME
    with BatchStore(path) as store:
        rec = store.add_files(files[:1])[0]

        def save(i: int) -> None:
            store.save_page(rec, i, _page(f"p{i}", f"line {i}"))

        threads = [threading.Thread(target=save, args=(i,)) for i in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    with BatchStore(path) as store:
        assert store.page_indexes(rec) == set(range(20))
        assert store.summary().pages == 20
