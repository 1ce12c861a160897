"""Drawing one recognised line over the page: a pure function of painter, line geometry and style.

Geometry is in image pixels (scene units). Labels are drawn in device pixels, upright, at a whole
pixel size about as tall as the box on screen and never below ``min_text_px``, on a translucent
plate: readable at any zoom or rotation, and cheap (a few font sizes, so glyph caches are reused
from one zoom step to the next).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPen, QPolygonF, QTransform

RGBA = tuple[int, ...]
LOW_CONFIDENCE = 0.80  # lines scored below this are drawn (and listed) in the warning colour


@dataclass(frozen=True)
class OverlayStyle:
    """What to draw and in which colours."""

    show_boxes: bool = True
    show_text: bool = True
    show_scores: bool = False
    low_confidence: float = LOW_CONFIDENCE
    box_color: RGBA = (0, 120, 215)
    low_color: RGBA = (230, 81, 0)
    hover_fill: RGBA = (255, 214, 0, 90)
    select_fill: RGBA = (0, 120, 215, 70)
    text_color: RGBA = (20, 20, 60)
    plate_color: RGBA = (255, 255, 255, 240)
    hover_plate: RGBA = (255, 244, 190, 245)
    select_plate: RGBA = (215, 233, 250, 245)
    min_text_px: float = 9.0  # smallest text on screen, in device pixels
    pen_px: float = 1.5


@dataclass(frozen=True)
class LineGeometry:
    """A line's quadrilateral and the label drawn for it."""

    polygon: QPolygonF
    text: str
    score: float

    @property
    def rect(self) -> QRectF:
        return self.polygon.boundingRect()


def is_low(score: float, style: OverlayStyle) -> bool:
    return score < style.low_confidence


def label_text(line: LineGeometry, style: OverlayStyle) -> str:
    """The text drawn on the page: the recognised text, its score, both or nothing."""
    parts = []
    if style.show_text and line.text:
        parts.append(line.text)
    if style.show_scores:
        parts.append(f"{line.score:.2f}")
    return "  ".join(parts)


def zoom_of(transform: QTransform) -> float:
    """Screen pixels per scene unit (rotation ignored)."""
    return math.hypot(transform.m11(), transform.m12())


def label_pixels(line: LineGeometry, zoom: float, style: OverlayStyle, text: str = "") -> int:
    """The label's font size on screen: ~80 % of the box height there, shrunk so the text fits the
    box's width, never below min_text_px."""
    smallest = round(style.min_text_px)
    pixels = max(smallest, round(line.rect.height() * 0.8 * zoom))
    if text and pixels > smallest:
        advance = _text_size(text, pixels)[0]
        width = line.rect.width() * zoom
        if advance > width > 0:
            pixels = max(smallest, int(pixels * width / advance))
    return pixels


@lru_cache(maxsize=8192)
def _text_size(text: str, pixels: int) -> tuple[float, float]:
    metrics = QFontMetricsF(label_font(pixels))
    return metrics.horizontalAdvance(text), metrics.height()


def label_font(pixels: int) -> QFont:
    font = QFont()
    font.setPixelSize(pixels)
    return font


def device_plate(line: LineGeometry, transform: QTransform, style: OverlayStyle, text: str) -> QRectF:
    """The label plate in the coordinates ``transform`` maps the scene to: at the box's left edge,
    centred on it vertically, as wide as the box or the text, whichever is wider."""
    box = transform.map(line.polygon).boundingRect()
    pixels = label_pixels(line, zoom_of(transform), style, text)
    advance, height = _text_size(text, pixels)
    pad = pixels * 0.15
    return QRectF(box.left(), box.center().y() - height / 2 - pad,
                  max(advance + 2 * pad, box.width()), height + 2 * pad)  # fmt: skip


def label_rect(line: LineGeometry, view: QTransform, style: OverlayStyle) -> QRectF:
    """Where the label plate lies in scene units for a view transform (linear part used); empty if none."""
    text = label_text(line, style)
    if not text:
        return QRectF()
    linear = QTransform(view.m11(), view.m12(), view.m21(), view.m22(), 0, 0)
    inverse, invertible = linear.inverted()
    if not invertible:
        return QRectF()
    return inverse.mapRect(device_plate(line, linear, style, text))


def paint_line(
    painter: QPainter,
    line: LineGeometry,
    style: OverlayStyle,
    hovered: bool = False,
    selected: bool = False,
) -> None:
    """Draw one line: label plate and text, box outline, then the hover/selection tint on top."""
    color = QColor(*(style.low_color if is_low(line.score, style) else style.box_color))
    painter.save()
    text = label_text(line, style)
    if text:
        device = painter.worldTransform()
        plate = device_plate(line, device, style, text)
        painter.save()
        painter.resetTransform()
        painter.setPen(Qt.PenStyle.NoPen)
        fill = style.hover_plate if hovered else style.select_plate if selected else style.plate_color
        painter.setBrush(QBrush(QColor(*fill)))
        painter.drawRect(plate)
        painter.setFont(label_font(label_pixels(line, zoom_of(device), style, text)))
        painter.setPen(QPen(color if is_low(line.score, style) else QColor(*style.text_color)))
        inner = plate.adjusted(plate.height() * 0.1, 0, 0, 0)
        painter.drawText(inner, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
        painter.restore()
    if hovered or selected:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(QColor(*(style.hover_fill if hovered else style.select_fill))))
        painter.drawPolygon(line.polygon)
    if style.show_boxes or hovered or selected:
        pen = QPen(color, style.pen_px * (2 if selected or hovered else 1))
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPolygon(line.polygon)
    painter.restore()


def polygon_of(box: tuple[tuple[float, float], ...]) -> QPolygonF:
    return QPolygonF([QPointF(x, y) for x, y in box])
