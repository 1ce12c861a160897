"""What the shutter does to a frame, off the GUI thread: flatten it, turn it, encode it as PNG, and
ask the server which way is up."""

from __future__ import annotations

import time

import cv2
import numpy as np
from PySide6.QtGui import QImage

from scanner_app.core.camera.docscan import ScanResult, scan_document
from scanner_app.core.client.triton import Recognizer
from scanner_app.gui.camera.source import to_qimage


def process_frame(frame: np.ndarray, flatten: bool) -> tuple[ScanResult, QImage]:
    """The shot as kept: flattened when asked and a document was found; plus its QImage for display."""
    result = scan_document(frame) if flatten else ScanResult(image=frame, quad=None, flattened=False)
    return result, to_qimage(result.image)


def rotate_quarters(image: np.ndarray, quarter_turns: int) -> np.ndarray:
    """``image`` turned clockwise by ``quarter_turns`` x 90 degrees."""
    turns = quarter_turns % 4
    codes = {1: cv2.ROTATE_90_CLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_COUNTERCLOCKWISE}
    return image if turns == 0 else cv2.rotate(image, codes[turns])


def encode_png(image: np.ndarray, quarter_turns: int = 0) -> bytes:
    ok, data = cv2.imencode(".png", rotate_quarters(image, quarter_turns))
    if not ok:
        raise ValueError("the image could not be encoded as PNG")
    return data.tobytes()


def capture_name() -> str:
    return time.strftime("camera-%Y%m%d-%H%M%S.png")


def upright_turns(recognizer: Recognizer, image: np.ndarray) -> int:
    """Clockwise quarter turns that make the shot upright: the server's ORIENTATION for it.

    Flattening keeps the corner order it sees, so a page shot upside down comes out upside down;
    the server reads the page whichever way it lies and says how far it must turn.
    """
    page = recognizer.recognize(encode_png(image), capture_name())
    return (page.orientation // 90) % 4
