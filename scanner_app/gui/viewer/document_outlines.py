"""Outlines of the documents on a page (several receipts on one scanner glass), for the canvas.

One dashed polygon per document the server found, in image pixels (scene units), under the line
items; an ordinary page (one document, the whole page) gets none.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsPolygonItem

from scanner_app.core.results import PageResult

OUTLINE_COLOR = QColor(0, 160, 80)
OUTLINE_PX = 2.5  # cosmetic: screen pixels at any zoom


def outline_items(page: PageResult | None) -> list[QGraphicsPolygonItem]:
    """A dashed outline per document on ``page``; [] for an ordinary page or none."""
    if page is None or len(page.receipts) < 2:
        return []
    pen = QPen(OUTLINE_COLOR, OUTLINE_PX, Qt.PenStyle.DashLine)
    pen.setCosmetic(True)
    items = []
    for receipt in page.receipts:
        item = QGraphicsPolygonItem(QPolygonF([QPointF(x, y) for x, y in receipt.box]))
        item.setPen(pen)
        item.setZValue(0.5)  # over the image, under the lines
        items.append(item)
    return items


def document_at(page: PageResult | None, x: float, y: float) -> int:
    """The document whose outline holds the image point (x, y) on a page with several, else -1."""
    if page is None or len(page.receipts) < 2:
        return -1
    for index, receipt in enumerate(page.receipts):
        polygon = QPolygonF([QPointF(px, py) for px, py in receipt.box])
        if polygon.containsPoint(QPointF(x, y), Qt.FillRule.OddEvenFill):
            return index
    return -1
