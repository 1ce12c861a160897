"""Receipt thumbnails, read from the library and decoded off the GUI thread when first asked, then cached.

``image(id)`` answers at once: the cached QImage, or None while it is read (``ready(id)`` follows)
or when the receipt has none (its file was gone when it was read). The cache keeps the most recently
shown ``capacity`` images.
"""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QImage

from scanner_app.core.library.library import Library
from scanner_app.gui.background import Background


def decode(jpeg: bytes | None, side: int) -> QImage:
    """The thumbnail scaled to fit ``side`` x ``side`` (a null QImage when there is none); any thread."""
    image = QImage.fromData(jpeg) if jpeg else QImage()
    if image.isNull():
        return QImage()
    mode = Qt.TransformationMode.SmoothTransformation
    return image.scaled(side, side, Qt.AspectRatioMode.KeepAspectRatio, mode)


class ThumbnailCache(QObject):
    """Thumbnails of one library at one size; ``set_library`` starts over."""

    ready = Signal(int)  # a receipt's thumbnail was read (image() now answers)

    def __init__(self, side: int, capacity: int = 2000, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.side, self.capacity = side, capacity
        self._library: Library | None = None
        self._images: OrderedDict[int, QImage] = OrderedDict()
        self._pending: set[int] = set()
        self._generation = 0
        self._background = Background(self, threads=2)

    def set_library(self, library: Library | None) -> None:
        self._library = library
        self._images.clear()
        self._pending.clear()
        self._generation += 1

    def forget(self, receipt_id: int) -> None:
        """Read it again next time (a receipt read again may have another picture)."""
        self._images.pop(receipt_id, None)

    def known(self, receipt_id: int) -> bool:
        """Read already (``image`` None then means the receipt has no thumbnail)."""
        return receipt_id in self._images

    def image(self, receipt_id: int) -> QImage | None:
        found = self._images.get(receipt_id)
        if found is not None:
            self._images.move_to_end(receipt_id)
            return None if found.isNull() else found
        library = self._library
        if library is not None and receipt_id not in self._pending:
            self._pending.add(receipt_id)
            generation, side = self._generation, self.side
            self._background.run(
                lambda: decode(library.thumbnail(receipt_id), side),
                lambda image, error: self._on_read(generation, receipt_id, image, error),
            )
        return None

    def close(self) -> None:
        self._background.close()

    def wait(self, msecs: int = -1) -> bool:
        return self._background.wait(msecs)

    def _on_read(
        self, generation: int, receipt_id: int, image: QImage | None, error: BaseException | None
    ) -> None:
        if generation != self._generation:
            return
        self._pending.discard(receipt_id)
        self._images[receipt_id] = image if image is not None and error is None else QImage()
        while len(self._images) > self.capacity:
            self._images.popitem(last=False)
        self.ready.emit(receipt_id)
