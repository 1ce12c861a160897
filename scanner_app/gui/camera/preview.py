"""An image fitted into a widget, optionally with a document outline drawn over it."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

OUTLINE = QColor(40, 200, 90)
OUTLINE_FILL = QColor(40, 200, 90, 50)


def fitted_rect(image_size: QSize, area: QRectF) -> QRectF:
    """Where an image of ``image_size`` goes in ``area``: as large as fits, aspect kept, centred."""
    if image_size.isEmpty() or area.isEmpty():
        return QRectF()
    scale = min(area.width() / image_size.width(), area.height() / image_size.height())
    width, height = image_size.width() * scale, image_size.height() * scale
    left, top = area.x() + (area.width() - width) / 2, area.y() + (area.height() - height) / 2
    return QRectF(left, top, width, height)


class ImagePreview(QWidget):
    """Shows a QImage scaled to fit and a quad (in the image's pixels) over it; a hint when empty."""

    def __init__(self, placeholder: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._image = QImage()
        self._quad: np.ndarray | None = None
        self._placeholder = placeholder
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(200, 150)

    @property
    def image(self) -> QImage:
        return self._image

    @property
    def quad(self) -> np.ndarray | None:
        return self._quad

    def set_image(self, image: QImage | None, quad: np.ndarray | None = None) -> None:
        self._image = image if image is not None else QImage()
        self._quad = None if quad is None else np.asarray(quad, dtype=np.float32).reshape(4, 2)
        self.update()

    def set_placeholder(self, text: str) -> None:
        self._placeholder = text
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(640, 480)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), self.palette().window().color().darker(140))
        target = fitted_rect(self._image.size(), QRectF(self.rect()).adjusted(4, 4, -4, -4))
        if target.isEmpty():
            painter.setPen(self.palette().windowText().color())
            flags = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
            painter.drawText(self.rect(), flags, self._placeholder)
            return
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.drawImage(target, self._image)
        if self._quad is not None:
            scale = target.width() / self._image.width()
            corners = [QPointF(target.x() + x * scale, target.y() + y * scale) for x, y in self._quad]
            polygon = QPolygonF(corners)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(QPen(OUTLINE, 3))
            painter.setBrush(OUTLINE_FILL)
            painter.drawPolygon(polygon)
