"""Frames from a camera or a video file on a worker thread, with the document's outline found there too.

``FrameGrabber`` reads with OpenCV on its own QThread, keeps the latest full-size frame for the
shutter, and emits a downscaled preview (already a QImage) plus the detected quad at a throttled rate.
``DeviceProbe`` looks for cameras off the GUI thread.
"""

from __future__ import annotations

import glob
import sys
import threading
import time
from pathlib import Path

import cv2
import numpy as np
from PySide6.QtCore import QObject, QThread, Signal
from PySide6.QtGui import QImage

from scanner_app.core.camera.docscan import find_document_quad

PREVIEW_FPS = 15.0  # previews emitted per second at most
PREVIEW_MAX_SIDE = 960  # previews (and quad detection for them) at most this long
MAX_PROBED_CAMERAS = 4  # camera indices 0..N-1 are tried
FILE_FPS_FALLBACK = 25.0  # pace of a video file that does not say its frame rate


def probe_cameras(max_index: int = MAX_PROBED_CAMERAS) -> list[int]:
    """Indices of the cameras OpenCV can open and read a frame from (quick when there are none)."""
    if sys.platform.startswith("linux") and not glob.glob("/dev/video*"):
        return []  # no V4L2 device nodes: nothing to open
    found = []
    for index in range(max_index):
        capture = cv2.VideoCapture(index)
        try:
            if capture.isOpened() and capture.read()[0]:
                found.append(index)
        finally:
            capture.release()
    return found


def to_qimage(rgb_or_bgr: np.ndarray, *, bgr: bool = True) -> QImage:
    """A QImage that owns a copy of an 8-bit BGR (or RGB, or grey) array."""
    array = rgb_or_bgr
    if array.ndim == 2:
        array = np.ascontiguousarray(array)
        height, width = array.shape
        return QImage(array.data, width, height, width, QImage.Format.Format_Grayscale8).copy()
    if bgr:
        array = cv2.cvtColor(array, cv2.COLOR_BGR2RGB)
    array = np.ascontiguousarray(array)
    height, width = array.shape[:2]
    return QImage(array.data, width, height, 3 * width, QImage.Format.Format_RGB888).copy()


class DeviceProbe(QThread):
    """Runs ``probe_cameras`` once and emits ``found(list[int])``."""

    found = Signal(list)

    def __init__(self, max_index: int = MAX_PROBED_CAMERAS, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._max_index = max_index

    def run(self) -> None:
        self.found.emit(probe_cameras(self._max_index))


class FrameGrabber(QThread):
    """Reads frames from ``source`` (a camera index or a video file path) until stopped.

    Video files are paced at their own frame rate and start again at the end when ``loop`` is on
    (else ``ended`` is emitted). A new preview goes out only after the previous one was taken
    (``preview_taken()``), so a busy GUI never builds up a queue of frames.
    """

    frame_ready = Signal(QImage, object)  # preview image, quad in preview pixels (np.ndarray) or None
    opened = Signal(str)  # a description of the source: "1280x720, 30 fps"
    failed = Signal(str)  # the source and the cause
    ended = Signal()  # a video file ran out (loop off)

    def __init__(
        self,
        source: int | str,
        *,
        loop: bool = True,
        preview_fps: float = PREVIEW_FPS,
        detect: bool = True,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.source = source
        self._loop = loop
        self._period = 1.0 / max(preview_fps, 0.1)
        self._detect = detect
        self._lock = threading.Lock()
        self._latest: np.ndarray | None = None
        self._waiting = threading.Event()  # a preview was emitted and not yet taken
        self.frames_read = 0

    def latest_frame(self) -> np.ndarray | None:
        """A copy of the newest full-size BGR frame (None before the first one)."""
        with self._lock:
            return None if self._latest is None else self._latest.copy()

    def preview_taken(self) -> None:
        """The GUI has shown the last preview; the next one may go out."""
        self._waiting.clear()

    def set_detect(self, detect: bool) -> None:
        self._detect = detect

    def stop(self, timeout_ms: int = 2000) -> bool:
        """Ask the thread to finish and wait for it a little; True when it has finished."""
        self.requestInterruption()
        return self.wait(timeout_ms)

    def describe_source(self) -> str:
        if isinstance(self.source, str):
            return self.tr("video file {path}").format(path=self.source)
        return self.tr("camera {index}").format(index=self.source)

    def _open(self) -> cv2.VideoCapture | None:
        if isinstance(self.source, str):
            path = Path(self.source)
            if not path.is_file():
                self.failed.emit(self.tr("{path}: no such file").format(path=path))
                return None
            capture = cv2.VideoCapture(str(path))
            cause = self.tr("not a video OpenCV can read (unknown container or codec)")
        else:
            capture = cv2.VideoCapture(int(self.source))
            cause = self.tr("it is missing, busy in another program, or access was refused")
        if not capture.isOpened():
            capture.release()
            message = self.tr("Cannot open {source}: {cause}")
            self.failed.emit(message.format(source=self.describe_source(), cause=cause))
            return None
        return capture

    def run(self) -> None:
        capture = self._open()
        if capture is None:
            return
        try:
            self._read_loop(capture)
        except Exception as exc:  # reported, never raised on the worker thread
            self.failed.emit(f"{self.describe_source()}: {exc}")
        finally:
            capture.release()

    def _read_loop(self, capture: cv2.VideoCapture) -> None:
        is_file = isinstance(self.source, str)
        fps = float(capture.get(cv2.CAP_PROP_FPS) or 0.0)
        frame_period = 1.0 / (fps if 1.0 <= fps <= 240.0 else FILE_FPS_FALLBACK) if is_file else 0.0
        next_preview = next_frame = time.monotonic()
        read_since_start = 0
        while not self.isInterruptionRequested():
            ok, frame = capture.read()
            if not ok or frame is None:
                if is_file and self._loop and read_since_start > 0:
                    capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
                    read_since_start = 0
                    continue
                if is_file and read_since_start > 0:
                    self.ended.emit()
                else:
                    message = self.tr("{source} delivered no frame")
                    self.failed.emit(message.format(source=self.describe_source()))
                return
            if read_since_start == 0 and self.frames_read == 0:
                height, width = frame.shape[:2]
                self.opened.emit(f"{width}x{height}" + (f", {fps:.0f} fps" if fps >= 1 else ""))
            read_since_start += 1
            self.frames_read += 1
            with self._lock:
                self._latest = frame
            now = time.monotonic()
            if now >= next_preview and not self._waiting.is_set():
                next_preview = now + self._period
                image, quad = self._preview(frame)
                self._waiting.set()
                self.frame_ready.emit(image, quad)
            if frame_period:
                next_frame = max(next_frame + frame_period, time.monotonic() - frame_period)
                delay_ms = int((next_frame - time.monotonic()) * 1000)
                if delay_ms > 0:
                    self.msleep(delay_ms)

    def _preview(self, frame: np.ndarray) -> tuple[QImage, np.ndarray | None]:
        scale = min(1.0, PREVIEW_MAX_SIDE / max(frame.shape[:2]))
        if scale < 1.0:
            frame = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        quad = find_document_quad(frame) if self._detect else None
        return to_qimage(frame), quad
