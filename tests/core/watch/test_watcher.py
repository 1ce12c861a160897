"""The watched folder against the real Triton server: new files read once into a mirrored tree,
replaced files read again, deleted files keep their results, a restart reads only what is new."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path

from scanner_app.core.batch.events import FileFailed, FileStarted
from scanner_app.core.client.triton import OcrClient
from scanner_app.core.export.layout import OutputLayout
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore
from scanner_app.core.watch.events import FileExported, FileSkipped, WatchStarted
from scanner_app.core.watch.watcher import FolderWatcher, WatchOptions
from scanner_app.samples.documents import encode, render_text_lines
from scanner_app.server.embedded import EmbeddedServer


class Events:
    """Collects watcher events from any thread; ``wait_for`` blocks until a predicate holds."""

    def __init__(self) -> None:
        self.items: list[object] = []
        self.cond = threading.Condition()

    def __call__(self, event: object) -> None:
        with self.cond:
            self.items.append(event)
            self.cond.notify_all()

    def of(self, kind: type) -> list:
        with self.cond:
            return [e for e in self.items if isinstance(e, kind)]

    def wait_for(self, what: str, predicate: Callable[[list[object]], bool], timeout: float = 120) -> None:
        with self.cond:
            ok = self.cond.wait_for(lambda: predicate(self.items), timeout)
        assert ok, f"not within {timeout} s: {what}; last events {self.items[-6:]}"

    def exported(self, path: Path, times: int = 1) -> None:
        def enough(items: list[object]) -> bool:
            return sum(isinstance(e, FileExported) and e.path == path for e in items) >= times

        self.wait_for(f"{path} exported {times}x", enough)


def _png(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(encode(render_text_lines([text]).image, "PNG"))
    return path


def test_watcher_reads_new_files_once_into_the_mirrored_tree_and_again_only_when_replaced(
    triton: EmbeddedServer, tmp_path: Path
) -> None:
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    early = _png(inbox / "2026" / "March" / "early.png", "WATCH ALPHA 2026")
    options = WatchOptions(settle_s=0.3, incomplete_s=5, jobs=2, formats=("txt", "json", "csv"),
                           summary_every_s=0.0)  # fmt: skip
    events = Events()
    with OcrClient(triton.grpc_url, timeout_s=120) as client:
        with FolderWatcher(inbox, out, client.recognize, options, events):
            assert events.of(WatchStarted)[0].known == 0
            events.exported(early)  # there before the start: read at start
            assert "ALPHA" in (out / "2026" / "March" / "early.png.txt").read_text(encoding="utf-8")
            page = json.loads((out / "2026" / "March" / "early.png.json").read_text(encoding="utf-8"))
            assert page["files"][0]["source"] == str(early)

            late = _png(inbox / "2026" / "April" / "late.png", "WATCH BRAVO 2026")  # a new folder, too
            (inbox / "notes.txt").write_text("not a receipt")
            (inbox / ".late.png.part").write_bytes(b"half")  # a copier's temporary name: never an input
            events.exported(late)
            assert "BRAVO" in (out / "2026" / "April" / "late.png.txt").read_text(encoding="utf-8")
            assert any(e.path == inbox / "notes.txt" and "unsupported type .txt" in e.reason
                       for e in events.of(FileSkipped))  # fmt: skip

            _png(early, "WATCH GAMMA 2026")  # replaced with new content: read again
            events.exported(early, times=2)
            text = (out / "2026" / "March" / "early.png.txt").read_text(encoding="utf-8")
            assert "GAMMA" in text and "ALPHA" not in text

            late.unlink()  # deleted: its results stay
        first_run_starts = len(events.of(FileStarted))
        assert first_run_starts == 3
        assert (out / "2026" / "April" / "late.png.txt").exists()
        summary = json.loads((out / "results.json").read_text(encoding="utf-8"))
        assert {f["source"] for f in summary["files"]} == {str(early), str(late)}

        while_stopped = _png(inbox / "2026" / "March" / "while_stopped.png", "WATCH DELTA 2026")
        again = Events()
        with FolderWatcher(inbox, out, client.recognize, options, again):
            again.exported(while_stopped)
        assert again.of(WatchStarted)[0].known == 2
        assert [e.path for e in again.of(FileStarted)] == [while_stopped]  # nothing read twice
    with BatchStore(out / STORE_NAME) as store:
        states = {f.path: f.state for f in store.files()}
    assert states == {early: "done", late: "done", while_stopped: "done"}


def test_unreadable_and_truncated_files_fail_alone_with_their_cause(
    triton: EmbeddedServer, tmp_path: Path
) -> None:
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    good = _png(inbox / "good.png", "WATCH ECHO 2026")
    data = encode(render_text_lines(["WATCH FOXTROT"]).image, "JPEG")
    cut = inbox / "cut.jpg"
    cut.write_bytes(data[: len(data) // 2])  # never finished: no end marker
    fake = inbox / "fake.png"
    fake.write_bytes(b"this is not a PNG at all")
    options = WatchOptions(settle_s=0.2, incomplete_s=1.0, jobs=2, formats=("txt",),
                           layout=OutputLayout("flat"))  # fmt: skip
    events = Events()
    with OcrClient(triton.grpc_url, timeout_s=120) as client, FolderWatcher(
        inbox, out, client.recognize, options, events
    ):
        events.exported(good)
        events.wait_for("two failures", lambda items: sum(isinstance(e, FileFailed) for e in items) >= 2)
    causes = {e.path: e.cause for e in events.of(FileFailed)}
    assert set(causes) == {cut, fake}
    assert "cut.jpg" in causes[cut] and "truncated" in causes[cut]
    assert "fake.png" in causes[fake]
    assert (out / "good.png.txt").exists() and not (out / "cut.jpg.txt").exists()
