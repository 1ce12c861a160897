"""Overlay labels: one font size per page, inside their boxes (elided, never cut), upright on a page
shown upright, and the same at a 1.5 device pixel ratio (what QT_SCALE_FACTOR=1.5 paints with)."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QFontMetricsF, QImage, QPainter, QTransform

from scanner_app.core.results import PageResult, TextLine
from scanner_app.gui.document.model import DocumentModel
from scanner_app.gui.viewer.overlay import (
    LineGeometry,
    OverlayStyle,
    fitted_text,
    label_font,
    label_frame,
    label_pixels,
    page_text_height,
    paint_line,
    polygon_of,
)
from scanner_app.gui.viewer.panel import ViewerPanel


def _box(x: float, y: float, w: float, h: float) -> tuple[tuple[float, float], ...]:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def test_one_font_size_per_page_lowered_only_for_lower_boxes(qapp) -> None:
    heights = [30, 31, 32, 33, 34, 60, 90]  # a title twice as high does not get a bigger label
    polygons = [polygon_of(_box(10, 10 + 100 * i, 400, h)) for i, h in enumerate(heights)]
    median = page_text_height(polygons)
    assert median == 33
    style, view = OverlayStyle(), QTransform().scale(1.5, 1.5)
    sizes = [label_pixels(label_frame(p, view), median, 1.5, style) for p in polygons]
    assert len(set(sizes[2:])) == 1  # every box as high as 0.72 / 0.88 of the median or more: one size
    assert sizes[0] <= sizes[-1] and sizes[0] >= 0.9 * sizes[-1]  # a slightly lower box: a little smaller


def test_long_text_is_elided_to_its_box_not_cut(qapp) -> None:
    text = "Whiteboard Markers Set, assorted colours, pack of twelve"
    shown, pixels = fitted_text(text, 14, 120)
    assert shown.endswith("…") and shown[:-1] in text
    assert QFontMetricsF(label_font(pixels)).horizontalAdvance(shown) <= 120
    assert pixels >= 14 * 0.85
    assert fitted_text("12.50", 14, 200) == ("12.50", 14)  # what fits stays as it is


@pytest.mark.parametrize("ratio", [1.0, 1.5])
def test_no_label_ink_outside_its_box_at_any_scale_factor(qapp, ratio: float) -> None:
    """Long texts in short boxes, drawn on a device of ``ratio`` (QT_SCALE_FACTOR=1.5's painting)."""
    style = OverlayStyle(show_boxes=False, plate_color=(255, 255, 255, 255))
    image = QImage(round(700 * ratio), round(300 * ratio), QImage.Format.Format_RGB32)
    image.setDevicePixelRatio(ratio)
    image.fill(0xFFFFFFFF)
    boxes = [_box(20, 20, 60, 24), _box(120, 20, 500, 40), _box(20, 120, 140, 18), _box(200, 120, 90, 60)]
    texts = ["1 roll of packing tape", "Bluebird Stationers Group, Vancouver", "9 pcs of toner", "Qty"]
    painter = QPainter(image)
    for box, text in zip(boxes, texts, strict=True):
        paint_line(painter, LineGeometry(polygon_of(box), text, 0.99), style, text_height=30)
    painter.end()
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine() // 4, 4)
    dark = (pixels[: image.height(), : image.width(), :3] < 160).any(axis=2)
    inside = np.zeros_like(dark)
    for (x0, y0), _, (x1, y1), _ in boxes:
        inside[round(y0 * ratio) : round(y1 * ratio) + 1, round(x0 * ratio) : round(x1 * ratio) + 1] = True
    assert dark.sum() > 200  # labels were drawn
    assert not (dark & ~inside).any()
    for box in boxes:  # every box holds some ink
        (x0, y0), _, (x1, y1), _ = box
        assert dark[round(y0 * ratio) : round(y1 * ratio), round(x0 * ratio) : round(x1 * ratio)].any()


def test_labels_of_a_page_shown_upright_read_upright(qtbot) -> None:
    """A page the server read sideways (orientation 90): with Upright on, each label's baseline is level
    on screen; with it off, the labels follow the sideways lines."""
    width, height = 300, 500  # the sideways image: lines run bottom to top
    lines = tuple(TextLine(((40.0 + 60 * i, 400.0), (40.0 + 60 * i, 100.0), (80.0 + 60 * i, 100.0),
                            (80.0 + 60 * i, 400.0)), f"line {i}", 0.95) for i in range(3))  # fmt: skip
    page = PageResult("sideways.png", width, height, lines, orientation=90)
    document = DocumentModel()
    panel = ViewerPanel(document)
    qtbot.addWidget(panel)
    panel.resize(600, 600)
    panel.show()
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(0xFFFFFFFF)
    document.set_image(image, 1.0, page.image, None)
    document.set_result(page)
    canvas = panel.canvas
    assert canvas.rotation() == 90
    frames = [label_frame(item.geometry.polygon, canvas.transform()) for item in canvas.line_items]
    assert [f.angle for f in frames] == [0.0, 0.0, 0.0]
    assert all(f.length > 5 * f.height for f in frames)  # along the line, not across it
    panel.view_actions["upright"].trigger()
    assert canvas.rotation() == 0
    frames = [label_frame(item.geometry.polygon, canvas.transform()) for item in canvas.line_items]
    assert all(abs(f.angle) == 90 for f in frames)
