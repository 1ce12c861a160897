"""Drawing one recognised line over the page: a pure function of painter, line geometry and style.

Geometry is in image pixels (scene units). A label is drawn inside its own box, along the box's
baseline as it lies on screen (turned by 180 degrees where it would read upside down, so on a page
shown upright the labels are upright too), on a plate that covers the printed text. One font size
serves the whole page: ``text_height`` (the page's median line height, see ``page_text_height``)
on screen, lowered only where a box is lower than that or a little where the text is too long;
text still wider than its box is elided ("...") rather than cut, and a box too small on screen
for readable text gets none.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPen, QPolygonF, QTransform

from scanner_app.core.fields.model import LOW_CONFIDENCE  # lines below it: warning colour (one threshold)

RGBA = tuple[int, ...]
TEXT_FILL = 0.72  # font pixel size / the page's median line height
BOX_FILL = 0.88  # the most of a lower box's height a label may take (its line spacing still fits)
SIDEWAYS = 1.3  # a box this much longer across than along the screen's horizontal is a sideways line
SNAP_DEGREES = 4.0  # a baseline this close to level (or plumb) is drawn so: crisp, hinted glyphs
MAX_SHRINK = 0.85  # a label too long for its box may be this much smaller before it is elided
PAD = 0.12  # horizontal padding inside the plate, in font heights


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
    plate_color: RGBA = (255, 255, 255, 255)  # hides the printed text under the label
    hover_plate: RGBA = (255, 244, 190, 245)
    select_plate: RGBA = (215, 233, 250, 245)
    low_text_color: RGBA = (191, 54, 12)  # low-confidence text: darker than the box's amber, readable
    min_text_px: float = 6.0  # below this on screen a label is not drawn (the lines list has it)
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


@dataclass(frozen=True)
class LabelFrame:
    """Where a label goes on screen: centre, angle (degrees) and the box's length and height there."""

    center: QPointF
    angle: float
    length: float
    height: float


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


def _dist(a: QPointF, b: QPointF) -> float:
    return math.hypot(b.x() - a.x(), b.y() - a.y())


def quad_height(points: Sequence[QPointF]) -> float:
    """A line box's height across its text: the shorter of its two pairs of opposite edges (a line is
    longer than high; a sideways page's boxes start at the image's corner); the rectangle's for others."""
    if len(points) != 4:
        return QPolygonF(list(points)).boundingRect().height()
    across = (_dist(points[0], points[3]) + _dist(points[1], points[2])) / 2
    along = (_dist(points[0], points[1]) + _dist(points[3], points[2])) / 2
    return min(across, along)


def page_text_height(polygons: Iterable[QPolygonF]) -> float:
    """The page's median line height in scene units (0 for no lines): the one label size of a page."""
    heights = [quad_height(p.toList()) for p in polygons]
    return statistics.median(heights) if heights else 0.0


def label_frame(polygon: QPolygonF, transform: QTransform) -> LabelFrame:
    """The box as it lies on screen under ``transform``, as a frame whose text reads upright.

    The baseline is the pair of edges nearer to horizontal on screen, unless the other pair is much
    longer (a line shown sideways); boxes of a sideways page start at the image's corner, not the text's.
    """
    points = transform.map(polygon).toList()
    if len(points) != 4:
        rect = QPolygonF(points).boundingRect()
        return LabelFrame(rect.center(), 0.0, rect.width(), rect.height())
    center = QPointF(sum(p.x() for p in points) / 4, sum(p.y() for p in points) / 4)
    along_a = (_dist(points[0], points[1]) + _dist(points[3], points[2])) / 2
    along_b = (_dist(points[1], points[2]) + _dist(points[0], points[3])) / 2
    angle_a = _angle(points[0], points[1])
    angle_b = _angle(points[1], points[2])
    a_flat = abs(math.sin(math.radians(angle_a))) <= abs(math.sin(math.radians(angle_b)))
    use_a = along_a >= along_b / SIDEWAYS if a_flat else along_a * SIDEWAYS > along_b
    angle, length, height = (angle_a, along_a, along_b) if use_a else (angle_b, along_b, along_a)
    return LabelFrame(center, angle, length, height)


