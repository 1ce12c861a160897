"""Shared pieces of the GUI-shell tests: a main window on the real server, synthetic pages, waits."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QImage

from scanner_app.core.results import PageResult, TextLine
from scanner_app.gui.connection.link import ServerConnection
from scanner_app.gui.document.session_folder import SessionFolder
from scanner_app.gui.window.main_window import MainWindow

READY_TIMEOUT_MS = 120_000
RECOGNIZE_TIMEOUT_MS = 180_000


@contextmanager
def main_window(qtbot, urls: list[str], session_dir: Path, wait_ready: bool = True) -> Iterator[MainWindow]:
    """A shown MainWindow on ``urls`` (no embedded server); closed and shut down afterwards."""
    connection = ServerConnection(urls=urls, start_embedded_if_unconfigured=False)
    window = MainWindow(connection, session=SessionFolder(session_dir))
    qtbot.addWidget(window)
    window.show()
    connection.start()
    try:
        if wait_ready:
            qtbot.waitUntil(lambda: connection.state.status == "ready", timeout=READY_TIMEOUT_MS)
        yield window
    finally:
        window.close()
        connection.shutdown()


def synthetic_page(n: int = 5) -> PageResult:
    """``n`` lines stacked vertically on an 800x(60n+40) page; line 1 has a low score."""
    lines = []
    for i in range(n):
        y = 20 + 60 * i
        box = ((40.0, y), (400.0, y), (400.0, y + 40.0), (40.0, y + 40.0))
        lines.append(TextLine(box, f"line {i} text", 0.5 if i == 1 else 0.97))
    return PageResult("synthetic.png", 800, 60 * n + 40, tuple(lines))


def show_synthetic(window: MainWindow, page: PageResult) -> None:
    """Put an image and a result in the window's document, as a recognition would."""
    image = QImage(page.width, page.height, QImage.Format.Format_RGB32)
    image.fill(0xFFFFFFFF)
    window.document.set_image(image, 1.0, page.image, None)
    window.document.set_result(page)


def drop_paths(window: MainWindow, paths: list[Path]) -> None:
    """Drag local files or folders over the window and drop them."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    drop(window, mime)


def drop(window: MainWindow, mime: QMimeData) -> None:
    """Drag the mime data over the window and drop it (QApplication routes drops only from a real
    drag, so the window's own handlers are called, as Qt's drag manager would)."""
    buttons, modifiers = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    try:  # PySide6 >= 6.12 takes a QPointF (and deprecates QPoint); earlier ones only a QPoint
        enter = QDragEnterEvent(QPointF(200, 200), Qt.DropAction.CopyAction, mime, buttons, modifiers)
    except TypeError:
        enter = QDragEnterEvent(QPoint(200, 200), Qt.DropAction.CopyAction, mime, buttons, modifiers)
    window.dragEnterEvent(enter)
    assert enter.isAccepted()
    event = QDropEvent(QPointF(200, 200), Qt.DropAction.CopyAction, mime, buttons, modifiers)
    window.dropEvent(event)
    assert event.isAccepted()
