"""Outlines of the documents on a page (several receipts on one scanner glass), for the canvas.

One dashed polygon per document the server found, in image pixels (scene units), under the line
items; an ordinary page (one document, the whole page) gets none. Notes in another ink (a pen's
marks: PageResult.marks) get a dotted outline and their text as a tooltip: shown, not the page's text.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QPointF, Qt
from PySide6.QtGui import QColor, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsPolygonItem

from scanner_app.core.results import PageResult

OUTLINE_COLOR = QColor(0, 160, 80)
OUTLINE_PX = 2.5  # cosmetic: screen pixels at any zoom
MARK_COLOR = QColor(200, 0, 160)


def _polygons(
    boxes: list[tuple[tuple[float, float], ...]], pen: QPen, tips: list[str] | None = None
) -> list[QGraphicsPolygonItem]:
    pen.setCosmetic(True)
    items = []
    for box, tip in zip(boxes, tips or [""] * len(boxes), strict=True):
        item = QGraphicsPolygonItem(QPolygonF([QPointF(x, y) for x, y in box]))
        item.setPen(pen)
        if tip:
            item.setToolTip(tip)
        item.setZValue(0.5)  # over the image, under the lines
        items.append(item)
    return items


def outline_items(page: PageResult | None) -> list[QGraphicsPolygonItem]:
    """A dashed outline per document on ``page``; [] for an ordinary page or none."""
    if page is None or len(page.receipts) < 2:
        return []
    return _polygons([r.box for r in page.receipts], QPen(OUTLINE_COLOR, OUTLINE_PX, Qt.PenStyle.DashLine))


def mark_items(page: PageResult | None) -> list[QGraphicsPolygonItem]:
    """A dotted outline per note in another ink on ``page``, its text as the tooltip."""
    if page is None:
        return []
    tip = QCoreApplication.translate("DocumentOutlines", "Note in another ink (not the document's text): {0}")
    return _polygons(
        [m.box for m in page.marks],
        QPen(MARK_COLOR, OUTLINE_PX, Qt.PenStyle.DotLine),
        [tip.format(m.text) for m in page.marks],
    )


def document_at(page: PageResult | None, x: float, y: float) -> int:
    """The document whose outline holds the image point (x, y) on a page with several, else -1."""
    if page is None or len(page.receipts) < 2:
        return -1
    for index, receipt in enumerate(page.receipts):
        polygon = QPolygonF([QPointF(px, py) for px, py in receipt.box])
        if polygon.containsPoint(QPointF(x, y), Qt.FillRule.OddEvenFill):
            return index
    return -1
