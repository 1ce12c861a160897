"""Capture a region of the screen: grab it, let the user drag a rectangle over a frozen copy, emit PNG bytes.

``ScreenRegionCapture.start()`` hides the app's window (so it is not in the picture), grabs the
screen under the mouse, and shows ``RegionOverlay`` full screen; Esc or a right click cancels. The
chosen region is encoded off the GUI thread.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QPoint, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QCursor,
    QGuiApplication,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPixmap,
)
from PySide6.QtWidgets import QWidget

from scanner_app.gui.background import Background
from scanner_app.gui.document.jobs import png_bytes

HIDE_DELAY_MS = 300  # time for the window manager to take the app's window off the screen
MIN_SELECTION = 4  # smaller drags (in logical pixels) are clicks, not regions
DIM = QColor(0, 0, 0, 110)
EDGE = QColor(40, 160, 255)


def selection_rect(start: QPoint, end: QPoint) -> QRect:
    """The rectangle between two drag points, whichever way the drag went (end exclusive)."""
    left, top = min(start.x(), end.x()), min(start.y(), end.y())
    return QRect(QPoint(left, top), QSize(abs(end.x() - start.x()), abs(end.y() - start.y())))


def to_physical(rect: QRect, ratio: float) -> QRect:
    """A rectangle in logical pixels as device pixels of a pixmap with this device pixel ratio."""
    x, y, width, height = (round(v * ratio) for v in (rect.x(), rect.y(), rect.width(), rect.height()))
    return QRect(x, y, width, height)


class RegionOverlay(QWidget):
    """A frameless, full-screen copy of the screen, dimmed, on which a rectangle is dragged."""

    selected = Signal(QRect)  # in this widget's (logical) pixels
    cancelled = Signal()

    def __init__(self, screenshot: QPixmap, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._screenshot = screenshot
        self._start: QPoint | None = None
        self._rect = QRect()
        flags = Qt.WindowType.FramelessWindowHint | Qt.WindowType.WindowStaysOnTopHint | Qt.WindowType.Tool
        self.setWindowFlags(flags)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setCursor(Qt.CursorShape.CrossCursor)
        self.setMouseTracking(True)
        self.setToolTip(self.tr("Drag a rectangle around what to read; Esc cancels"))

    @property
    def selection(self) -> QRect:
        return QRect(self._rect)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.RightButton:
            self.cancelled.emit()
        elif event.button() == Qt.MouseButton.LeftButton:
            self._start = event.position().toPoint()
            self._rect = QRect(self._start, QSize(0, 0))
            self.update()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._start is not None:  # tracked by state, not event.buttons(): synthetic moves carry none
            self._rect = selection_rect(self._start, event.position().toPoint())
            self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or self._start is None:
            return
        self._rect = selection_rect(self._start, event.position().toPoint())
        self._start = None
        if self._rect.width() >= MIN_SELECTION and self._rect.height() >= MIN_SELECTION:
            self.selected.emit(QRect(self._rect))
        else:
            self._rect = QRect()
            self.update()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.cancelled.emit()
        else:
            super().keyPressEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.drawPixmap(self.rect(), self._screenshot)
        painter.fillRect(self.rect(), DIM)
        if self._rect.isEmpty():
            painter.setPen(Qt.GlobalColor.white)
            flags = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop
            painter.drawText(self.rect().adjusted(0, 24, 0, 0), flags, self.toolTip())
            return
        source = to_physical(self._rect, self._screenshot.devicePixelRatio())
        painter.drawPixmap(self._rect, self._screenshot, source)
        painter.setPen(QPen(EDGE, 2))
        painter.drawRect(self._rect)
        label = f"{self._rect.width()} x {self._rect.height()}"
        painter.setPen(Qt.GlobalColor.white)
        painter.drawText(self._rect.bottomLeft() + QPoint(4, 18), label)


class ScreenRegionCapture(QObject):
    """``start()`` lets the user pick a screen region; ``captured(png_bytes, name)`` when done.

    ``cancelled`` on Esc or right click, ``failed(message)`` when the screen cannot be grabbed.
    The parent's window is hidden during the capture and shown again afterwards.
    """

    captured = Signal(bytes, str)
    cancelled = Signal()
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None, *, hide_delay_ms: int = HIDE_DELAY_MS) -> None:
        super().__init__(parent)
        self._hide_delay_ms = hide_delay_ms
        self._background = Background(self)
        self._overlay: RegionOverlay | None = None
        self._screenshot = QPixmap()
        self._hidden: QWidget | None = None

    @property
    def overlay(self) -> RegionOverlay | None:
        """The full-screen overlay while a region is being chosen."""
        return self._overlay

    def start(self) -> None:
        if self._overlay is not None:
            return
        parent = self.parent()
        window = parent.window() if isinstance(parent, QWidget) else None
        if window is not None and window.isVisible():
            self._hidden = window
            window.hide()
            QTimer.singleShot(self._hide_delay_ms, self._grab)
        else:
            self._grab()

    def _grab(self) -> None:
        screen = QGuiApplication.screenAt(QCursor.pos()) or QGuiApplication.primaryScreen()
        pixmap = screen.grabWindow(0) if screen is not None else QPixmap()
        if pixmap.isNull():
            self._restore_window()
            self.failed.emit(self.tr("The screen could not be captured (the desktop does not allow it)"))
            return
        self._screenshot = pixmap
        overlay = RegionOverlay(pixmap)
        overlay.selected.connect(self._on_selected)
        overlay.cancelled.connect(self._on_cancelled)
        overlay.setGeometry(screen.geometry())
        self._overlay = overlay
        overlay.showFullScreen()
        overlay.activateWindow()
        overlay.raise_()

    def _close_overlay(self) -> None:
        overlay, self._overlay = self._overlay, None
        if overlay is not None:
            overlay.close()
        self._restore_window()

    def _restore_window(self) -> None:
        window, self._hidden = self._hidden, None
        if window is not None:
            window.show()

    def _on_selected(self, rect: QRect) -> None:
        physical = to_physical(rect, self._screenshot.devicePixelRatio())
        image = self._screenshot.copy(physical).toImage()  # pixmaps stay on the GUI thread
        self._close_overlay()
        name = time.strftime("screen-%Y%m%d-%H%M%S.png")

        def on_done(data: bytes | None, error: BaseException | None) -> None:
            if error is not None or data is None:
                self.failed.emit(self.tr("The screen region could not be saved: {error}").format(error=error))
            else:
                self.captured.emit(data, name)

        self._background.run(lambda: png_bytes(image), on_done)

    def _on_cancelled(self) -> None:
        self._close_overlay()
        self.cancelled.emit()
