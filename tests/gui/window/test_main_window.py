"""The main window end to end: edits reach the export, a dropped folder runs as a batch, paste,
a server that is down, bad files, and what is remembered between runs."""

from __future__ import annotations

import json
import socket
from pathlib import Path

from PySide6.QtCore import QMimeData, QSettings, Qt, QUrl
from PySide6.QtGui import QGuiApplication, QImage

from scanner_app.gui.app import build_parser
from scanner_app.gui.lines.model import TEXT
from scanner_app.samples.documents import distinct_receipts, render_invoice, render_text_lines
from tests.helpers.gui_shell import RECOGNIZE_TIMEOUT_MS, drop, main_window


def test_an_edited_line_appears_in_the_export(qtbot, triton, tmp_path: Path) -> None:
    path = tmp_path / "invoice.png"
    render_invoice(seed=5).image.save(path)
    with main_window(qtbot, [triton.grpc_url], tmp_path / "session") as window:
        with qtbot.waitSignal(window.controller.recognized, timeout=RECOGNIZE_TIMEOUT_MS) as blocker:
            window.open_paths([path])
        original = blocker.args[0].lines[2].text
        model = window.results.model
        with qtbot.waitSignal(window.document.line_edited, timeout=10_000):
            assert model.setData(model.index(2, TEXT), "CORRECTED BY A PERSON")
        assert window.viewer.canvas.line_items[2].geometry.text == "CORRECTED BY A PERSON"
        with qtbot.waitSignal(window.controller.exported, timeout=60_000) as exported:
            window.controller.export_current(tmp_path / "out", ["json", "txt", "csv", "pdf"])
        written = {p.name for p in exported.args[0]}
        assert {"results.json", "results.txt", "results_lines.csv", "invoice.pdf"} <= written
        data = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
        texts = [line["text"] for doc in data["files"] for page in doc["pages"] for line in page["lines"]]
        assert texts[2] == "CORRECTED BY A PERSON"
        assert "CORRECTED BY A PERSON" in (tmp_path / "out" / "results.txt").read_text(encoding="utf-8")
        if original not in ("CORRECTED BY A PERSON",) and original.strip():
            assert original not in (tmp_path / "out" / "results_lines.csv").read_text(encoding="utf-8-sig")
        # reopening the file shows the stored, edited result without asking the server again
        with qtbot.waitSignal(window.controller.recognized, timeout=30_000) as again:
            window.open_paths([path])
        assert again.args[0].lines[2].text == "CORRECTED BY A PERSON"
        assert "stored" in window.statusBar().currentMessage()


def test_a_dropped_folder_runs_as_a_batch_to_the_end(qtbot, triton, tmp_path: Path) -> None:
    folder = tmp_path / "receipts"
    (folder / "sub").mkdir(parents=True)
    for i, doc in enumerate(distinct_receipts(4, seed=11)):
        doc.image.save(folder / ("sub" if i % 2 else ".") / f"receipt-{i}.png")
    (folder / "notes.txt").write_text("not an image")
    QSettings().setValue("batch/folder", str(tmp_path / "batches"))
    with main_window(qtbot, [triton.grpc_url], tmp_path / "session") as window:
        panel = window.batch_panel
        mime = QMimeData()
        mime.setUrls([QUrl.fromLocalFile(str(folder))])
        with qtbot.waitSignal(panel.batch_finished, timeout=RECOGNIZE_TIMEOUT_MS * 2) as finished:
            drop(window, mime)
            assert window.tabs.currentWidget() is panel
        summary = finished.args[0]
        assert len(summary.ok) == 4 and not summary.failed
        store = panel.store()
        assert store is not None and store.summary().done == 4
        # a batch row opens in the viewer with the batch's stored result (edits would go there)
        first = store.files()[0]
        with qtbot.waitSignal(window.controller.recognized, timeout=30_000) as shown:
            panel.open_requested.emit(first.path, 0)
        assert len(shown.args[0].lines) == store.pages(first)[0].result.lines.__len__()
        assert window.document.stored.store is store


