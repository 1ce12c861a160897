"""Camera capture with a video file as the camera, and screen-region capture (Qt offscreen).

There is no camera hardware here: the device path is covered by the grabber's handling of a camera
that cannot be opened; everything else runs on real frames from an MJPG video file.
"""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtWidgets import QDialog, QFileDialog, QWidget

from scanner_app.core.client.triton import OcrClient
from scanner_app.gui.camera import source as camera_source
from scanner_app.gui.camera.dialog import CameraDialog
from scanner_app.gui.camera.source import FrameGrabber
from scanner_app.gui.capture.screen import ScreenRegionCapture
from tests.helpers.docscan_scene import Scene, exact_lines, in_order, photograph, receipt

FRAMES = 8


@pytest.fixture(scope="module")
def scene() -> Scene:
    return photograph(receipt(), roll=15, tilt_x=25, tilt_y=-8, frame=(1280, 720), coverage=0.85, seed=4)


def write_video(path: Path, frames: list[np.ndarray], fps: float = 10.0) -> Path:
    height, width = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (width, height))
    assert writer.isOpened(), "OpenCV cannot write MJPG AVI here"
    for frame in frames:
        writer.write(frame)
    writer.release()
    return path


@pytest.fixture
def video(tmp_path: Path, scene: Scene) -> Path:
    return write_video(tmp_path / "receipt.avi", [scene.photo] * FRAMES)


def open_dialog(qtbot, source: int | str | None) -> CameraDialog:
    dialog = CameraDialog(source=source)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def shoot(qtbot, dialog: CameraDialog) -> None:
    qtbot.waitUntil(lambda: dialog.frames_shown >= 3, timeout=15000)
    with qtbot.waitSignal(dialog.result_ready, timeout=15000):
        qtbot.mouseClick(dialog.shutter_button, Qt.MouseButton.LeftButton)


def accept(qtbot, dialog: CameraDialog) -> tuple[bytes, np.ndarray, str]:
    with qtbot.waitSignal(dialog.captured, timeout=15000) as blocker:
        qtbot.mouseClick(dialog.accept_button, Qt.MouseButton.LeftButton)
    data, name = blocker.args
    assert data.startswith(b"\x89PNG")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None
    return data, image, name


def test_video_shot_is_flattened_and_reads_back(qtbot, triton, video: Path, scene: Scene) -> None:
    dialog = open_dialog(qtbot, str(video))
    assert dialog.source_combo.currentText() == "Video: receipt.avi"
    qtbot.waitUntil(lambda: dialog.frames_shown >= 3 and dialog.preview.quad is not None, timeout=15000)
    quad = dialog.preview.quad  # drawn on the preview, in its pixels (1280-wide frames, 960-wide preview)
    expected = scene.quad * (960 / 1280)
    assert np.abs(quad - expected).max() < 0.02 * np.linalg.norm(expected[2] - expected[0])

    with qtbot.waitSignal(dialog.result_ready, timeout=15000):
        qtbot.keyClick(dialog, Qt.Key.Key_Space)  # the shutter's shortcut
    assert dialog.shot is not None and dialog.shot.flattened
    assert "flattened" in dialog.status_label.text()
    data, image, name = accept(qtbot, dialog)
    assert re.fullmatch(r"camera-\d{8}-\d{6}\.png", name)
    assert dialog.result() == QDialog.DialogCode.Accepted
    height, width = image.shape[:2]
    assert width / height == pytest.approx(scene.doc_aspect, rel=0.03)
    with OcrClient(triton.grpc_url) as client:
        read = [line.text for line in client.recognize(data, name).lines]
    truth = scene.doc.texts
    print(f"camera shot: {exact_lines(truth, read)}/{len(truth)} exact, {in_order(truth, read)} in order")
    assert exact_lines(truth, read) >= 0.8 * len(truth)
    assert in_order(truth, read) >= 0.8 * len(truth)


def test_rotation_and_auto_flatten_off(qtbot, video: Path, scene: Scene) -> None:
    dialog = open_dialog(qtbot, str(video))
    dialog.auto_flatten_box.setChecked(False)
    shoot(qtbot, dialog)
    assert dialog.shot is not None and not dialog.shot.flattened
    assert dialog.shot.image.shape == scene.photo.shape  # the whole frame
    assert dialog.result_preview.image.width() == 1280
    qtbot.mouseClick(dialog.rotate_right_button, Qt.MouseButton.LeftButton)
    assert dialog.quarter_turns == 1 and dialog.result_preview.image.width() == 720
    _, image, _ = accept(qtbot, dialog)
    assert image.shape[:2] == (1280, 720)
    np.testing.assert_array_equal(image, cv2.rotate(dialog.shot.image, cv2.ROTATE_90_CLOCKWISE))


def test_auto_flatten_choice_is_remembered(qtbot, video: Path) -> None:
    first = open_dialog(qtbot, str(video))
    first.auto_flatten_box.setChecked(False)
    first.reject()
    second = open_dialog(qtbot, str(video))
    assert not second.auto_flatten_box.isChecked()


