"""The watched folder's pure logic: completeness checks, settling, output names, file system types.

No server and no threads: times are passed in, files are real files in tmp_path.
"""

from __future__ import annotations

import io
import os
import re
import sys
import threading
import time
from pathlib import Path, PurePosixPath

import pytest
from PIL import Image

from scanner_app.core.export.layout import Namer, OutputLayout, check_template
from scanner_app.core.results import PageResult
from scanner_app.core.watch.complete import looks_complete
from scanner_app.core.watch.observer import NETWORK_FS, filesystem_type, start_observer
from scanner_app.core.watch.settle import Settler


def _encoded(fmt: str, **kw: object) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 30, 30)).save(buf, format=fmt, **kw)
    return buf.getvalue()


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "GIF", "BMP", "WEBP", "PDF"])
def test_an_end_marker_tells_a_whole_file_from_a_half_written_one(tmp_path: Path, fmt: str) -> None:
    data = _encoded(fmt)
    whole, half = tmp_path / f"whole.{fmt.lower()}", tmp_path / f"half.{fmt.lower()}"
    whole.write_bytes(data)
    half.write_bytes(data[: len(data) // 2])
    assert looks_complete(whole) is True
    assert looks_complete(half) is False


def test_formats_without_an_end_marker_are_left_to_size_and_time(tmp_path: Path) -> None:
    tiff = tmp_path / "scan.tiff"
    tiff.write_bytes(_encoded("TIFF"))
    assert looks_complete(tiff) is None
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    assert looks_complete(empty) is False


def test_a_file_is_ready_only_after_it_stops_changing(tmp_path: Path) -> None:
    path = tmp_path / "a.png"
    data = _encoded("PNG")
    path.write_bytes(data[:100])
    settler = Settler(settle_s=2.0, incomplete_s=30.0)
    assert settler.touch(path, now=0.0) is True
    assert settler.check(now=0.0) == ([], 30.0)  # half a PNG: wait for the rest
    path.write_bytes(data)
    ready, due = settler.check(now=1.0)  # complete now, but it just changed
    assert ready == [] and due == pytest.approx(2.0)
    assert settler.check(now=2.5)[0] == []
    assert settler.check(now=3.1) == ([path], None)
    assert len(settler) == 0


def test_a_closed_complete_file_is_ready_at_once_and_a_closed_half_file_is_not(tmp_path: Path) -> None:
    whole, half = tmp_path / "whole.jpg", tmp_path / "half.jpg"
    data = _encoded("JPEG")
    whole.write_bytes(data)
    half.write_bytes(data[:-20])
    settler = Settler(settle_s=5.0, incomplete_s=60.0)
    settler.touch(whole, now=10.0, closed=True)
    settler.touch(half, now=10.0, closed=True)
    ready, due = settler.check(now=10.0)
    assert ready == [whole] and due == pytest.approx(60.0)


def test_a_truncated_file_is_given_up_on_after_incomplete_s_so_that_it_fails_loudly(tmp_path: Path) -> None:
    path = tmp_path / "cut.jpg"
    path.write_bytes(_encoded("JPEG")[:200])
    settler = Settler(settle_s=1.0, incomplete_s=8.0)
    settler.touch(path, now=0.0)
    assert settler.check(now=0.0)[0] == []
    assert settler.check(now=7.9)[0] == []
    assert settler.check(now=8.0)[0] == [path]


def test_a_file_deleted_while_settling_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "gone.png"
    path.write_bytes(_encoded("PNG"))
    settler = Settler()
    settler.touch(path, now=0.0)
    path.unlink()
    assert settler.check(now=100.0) == ([], None)
    assert len(settler) == 0


def _page(*texts: str) -> PageResult:
    from scanner_app.core.results import TextLine

    lines = tuple(
        TextLine(box=((10.0, 20.0 * i), (300.0, 20.0 * i), (300.0, 20.0 * i + 16), (10.0, 20.0 * i + 16)),
                 text=t, score=0.99)
        for i, t in enumerate(texts, 1)
    )  # fmt: skip
    return PageResult("x.png", 400, 400, lines, 1.0)


def test_tree_layout_mirrors_the_input_folders_and_flat_does_not(tmp_path: Path) -> None:
    source = tmp_path / "in" / "2026" / "March" / "receipt.pdf"
    tree = Namer(OutputLayout("tree", root=tmp_path / "in"))
    assert tree.name(str(source)) == PurePosixPath("2026/March/receipt.pdf")
    assert tree.name(str(source)) == PurePosixPath("2026/March/receipt.pdf")  # the same source, the same name
    flat = Namer(OutputLayout("flat"))
    assert flat.name(str(source)) == PurePosixPath("receipt.pdf")
    assert flat.name(str(tmp_path / "in" / "receipt.pdf")) == PurePosixPath("receipt.pdf_2")
    # no root given: the common folder of the sources
    common = Namer(OutputLayout("tree"), [str(source), str(tmp_path / "in" / "2025" / "a.jpg")])
    assert common.name(str(source)) == PurePosixPath("2026/March/receipt.pdf")


def test_a_name_template_fills_in_the_receipts_fields_and_never_reuses_a_name(tmp_path: Path) -> None:
    values = {"vendor": "ACME / Foods: Ltd", "date": "2026-03-15", "total": "12.50"}
    namer = Namer(OutputLayout("tree", "{vendor}_{date}_{total}", root=tmp_path), values=lambda page: values)
    first = namer.name(str(tmp_path / "2026" / "a.jpg"), _page("x"))
    second = namer.name(str(tmp_path / "2026" / "b.jpg"), _page("x"))
    assert first == PurePosixPath("2026/ACME _ Foods_ Ltd_2026-03-15_12.50")
    assert second == PurePosixPath("2026/ACME _ Foods_ Ltd_2026-03-15_12.50_2")
    unknown = Namer(OutputLayout("flat", "{vendor}-{stem}"), values=lambda page: {})
    assert unknown.name(str(tmp_path / "c.png")) == PurePosixPath("unknown-c")


def test_the_real_field_extractor_names_a_receipt(tmp_path: Path) -> None:
    namer = Namer(OutputLayout("flat", "{date}_{total}"))
    page = _page("CORNER SHOP", "Date: 15/03/2026", "Coffee 3.50", "TOTAL 12.50")
    assert namer.name(str(tmp_path / "r.jpg"), page) == PurePosixPath("2026-03-15_12.50")


@pytest.mark.parametrize("template, problem", [("{foo}", "unknown placeholder"), ("plain", "no placeholder"),
                                              ("{vendor", "name template")])  # fmt: skip
def test_bad_templates_are_refused_with_the_reason(template: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        check_template(template)


def test_network_shares_are_recognised_from_the_mount_table(tmp_path: Path) -> None:
    mounts = tmp_path / "mounts"
    mounts.write_text(
        "/dev/sda1 / ext4 rw 0 0\n//nas/scans /mnt/scans cifs rw 0 0\nnas:/x /mnt/scans/nfs nfs4 rw 0 0\n"
    )
    assert filesystem_type(Path("/mnt/scans/2026"), mounts) == "cifs"
    assert filesystem_type(Path("/mnt/scans/nfs/a"), mounts) == "nfs4"
    assert filesystem_type(Path("/home/me"), mounts) == "ext4"
    assert {"cifs", "nfs4"} <= NETWORK_FS and "ext4" not in NETWORK_FS


class _Collector:
    """Stands in for FolderWatcher behind the event handler: records what it is told (no OCR)."""

    def __init__(self) -> None:
        self.touched: set[Path] = set()
        self.cond = threading.Condition()

    def touch(self, path: Path, closed: bool = False) -> None:
        with self.cond:
            self.touched.add(path)
            self.cond.notify_all()

    def forget(self, path: Path) -> None:
        pass

    def rescan(self, folder: Path | None = None) -> None:
        for path, _, names in os.walk(folder or "."):
            for name in names:
                self.touch(Path(path) / name)


@pytest.mark.parametrize("polling", [False, True])
def test_a_burst_of_1000_files_is_noticed_by_events_and_by_polling(tmp_path: Path, polling: bool) -> None:
    from scanner_app.core.watch.watcher import _Handler

    collector = _Collector()
    notices: list[str] = []
    observer, how = start_observer(tmp_path, _Handler(collector), polling, 0.2, notices.append)  # type: ignore[arg-type]
    try:
        assert ("polling" in how) == polling
        data = _encoded("PNG")
        expected = set()
        for i in range(1000):
            path = tmp_path / f"batch{i // 250}" / f"scan{i:04d}.png"
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(data)
            expected.add(path)
        with collector.cond:
            assert collector.cond.wait_for(lambda: expected <= collector.touched, 60), len(collector.touched)
    finally:
        observer.stop()
        observer.join()


class _SwitchyStream(io.StringIO):
    """A pipe both of the CLI's streams share (as in a log file); yields to other threads in each
    write, so that lines written in two pieces would be torn apart the way a busy machine tears them."""

    def write(self, text: str) -> int:
        time.sleep(0)
        return super().write(text)


def test_watch_lines_from_many_threads_stay_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    from scanner_app.commands.progress import ProgressPrinter
    from scanner_app.commands.watch import event_printer
    from scanner_app.core.batch.events import FileFailed
    from scanner_app.core.watch.events import FileExported, WatchNotice

    stream = _SwitchyStream()
    monkeypatch.setattr(sys, "stdout", stream)
    monkeypatch.setattr(sys, "stderr", stream)
    on_event = event_printer(ProgressPrinter())
    per_thread = 150

    def emit(n: int) -> None:
        for i in range(per_thread):
            path = Path(f"/in/t{n}/receipt_{i}.jpg")
            on_event([FileExported(path, (Path(f"/out/t{n}/receipt_{i}.jpg.txt"),)),
                      FileFailed(i, path, "corrupt or truncated image data (27 bytes)"),
                      WatchNotice(f"t{n} notice {i}")][i % 3])  # fmt: skip

    threads = [threading.Thread(target=emit, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 6 * per_thread
    whole = re.compile(
        r"(read     /in/t\d/receipt_\d+\.jpg -> /out/t\d/receipt_\d+\.jpg\.txt"
        r"|failed  /in/t\d/receipt_\d+\.jpg: corrupt or truncated image data \(27 bytes\)"
        r"|note: t\d notice \d+)"
    )
    torn = [line for line in lines if not whole.fullmatch(line)]
    assert not torn, torn[:3]
