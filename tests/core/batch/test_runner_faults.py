"""BatchRunner's edge cases with fake recognisers: no server needed."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import pytest

from scanner_app.core.batch import runner as batch_mod
from scanner_app.core.batch.events import (
    PageDone,
    RunStopped,
    ServerWaiting,
)
from scanner_app.core.batch.runner import BatchRunner, run_batch
from scanner_app.core.errors import InvalidImage, ServerContractError, ServerTimeout, ServerUnavailable
from scanner_app.core.results import PageResult
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore
from scanner_app.samples.documents import render_text_lines
from tests.helpers.batch import Recorder, fake_page, line_images


# Fakes: no server --------------------------------------------------------------------------------
@pytest.fixture
def three(tmp_path: Path) -> tuple[BatchStore, list[Path]]:
    line_images(tmp_path / "in", 3)
    paths = sorted((tmp_path / "in").iterdir())
    with BatchStore(tmp_path / "out" / STORE_NAME) as store:
        store.add_files(paths)
        yield store, paths


def test_server_gone_too_long_stops_cleanly_and_leaves_files_queued(three) -> None:
    store, _paths = three
    calls = []

    def down(data: bytes, name: str) -> PageResult:
        calls.append(name)
        raise ServerUnavailable("server 127.0.0.1:1 is unavailable: connection refused")

    events = Recorder()
    summary = BatchRunner(store, down, jobs=2, on_event=events, patience_s=0.6, first_backoff_s=0.05).run()
    assert summary.stopped and "server unavailable" in summary.stopped
    assert len(summary.pending) == 3 and summary.failed == () and summary.ok == ()
    assert [f.state for f in store.files()] == ["queued"] * 3
    assert len(events.of(RunStopped)) == 1 and len(events.of(ServerWaiting)) >= 2
    waits = [e.retry_in for e in events.of(ServerWaiting)]
    assert max(waits) > min(waits)  # backoff grows

    flaky = iter([True, True])

    def back(data: bytes, name: str) -> PageResult:
        if next(flaky, False):
            raise ServerUnavailable("still starting")
        return fake_page(data, name)

    events = Recorder()
    summary = BatchRunner(store, back, jobs=1, on_event=events, first_backoff_s=0.01).run()
    assert summary.stopped is None and len(summary.ok) == 3 and summary.pages_sent == 3
    assert [e.attempt for e in events.of(ServerWaiting)] == [1, 2]


def test_invalid_image_fails_that_file_only(three) -> None:
    store, _paths = three

    def picky(data: bytes, name: str) -> PageResult:
        if "line001" in name:
            raise InvalidImage("image decode failed: broken stream")
        return fake_page(data, name)

    summary = BatchRunner(store, picky, jobs=2).run()
    assert [p.name for p in summary.ok] == ["line000.png", "line002.png"]
    assert [(p.name, "broken stream" in why) for p, why in summary.failed] == [("line001.png", True)]
    assert store.file(store.files()[1]).state == "failed"


def test_boxes_mapped_back_by_scale(three, monkeypatch: pytest.MonkeyPatch) -> None:
    store, paths = three
    real = batch_mod.images.encode_for_wire

    def halved(page):
        wire = real(page)
        return dataclasses.replace(wire, width=wire.width // 2, height=wire.height // 2, scale=2.0)

    monkeypatch.setattr(batch_mod.images, "encode_for_wire", halved)
    BatchRunner(store, fake_page, jobs=1).run()
    page = store.pages(store.files()[0])[0]
    assert page.result.lines[0].box == ((2.0, 4.0), (22.0, 4.0), (22.0, 12.0), (2.0, 12.0))
    from PIL import Image

    assert (page.result.width, page.result.height) == Image.open(paths[0]).size


def test_server_without_pipeline_stops_the_run(three) -> None:
    store, _ = three

    def wrong(data: bytes, name: str) -> PageResult:
        raise ServerContractError("server x has no model ocr_pipeline")

    events = Recorder()
    summary = BatchRunner(store, wrong, jobs=2, on_event=events).run()
    assert summary.stopped == "server x has no model ocr_pipeline"
    assert events.of(RunStopped) == [RunStopped(summary.stopped)]
    assert [f.state for f in store.files()] == ["queued"] * 3 and summary.failed == ()


def test_output_folder_inside_input_is_not_read(tmp_path: Path) -> None:
    line_images(tmp_path, 2)
    out = tmp_path / "results"
    out.mkdir()
    (out / "export.png").write_bytes(b"an export, not an input")
    first = run_batch([tmp_path], out, fake_page, jobs=1)
    again = run_batch([tmp_path], out, fake_page, jobs=1)
    for summary in (first, again):
        assert [p.name for p in summary.ok] == ["line000.png", "line001.png"]
        assert [(p.name, why) for p, why in summary.skipped] == [("export.png", "inside the output folder")]
    assert (first.pages_sent, again.pages_sent) == (2, 0)
    fresh = run_batch([tmp_path], out, fake_page, jobs=1, resume=False)
    assert fresh.pages_sent == 2


def test_page_that_always_times_out_fails_its_file_only(three) -> None:
    store, _ = three

    def slow_on_one(data: bytes, name: str) -> PageResult:
        if name == "line001.png":
            raise ServerTimeout("server x: deadline exceeded")
        time.sleep(0.05)
        return fake_page(data, name)

    summary = BatchRunner(store, slow_on_one, jobs=2, first_backoff_s=0.05).run()
    assert summary.stopped is None
    assert [p.name for p in summary.ok] == ["line000.png", "line002.png"]
    assert [(p.name, "timed out 3 times" in why) for p, why in summary.failed] == [("line001.png", True)]


def test_multi_page_file_resumes_at_the_first_page_not_stored(tmp_path: Path) -> None:
    pages = [render_text_lines([f"Page {i} of the report"], seed=i).image for i in range(5)]
    pages[0].save(tmp_path / "report.tif", save_all=True, append_images=pages[1:])
    sent: list[str] = []

    def recognize(data: bytes, name: str) -> PageResult:
        sent.append(name)
        return fake_page(data, name)

    with BatchStore(tmp_path / "out" / STORE_NAME) as store:
        (record,) = store.add_files([tmp_path / "report.tif"])
        runner = BatchRunner(store, recognize, jobs=1)
        runner.on_event = lambda e: runner.cancel() if isinstance(e, PageDone) and e.index == 1 else None
        assert runner.run().stopped == "cancelled"
        assert store.page_indexes(record) == {0, 1} and store.file(record).state == "queued"
        assert store.file(record).pages == 5
        summary = BatchRunner(store, recognize, jobs=2).run()
        assert summary.stopped is None and summary.pages_sent == 3
        assert sent[:2] == ["report.tif#p1", "report.tif#p2"]
        assert sorted(sent[2:]) == ["report.tif#p3", "report.tif#p4", "report.tif#p5"]
        assert [p.index for p in store.pages(record)] == [0, 1, 2, 3, 4]
        assert store.file(record).state == "done"