def test_a_missing_or_broken_video_is_reported(qtbot, tmp_path: Path) -> None:
    dialog = open_dialog(qtbot, str(tmp_path / "missing.avi"))
    qtbot.waitUntil(lambda: "missing.avi" in dialog.status_label.text(), timeout=10000)
    assert "no such file" in dialog.status_label.text()
    broken = tmp_path / "broken.avi"
    broken.write_bytes(b"this is not a video" * 100)
    dialog = open_dialog(qtbot, str(broken))
    qtbot.waitUntil(lambda: "broken.avi" in dialog.status_label.text(), timeout=10000)
    assert "Cannot open video file" in dialog.status_label.text()
    dialog.shoot()
    assert "No picture yet" in dialog.status_label.text()
    assert not dialog.accept_button.isEnabled()


def test_no_camera_found(qtbot, monkeypatch) -> None:
    monkeypatch.setattr(camera_source, "probe_cameras", lambda max_index=4: [])  # no hardware here anyway
    dialog = open_dialog(qtbot, None)
    qtbot.waitUntil(lambda: "No camera found" in dialog.status_label.text(), timeout=10000)
    assert [dialog.source_combo.itemText(i) for i in range(dialog.source_combo.count())] == ["Video file..."]


def test_choosing_a_video_file_from_the_list(qtbot, monkeypatch, video: Path) -> None:
    monkeypatch.setattr(camera_source, "probe_cameras", lambda max_index=4: [])
    answers = [(str(video), ""), ("", "")]  # the file dialog: a choice, then Cancel
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: answers.pop(0))
    dialog = open_dialog(qtbot, None)
    qtbot.waitUntil(lambda: "No camera found" in dialog.status_label.text(), timeout=10000)
    combo = dialog.source_combo
    combo.activated.emit(combo.findText("Video file..."))
    qtbot.waitUntil(lambda: dialog.frames_shown >= 1, timeout=10000)
    assert combo.currentText() == "Video: receipt.avi"
    assert QSettings().value("camera/video_folder") == str(video.parent)
    combo.setCurrentIndex(combo.findText("Video file..."))
    combo.activated.emit(combo.currentIndex())  # cancelled: back to the video that plays
    assert combo.currentText() == "Video: receipt.avi" and not answers


def test_a_camera_that_cannot_be_opened_is_reported(qtbot, monkeypatch) -> None:
    # Stands in for a camera that was listed but is busy or gone: OpenCV really fails to open index 9.
    monkeypatch.setattr(camera_source, "probe_cameras", lambda max_index=4: [9])
    dialog = open_dialog(qtbot, None)
    qtbot.waitUntil(lambda: "Cannot open camera 9" in dialog.status_label.text(), timeout=10000)
    assert dialog.source_combo.currentText() == "Camera 9"


def test_video_file_loops_or_ends(qtbot, tmp_path: Path, scene: Scene) -> None:
    path = write_video(tmp_path / "short.avi", [scene.photo] * 3, fps=30)
    grabber = FrameGrabber(str(path), loop=False)
    with qtbot.waitSignal(grabber.ended, timeout=10000):
        grabber.start()
    assert grabber.wait(5000) and grabber.frames_read == 3
    looping = FrameGrabber(str(path), loop=True, preview_fps=30)
    looping.frame_ready.connect(lambda image, quad: looping.preview_taken())
    looping.start()
    try:
        qtbot.waitUntil(lambda: looping.frames_read > 7, timeout=10000)
        frame = looping.latest_frame()
        assert frame is not None and frame.shape == scene.photo.shape
    finally:
        assert looping.stop()


def test_screen_region_selection_gives_an_image_of_that_size(qtbot) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    window.show()
    capture = ScreenRegionCapture(window, hide_delay_ms=0)
    capture.start()
    assert not window.isVisible()  # out of the picture
    qtbot.waitUntil(lambda: capture.overlay is not None and capture.overlay.isVisible(), timeout=5000)
    overlay = capture.overlay
    qtbot.mouseClick(overlay, Qt.MouseButton.LeftButton, pos=QPoint(30, 30))  # a click is no region
    assert capture.overlay is overlay and overlay.selection.isEmpty()
    qtbot.mousePress(overlay, Qt.MouseButton.LeftButton, pos=QPoint(110, 80))
    qtbot.mouseMove(overlay, QPoint(60, 50))
    assert overlay.selection.size().toTuple() == (50, 30)
    ratio = overlay.devicePixelRatioF()
    with qtbot.waitSignal(capture.captured, timeout=5000) as blocker:
        qtbot.mouseRelease(overlay, Qt.MouseButton.LeftButton, pos=QPoint(10, 20))  # dragged up-left
    data, name = blocker.args
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    assert image.shape[:2] == (round(60 * ratio), round(100 * ratio))
    assert re.fullmatch(r"screen-\d{8}-\d{6}\.png", name)
    assert capture.overlay is None and window.isVisible()


def test_escape_cancels_the_screen_capture(qtbot) -> None:
    capture = ScreenRegionCapture()
    capture.start()
    overlay = capture.overlay
    assert overlay is not None
    with qtbot.waitSignal(capture.cancelled, timeout=5000):
        qtbot.keyClick(overlay, Qt.Key.Key_Escape)
    assert capture.overlay is None
