""""Watch a folder" on the Batch tab against the real embedded Triton: a file dropped in the watched
folder is read and shown; Stop stops; the folders chosen are remembered."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog

from scanner_app.core.watch.events import FileExported, WatchStarted
from scanner_app.gui.batch.panel import BatchPanel
from scanner_app.gui.batch.watch_bar import WatchBar, WatchCounts
from scanner_app.gui.connection.link import ServerConnection
from scanner_app.samples.documents import encode, render_text_lines


def test_watch_counts_fold_the_watchers_events() -> None:
    counts = WatchCounts()
    counts.apply(WatchStarted(Path("/in"), "inotify", 3))
    counts.apply(FileExported(Path("/in/a.jpg"), (Path("/out/a.jpg.txt"),)))
    assert (counts.known, counts.how, counts.read, counts.last) == (3, "inotify", 1, "a.jpg")


def test_the_batch_tab_watches_a_folder_reads_what_lands_and_stops(
    qtbot, connection: ServerConnection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inbox, out = tmp_path / "scans", tmp_path / "results"
    inbox.mkdir()
    panel = BatchPanel(connection)
    qtbot.addWidget(panel)
    bar: WatchBar = panel.watch_bar
    assert bar.watch_button.isEnabled() and not bar.stop_button.isEnabled()
    # The two folder dialogs (a person would pick these); the real widget code runs around them.
    answers = iter([str(inbox), str(out)])
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: next(answers))

    with qtbot.waitSignal(bar.watching_changed, timeout=10_000) as started:
        bar.watch_button.click()
    assert started.args == [True]
    assert not bar.watch_button.isEnabled() and bar.stop_button.isEnabled()
    assert QSettings().value("watch/folder") == str(inbox) and QSettings().value("watch/out") == str(out)
    qtbot.waitUntil(lambda: "inotify" in bar.status.text(), timeout=30_000)

    landed = inbox / "2026" / "May" / "taxi.png"
    landed.parent.mkdir(parents=True)
    with qtbot.waitSignal(bar.file_read, timeout=120_000) as read:
        landed.write_bytes(encode(render_text_lines(["TAXI FARE 23.40"]).image))
    assert read.args == [landed]
    assert "TAXI" in (out / "2026" / "May" / "taxi.png.txt").read_text(encoding="utf-8")
    qtbot.waitUntil(lambda: "1 read" in bar.status.text(), timeout=10_000)

    with qtbot.waitSignal(bar.watching_changed, timeout=10_000) as stopped:
        bar.stop_button.click()
    assert stopped.args == [False]
    qtbot.waitUntil(lambda: bar.status.text().startswith("Stopped watching"), timeout=60_000)
    assert bar.watch_button.isEnabled() and not bar.stop_button.isEnabled()
    panel.shutdown()