def _angle(start: QPointF, end: QPointF) -> float:
    """The direction start -> end in degrees, turned over where text along it would read upside down."""
    angle = math.degrees(math.atan2(end.y() - start.y(), end.x() - start.x()))
    if angle > 90.5 or angle <= -89.5:
        angle = angle - 180 if angle > 0 else angle + 180
    straight = round(angle / 90) * 90
    return float(straight) if abs(angle - straight) < SNAP_DEGREES else angle


def label_pixels(frame: LabelFrame, text_height: float, zoom: float, style: OverlayStyle) -> int:
    """The font's pixel size: the page's size (``text_height`` scene units on screen), no higher than
    the box allows; 0 when that is below ``min_text_px`` (no label)."""
    page_px = (text_height * zoom if text_height > 0 else frame.height) * TEXT_FILL
    pixels = math.floor(min(page_px, frame.height * BOX_FILL))
    return pixels if pixels >= style.min_text_px else 0


@lru_cache(maxsize=64)
def label_font(pixels: int) -> QFont:
    font = QFont()
    font.setPixelSize(pixels)
    return font


@lru_cache(maxsize=8192)
def fitted_text(text: str, pixels: int, width: int) -> tuple[str, int]:
    """``text`` and its font size for ``width`` device pixels: the size lowered by at most
    ``1 - MAX_SHRINK`` where that makes it fit, else elided on the right ("" when nothing fits)."""
    advance = QFontMetricsF(label_font(pixels)).horizontalAdvance(text)
    if advance <= width:
        return text, pixels
    smaller = math.floor(pixels * width / advance) if advance > 0 else pixels
    if smaller >= pixels * MAX_SHRINK:
        return text, max(smaller, 1)
    pixels = max(1, math.ceil(pixels * MAX_SHRINK))
    metrics = QFontMetricsF(label_font(pixels))
    elided = metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
    return (elided if elided and metrics.horizontalAdvance(elided) <= width else ""), pixels


def paint_line(
    painter: QPainter,
    line: LineGeometry,
    style: OverlayStyle,
    hovered: bool = False,
    selected: bool = False,
    text_height: float = 0.0,
) -> None:
    """Draw one line: label plate and text inside the box, box outline, then the hover/selection tint.

    ``text_height``: the page's label size in scene units (``page_text_height``); 0: the box's own.
    """
    low = is_low(line.score, style)
    color = QColor(*(style.low_color if low else style.box_color))
    painter.save()
    text = label_text(line, style)
    if text:
        device = painter.worldTransform()
        frame = label_frame(line.polygon, device)
        pixels = label_pixels(frame, text_height, zoom_of(device), style)
        if pixels:
            pad = max(1.0, pixels * PAD)
            shown, pixels = fitted_text(text, pixels, math.floor(frame.length - 2 * pad))
            painter.save()
            painter.resetTransform()
            painter.translate(frame.center)
            painter.rotate(frame.angle)
            plate = QRectF(-frame.length / 2, -frame.height / 2, frame.length, frame.height)
            painter.setPen(Qt.PenStyle.NoPen)
            fill = style.hover_plate if hovered else style.select_plate if selected else style.plate_color
            painter.setBrush(QBrush(QColor(*fill)))
            level = frame.angle % 90 == 0  # a level plate needs no antialiasing (and fills much faster)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, not level)
            painter.drawRect(plate)
            if shown:
                painter.setFont(label_font(pixels))
                painter.setPen(QPen(QColor(*(style.low_text_color if low else style.text_color))))
                painter.setClipRect(plate, Qt.ClipOperation.IntersectClip)  # a glyph's overhang stays inside
                align = Qt.AlignmentFlag
                flags = align.AlignVCenter | align.AlignLeft | Qt.TextFlag.TextSingleLine
                painter.drawText(plate.adjusted(pad, 0, -pad, 0), flags, shown)
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
