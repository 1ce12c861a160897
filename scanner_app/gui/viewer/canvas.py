"""The page canvas: the image with one item per recognised line; zoom, fit, 100 %, pan, rotate.

Wheel zooms, drag (or middle drag) pans, click selects (Ctrl+click adds), Shift+drag selects the
lines inside a rectangle.

It renders the DocumentModel and forwards intent to it (hover, click selection); it owns no
document state. Hit-testing is done by viewer.hit_test on the line boxes, in image pixels.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPixmap, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import (
    QGraphicsPixmapItem,
    QGraphicsPolygonItem,
    QGraphicsScene,
    QGraphicsView,
    QRubberBand,
    QWidget,
)

from scanner_app.gui.document.model import DocumentModel
from scanner_app.gui.viewer import hit_test
from scanner_app.gui.viewer.document_outlines import document_at, mark_items, outline_items
from scanner_app.gui.viewer.line_item import LineItem
from scanner_app.gui.viewer.overlay import LineGeometry, OverlayStyle, page_text_height, polygon_of

ZOOM_STEP = 1.25
MIN_ZOOM, MAX_ZOOM = 0.02, 32.0
CLICK_SLOP_PX = 4


class PageCanvas(QGraphicsView):
    """Shows the document's image and lines; wheel zooms, drag pans, click selects."""

    zoom_changed = Signal(float)  # screen pixels per image pixel
    document_clicked = Signal(int)  # a click inside document k's outline (a receipt on a glass page)

    def __init__(self, document: DocumentModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._style = OverlayStyle()
        self._scene = QGraphicsScene(self)
        self.setScene(self._scene)
        self._pixmap_item = QGraphicsPixmapItem()
        self._pixmap_item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        self._pixmap_item.setCacheMode(QGraphicsPixmapItem.CacheMode.DeviceCoordinateCache)  # cheap hovers
        self._scene.addItem(self._pixmap_item)
        self._items: list[LineItem] = []
        self._outlines: list[QGraphicsPolygonItem] = []  # one per document on a glass page
        self._boxes = hit_test.boxes_array([])
        self._fit_mode = True
        self._press: QPoint | None = None
        self._panning = False
        self._band = QRubberBand(QRubberBand.Shape.Rectangle, self.viewport())
        self._band_origin: QPoint | None = None
        self.setBackgroundBrush(QColor(64, 64, 64))
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setMouseTracking(True)
        document.image_changed.connect(self._on_image_changed)
        document.page_changed.connect(self._on_page_changed)
        document.hovered_changed.connect(self._on_pointer_changed)
        document.selection_changed.connect(self._on_selection_changed)
        document.line_changed.connect(self._on_line_changed)

    # Public view actions ----------------------------------------------------------------------
    @property
    def style_options(self) -> OverlayStyle:
        return self._style

    @property
    def line_items(self) -> list[LineItem]:
        return list(self._items)

    def set_style(self, style: OverlayStyle) -> None:
        self._style = style
        for item in self._items:
            item.set_style(style)

    def rotation(self) -> int:
        """The view's turn in degrees, 0, 90, 180 or 270."""
        t = self.transform()
        return round(math.degrees(math.atan2(t.m12(), t.m11()))) % 360

    def zoom(self) -> float:
        """Screen pixels per image pixel (rotation ignored)."""
        t = self.transform()
        return math.hypot(t.m11(), t.m12())

    def zoom_by(self, factor: float) -> None:
        target = min(MAX_ZOOM, max(MIN_ZOOM, self.zoom() * factor))
        self._fit_mode = False
        self._apply_zoom(target / self.zoom())

    def zoom_in(self) -> None:
        self.zoom_by(ZOOM_STEP)

    def zoom_out(self) -> None:
        self.zoom_by(1 / ZOOM_STEP)

    def actual_size(self) -> None:
        """100 %: one image pixel per screen pixel (the rotation is kept)."""
        self._fit_mode = False
        self._apply_zoom(1.0 / self.zoom())

    def fit(self) -> None:
        """Fit the whole page in the view; stays fitted when the window is resized."""
        self._fit_mode = True
        rect = self._scene_rect()
        if rect.isEmpty():
            return
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        self._zoom_applied()

    def rotate_by(self, degrees: int) -> None:
        """Rotate the view by a multiple of 90 degrees (the image and overlay together)."""
        self.rotate(degrees)
        if self._fit_mode:
            self.fit()
        else:
            self._zoom_applied()

    def _apply_zoom(self, factor: float) -> None:
        self.scale(factor, factor)
        self._zoom_applied()

    def _zoom_applied(self) -> None:
        view = self.transform()
        for item in self._items:
            item.set_view_transform(view)
        self.zoom_changed.emit(self.zoom())

    def _scene_rect(self):
        return self._pixmap_item.sceneBoundingRect()

    # Model -> view ------------------------------------------------------------------------------
    def _on_image_changed(self) -> None:
        image = self._document.image
        self._pixmap_item.setPixmap(QPixmap.fromImage(image) if not image.isNull() else QPixmap())
        self._pixmap_item.setScale(self._document.image_scale)
        self._scene.setSceneRect(self._scene_rect())
        self.resetTransform()  # a new document starts unturned (its own orientation is applied later)
        self.fit()

    def _on_page_changed(self) -> None:
        for item in [*self._items, *self._outlines]:
            self._scene.removeItem(item)
        self._items = []
        page = self._document.page
        self._outlines = outline_items(page) + mark_items(page)
        for outline in self._outlines:
            self._scene.addItem(outline)
        lines = page.lines if page else ()
        self._boxes = hit_test.boxes_array([line.box for line in lines])
        view = self.transform()
        polygons = [polygon_of(line.box) for line in lines]
        text_height = page_text_height(polygons)  # one label size for the whole page
        for index, (line, polygon) in enumerate(zip(lines, polygons, strict=True)):
            geometry = LineGeometry(polygon, line.text, line.score)
            item = LineItem(index, geometry, self._style, view, text_height)
            self._scene.addItem(item)
            self._items.append(item)
        self._on_selection_changed(self._document.selection)

    def _on_pointer_changed(self, _index: int = -1) -> None:
        hovered, selected = self._document.hovered, set(self._document.selection)
        for item in self._items:
            item.set_state(item.index == hovered, item.index in selected)

    def _on_selection_changed(self, indices: list[int]) -> None:
        self._on_pointer_changed()
        visible = self.mapToScene(self.viewport().rect()).boundingRect()
        if indices and indices[0] < len(self._items):
            rect = self._items[indices[0]].geometry.rect
            if not visible.contains(rect):
                self.centerOn(rect.center())

    def _on_line_changed(self, index: int) -> None:
        page = self._document.page
        if page is not None and 0 <= index < len(self._items):
            self._items[index].set_text(page.lines[index].text)

    # Input -> model -----------------------------------------------------------------------------
    def _line_under(self, pos: QPoint) -> int:
        point = self.mapToScene(pos)
        return hit_test.line_at(self._boxes, point.x(), point.y(), tolerance=3 / max(self.zoom(), 1e-6))

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120
        if steps:
            self.zoom_by(ZOOM_STEP**steps)
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        shift = event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        if event.button() == Qt.MouseButton.LeftButton and shift:  # Shift+drag: select a region's lines
            self._band_origin = event.position().toPoint()
            self._band.setGeometry(QRect(self._band_origin, QSize()))
            self._band.show()
            event.accept()
            return
        if event.button() in (Qt.MouseButton.LeftButton, Qt.MouseButton.MiddleButton):
            self._press = event.position().toPoint()
            self._panning = event.button() == Qt.MouseButton.MiddleButton
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        if self._band_origin is not None:
            self._band.setGeometry(QRect(self._band_origin, pos).normalized())
            return
        if self._press is not None:
            delta = pos - self._press
            if self._panning or delta.manhattanLength() > CLICK_SLOP_PX:
                self._panning = True
                self.setCursor(Qt.CursorShape.ClosedHandCursor)
                self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
                self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())
                self._press = pos
            return
        self._document.set_hovered(self._line_under(pos))

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._band_origin is not None:
            area = self.mapToScene(QRect(self._band_origin, event.position().toPoint()).normalized())
            rect = area.boundingRect()
            self._document.select(hit_test.lines_in_rect(self._boxes, rect.left(), rect.top(),
                                                         rect.right(), rect.bottom()))  # fmt: skip
            self._band_origin = None
            self._band.hide()
            return
        if self._press is None:
            super().mouseReleaseEvent(event)
            return
        if not self._panning and event.button() == Qt.MouseButton.LeftButton:
            self._click(self._line_under(event.position().toPoint()), event.modifiers())
            point = self.mapToScene(event.position().toPoint())
            document = document_at(self._document.page, point.x(), point.y())
            if document >= 0:
                self.document_clicked.emit(document)
        self._press, self._panning = None, False
        self.unsetCursor()

    def _click(self, index: int, modifiers: Qt.KeyboardModifier) -> None:
        selection = set(self._document.selection)
        if modifiers & Qt.KeyboardModifier.ControlModifier:
            if index >= 0:
                selection ^= {index}
            self._document.select(sorted(selection))
        else:
            self._document.select([index] if index >= 0 else [])

    def leaveEvent(self, event) -> None:
        self._document.set_hovered(-1)
        super().leaveEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._fit_mode:
            self.fit()