def test_pasting_an_image_opens_and_recognises_it(qtbot, triton, tmp_path: Path) -> None:
    doc = render_text_lines(["PASTED FROM THE CLIPBOARD", "Second line 4711"], seed=2)
    qimage = QImage(str(_save(doc.image, tmp_path / "clip.png")))
    with main_window(qtbot, [triton.grpc_url], tmp_path / "session") as window:
        QGuiApplication.clipboard().setImage(qimage)
        with qtbot.waitSignal(window.controller.recognized, timeout=RECOGNIZE_TIMEOUT_MS) as blocker:
            qtbot.keyClick(window, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
        text = " ".join(line.text for line in blocker.args[0].lines)
        assert "CLIPBOARD" in text and "4711" in text
        assert window.document.source is not None and window.document.source.parent.name == "captures"
        assert window.document.stored is not None  # edits of a pasted image persist like a file's


def _save(image, path: Path) -> Path:
    image.save(path)
    return path


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_with_the_server_down_the_status_bar_says_so_and_nothing_hangs(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "invoice.png"
    render_invoice(seed=1).image.save(path)
    url = f"127.0.0.1:{_closed_port()}"
    with main_window(qtbot, [url], tmp_path / "session", wait_ready=False) as window:
        qtbot.waitUntil(lambda: window.connection.state.status in ("down", "error"), timeout=30_000)
        assert "down" in window.connection_text and url in window.connection_text
        failed_later = qtbot.waitSignal(window.controller.failed, timeout=30_000)
        with failed_later as failed, qtbot.assertNotEmitted(window.controller.failed):
            window.open_paths([path])  # returns at once: the failure comes later, by signal
        assert "invoice.png" in failed.args[0] and "server" in failed.args[0]
        assert "invoice.png" in window.statusBar().currentMessage()
        assert not window.document.image.isNull()  # the image is shown even though it cannot be read


def test_a_corrupt_file_is_named_with_its_cause(qtbot, tmp_path: Path) -> None:
    bad = tmp_path / "broken.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    with main_window(qtbot, ["127.0.0.1:9"], tmp_path / "session", wait_ready=False) as window:
        with qtbot.waitSignal(window.controller.failed, timeout=30_000) as failed:
            window.open_paths([bad])
        assert "broken.png" in failed.args[0] and len(failed.args[0]) > len("broken.png: ")


def test_geometry_and_last_folder_are_remembered(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "docs" / "a.png"
    path.parent.mkdir()
    render_text_lines(["x"]).image.save(path)
    with main_window(qtbot, ["127.0.0.1:9"], tmp_path / "s1", wait_ready=False) as window:
        window.resize(1100, 700)
        window.open_paths([path])
    assert QSettings().value("ui/last_folder") == str(path.parent)
    with main_window(qtbot, ["127.0.0.1:9"], tmp_path / "s2", wait_ready=False) as window:
        assert window.height() == 700  # (the offscreen screen is narrower than the window's minimum width)


def test_command_line() -> None:
    argv = ["a.png", "b.pdf", "--server", "h:1", "--server", "h:2", "--lang", "zh_CN"]
    args = build_parser().parse_args(argv)
    assert args.files == [Path("a.png"), Path("b.pdf")] and args.server == ["h:1", "h:2"]
    assert args.lang == "zh_CN"


def test_a_huge_scan_is_decoded_off_the_gui_thread_and_shown_downscaled(qtbot, tmp_path: Path) -> None:
    from PIL import Image, ImageDraw

    path = tmp_path / "scan-6000x4000.png"
    image = Image.new("L", (6000, 4000), 255)
    ImageDraw.Draw(image).rectangle((100, 100, 5900, 3900), outline=0, width=40)
    image.save(path, compress_level=1)
    with main_window(qtbot, ["127.0.0.1:9"], tmp_path / "session", wait_ready=False) as window:
        with qtbot.waitSignal(window.document.image_changed, timeout=60_000):
            window.open_paths([path])
            assert window.document.image.isNull()  # open_paths returned before the decode was done
        shown = window.document.image
        assert max(shown.width(), shown.height()) == 4096
        assert window.document.image_scale == 6000 / 4096


def test_screen_and_camera_captures_open_in_the_viewer(qtbot, tmp_path: Path, monkeypatch) -> None:
    """The capture actions hand their PNG bytes to open_image_bytes (the widgets have their own tests)."""
    from scanner_app.gui.camera import dialog as camera_dialog
    from scanner_app.gui.capture import screen as screen_capture
    from scanner_app.samples.documents import encode

    png = encode(render_text_lines(["captured"]).image)
    monkeypatch.setattr(screen_capture.ScreenRegionCapture, "start", lambda self: None)
    shot = staticmethod(lambda parent=None, recognizer=None: (png, "cam.png"))
    monkeypatch.setattr(camera_dialog.CameraDialog, "capture", shot)
    with main_window(qtbot, ["127.0.0.1:9"], tmp_path / "session", wait_ready=False) as window:
        with qtbot.waitSignal(window.document.image_changed, timeout=30_000):
            window.main_actions.actions["camera"].trigger()
        assert window.document.name == "cam.png"
        window.main_actions.actions["screen"].trigger()
        with qtbot.waitSignal(window.document.image_changed, timeout=30_000):
            window._screen_capture.captured.emit(png, "screen-region.png")
        assert window.document.name == "screen-region.png"
        assert window.document.source.read_bytes() == png


def test_every_main_action_has_its_own_shortcut(qtbot, tmp_path: Path) -> None:
    with main_window(qtbot, ["127.0.0.1:9"], tmp_path / "session", wait_ready=False) as window:
        actions = {**window.main_actions.actions, **window.viewer.view_actions}
        keys = {name: action.shortcut().toString() for name, action in actions.items()}
        assert all(keys.values()), [name for name, key in keys.items() if not key]
        assert len(set(keys.values())) == len(keys), keys
        titles = [action.text() for action in window.menuBar().actions()]
        assert titles == ["&File", "&Edit", "&View", "&Language", "&Help"]


def test_pages_of_a_pdf_are_browsed_with_the_page_actions(qtbot, tmp_path: Path) -> None:
    pages = [render_text_lines([f"page {n}"]).image.convert("RGB") for n in (1, 2, 3)]
    path = tmp_path / "three.pdf"
    pages[0].save(path, save_all=True, append_images=pages[1:])
    with main_window(qtbot, ["127.0.0.1:9"], tmp_path / "session", wait_ready=False) as window:
        with qtbot.waitSignal(window.document.image_changed, timeout=30_000):
            window.open_paths([path])
        assert window.document.name == "three.pdf#p1" and window.controller.page_position == (0, 3)
        window.main_actions.actions["previous_page"].trigger()  # nothing before the first page
        with qtbot.waitSignal(window.document.image_changed, timeout=30_000):
            window.main_actions.actions["next_page"].trigger()
        assert window.document.name == "three.pdf#p2" and window.controller.page_position == (1, 3)
