"""What a drop or a paste carries: local paths, or an image (no widgets)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QImage


def local_paths(mime: QMimeData) -> list[Path]:
    """Local files and folders named by the mime data's URLs, in order."""
    if not mime.hasUrls():
        return []
    return [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile() and url.toLocalFile()]


def image_of(mime: QMimeData) -> QImage | None:
    """The image carried by the mime data (screenshot tools, browsers), or None."""
    if not mime.hasImage():
        return None
    image = mime.imageData()
    return image if isinstance(image, QImage) and not image.isNull() else None
