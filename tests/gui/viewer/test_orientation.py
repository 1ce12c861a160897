"""The viewer shows a page upright by the server's ORIENTATION, with a one-click undo."""

from __future__ import annotations

import math

from PySide6.QtGui import QImage

from scanner_app.core.results import PageResult, TextLine
from scanner_app.gui.document.model import DocumentModel
from scanner_app.gui.viewer.panel import ViewerPanel


def _view_angle(panel: ViewerPanel) -> int:
    t = panel.canvas.transform()
    return round(math.degrees(math.atan2(t.m12(), t.m11()))) % 360


def _page(orientation: int) -> PageResult:
    line = TextLine(((10.0, 10.0), (50.0, 10.0), (50.0, 20.0), (10.0, 20.0)), "text", 0.99)
    return PageResult("p.png", 200, 100, (line,), orientation=orientation)


def test_viewer_turns_the_page_upright_and_undoes_it(qtbot) -> None:
    document = DocumentModel()
    panel = ViewerPanel(document)
    qtbot.addWidget(panel)
    image = QImage(200, 100, QImage.Format.Format_RGB32)
    image.fill(0xFFFFFFFF)
    document.set_image(image, 1.0, "p.png", None)
    document.set_result(_page(90))
    assert _view_angle(panel) == 90
    upright = panel.view_actions["upright"]
    upright.trigger()  # undo: the page as sent
    assert not upright.isChecked() and _view_angle(panel) == 0
    upright.trigger()
    assert _view_angle(panel) == 90
    document.set_image(image, 1.0, "q.png", None)  # the next page, read upright
    document.set_result(_page(0))
    assert _view_angle(panel) == 0
    document.set_result(_page(270))
    assert _view_angle(panel) == 270
