"""One recognised line as a QGraphicsItem; painting is delegated to overlay.paint_line.

Its label lies inside its box, so the item's extent is the box's (plus the cosmetic pen).
"""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from scanner_app.gui.viewer.overlay import LineGeometry, OverlayStyle, paint_line, zoom_of


class LineItem(QGraphicsItem):
    """Draws one line's box and label; state is pushed in by the canvas."""

    def __init__(
        self,
        index: int,
        geometry: LineGeometry,
        style: OverlayStyle,
        view: QTransform,
        text_height: float = 0.0,
    ) -> None:
        super().__init__()
        self._text_height = text_height  # the page's label size in scene units (overlay.page_text_height)
        self.index = index
        self._geometry = geometry
        self._style = style
        self._view = QTransform(view)
        self._hovered = False
        self._selected = False
        self._bounds = self._compute_bounds()
        self.setZValue(1)

    @property
    def geometry(self) -> LineGeometry:
        return self._geometry

    def _compute_bounds(self) -> QRectF:
        margin = 4 / max(zoom_of(self._view), 1e-6)  # cosmetic pen width, in scene units
        return self._geometry.rect.adjusted(-margin, -margin, margin, margin)

    def _relayout(self) -> None:
        self.prepareGeometryChange()
        self._bounds = self._compute_bounds()
        self.update()

    def set_text(self, text: str) -> None:
        self._geometry = LineGeometry(self._geometry.polygon, text, self._geometry.score)
        self._relayout()

    def set_style(self, style: OverlayStyle) -> None:
        self._style = style
        self._relayout()

    def set_view_transform(self, view: QTransform) -> None:
        """The view's scene-to-screen transform changed (zoom, rotation): the pen's margin did too."""
        if view != self._view:
            self._view = QTransform(view)
            self._relayout()

    def set_state(self, hovered: bool, selected: bool) -> None:
        if (hovered, selected) != (self._hovered, self._selected):
            self._hovered, self._selected = hovered, selected
            self.setZValue(2 if hovered or selected else 1)
            self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        paint_line(painter, self._geometry, self._style, self._hovered, self._selected, self._text_height)
