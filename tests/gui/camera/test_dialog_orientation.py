"""The camera path uses the server's ORIENTATION: a shot taken upside down is kept upright.

There is no camera here: an MJPG video of a real SROIE receipt turned 180 degrees in pixels stands
in for it (the dialog's own video-file source). The server is the real embedded Triton.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from PySide6.QtCore import Qt

from scanner_app.core.client.triton import OcrClient
from scanner_app.gui.camera.dialog import CameraDialog
from tests.helpers.paths import SROIE_IMAGES

RECEIPT = SROIE_IMAGES / "000.jpg"


def _video(path: Path, frame: np.ndarray, count: int = 6) -> Path:
    height, width = frame.shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (width, height))
    assert writer.isOpened(), "OpenCV cannot write MJPG AVI here"
    for _ in range(count):
        writer.write(frame)
    writer.release()
    return path


def _shoot(qtbot, dialog: CameraDialog) -> int:
    """Take a picture; the quarter turns the server answered."""
    qtbot.waitUntil(lambda: dialog.frames_shown >= 2, timeout=15000)
    with qtbot.waitSignal(dialog.upright_found, timeout=600000) as blocker:
        qtbot.mouseClick(dialog.shutter_button, Qt.MouseButton.LeftButton)
    return int(blocker.args[0])


@pytest.fixture(scope="module")
def receipt() -> np.ndarray:
    image = cv2.imread(str(RECEIPT), cv2.IMREAD_COLOR)
    assert image is not None, f"no receipt at {RECEIPT}"
    return image


def test_an_upside_down_shot_is_kept_upright(qtbot, triton, tmp_path: Path, receipt: np.ndarray) -> None:
    turned = cv2.rotate(receipt, cv2.ROTATE_180)
    video = _video(tmp_path / "upside-down.avi", turned)
    with OcrClient(triton.grpc_url, timeout_s=600) as client:  # a busy shared machine
        client.connect()
        dialog = CameraDialog(source=str(video), recognizer=client)
        qtbot.addWidget(dialog)
        dialog.auto_flatten_box.setChecked(False)  # the whole frame: its pixels are known
        dialog.show()
        assert _shoot(qtbot, dialog) == 2, dialog.status_label.text()
        assert dialog.quarter_turns == 2 and "180 degrees" in dialog.status_label.text()
        with qtbot.waitSignal(dialog.captured, timeout=15000) as blocker:
            qtbot.mouseClick(dialog.accept_button, Qt.MouseButton.LeftButton)
        data, name = blocker.args
        kept = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        np.testing.assert_array_equal(kept, cv2.rotate(dialog.shot.image, cv2.ROTATE_180))
        again = client.recognize(data, name)  # what the viewer then gets: an upright page
        assert again.orientation == 0 and again.lines


def test_a_turn_by_hand_before_the_answer_wins(qtbot, triton, tmp_path: Path, receipt: np.ndarray) -> None:
    video = _video(tmp_path / "upright.avi", receipt)
    with OcrClient(triton.grpc_url, timeout_s=600) as client:  # a busy shared machine
        client.connect()
        dialog = CameraDialog(source=str(video), recognizer=client)
        qtbot.addWidget(dialog)
        dialog.auto_flatten_box.setChecked(False)
        dialog.show()
        qtbot.waitUntil(lambda: dialog.frames_shown >= 2, timeout=15000)
        answered = qtbot.waitSignal(dialog.upright_found, timeout=600000)
        with answered as blocker:
            with qtbot.waitSignal(dialog.result_ready, timeout=15000):
                qtbot.mouseClick(dialog.shutter_button, Qt.MouseButton.LeftButton)
            qtbot.mouseClick(dialog.rotate_right_button, Qt.MouseButton.LeftButton)
        assert blocker.args[0] == 0  # the server reads the shot upright
        assert dialog.quarter_turns == 1  # the click is kept


def test_without_a_server_the_shot_is_kept_as_taken(qtbot, tmp_path: Path, receipt: np.ndarray) -> None:
    video = _video(tmp_path / "upside-down.avi", cv2.rotate(receipt, cv2.ROTATE_180))
    dialog = CameraDialog(source=str(video))
    qtbot.addWidget(dialog)
    dialog.auto_flatten_box.setChecked(False)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.frames_shown >= 2, timeout=15000)
    with qtbot.waitSignal(dialog.result_ready, timeout=15000):
        qtbot.mouseClick(dialog.shutter_button, Qt.MouseButton.LeftButton)
    assert dialog.quarter_turns == 0
