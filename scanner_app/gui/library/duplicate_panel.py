"""A flagged pair side by side: the receipt, the one it may repeat, why the library thinks so, and a
person's decision (``decided(receipt, original, "confirmed" | "dismissed")``)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QFrame, QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from scanner_app.core.library.duplicates import DuplicateFlag
from scanner_app.gui.library.search import LibraryRow
from scanner_app.gui.library.thumbnails import ThumbnailCache


class DuplicatePanel(QFrame):
    """``show_pair(flag, receipt, original)``; hidden while the current receipt has no open flag."""

    decided = Signal(int, int, str)  # receipt id, original id, "confirmed" or "dismissed"

    def __init__(self, thumbnails: ThumbnailCache, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.thumbnails = thumbnails
        self.flag: DuplicateFlag | None = None
        self.reasons: dict[str, str] = {}
        layout = QVBoxLayout(self)
        self.title = QLabel(self)
        self.title.setWordWrap(True)
        self.detail = QLabel(self)
        self.detail.setWordWrap(True)
        layout.addWidget(self.title)
        layout.addWidget(self.detail)
        grid = QGridLayout()
        self.images = [QLabel(self), QLabel(self)]
        self.captions = [QLabel(self), QLabel(self)]
        for column, (image, caption) in enumerate(zip(self.images, self.captions, strict=True)):
            image.setAlignment(Qt.AlignmentFlag.AlignCenter)
            image.setMinimumSize(thumbnails.side, thumbnails.side)
            caption.setWordWrap(True)
            caption.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
            grid.addWidget(image, 0, column)
            grid.addWidget(caption, 1, column)
        layout.addLayout(grid)
        buttons = QHBoxLayout()
        self.confirm_button = QPushButton(self.tr("Same receipt"), self)
        self.confirm_button.setToolTip(
            self.tr("Confirm: the later one is marked a duplicate (exports leave it out)")
        )
        self.confirm_button.clicked.connect(lambda: self._decide("confirmed"))
        self.dismiss_button = QPushButton(self.tr("Not a duplicate"), self)
        self.dismiss_button.setToolTip(self.tr("Dismiss: this pair is never flagged again"))
        self.dismiss_button.clicked.connect(lambda: self._decide("dismissed"))
        buttons.addStretch(1)
        buttons.addWidget(self.confirm_button)
        buttons.addWidget(self.dismiss_button)
        layout.addLayout(buttons)
        layout.addStretch(1)
        self._ids: tuple[int, int] = (0, 0)
        thumbnails.ready.connect(self._on_thumbnail)
        self.setVisible(False)

    def show_pair(
        self, flag: DuplicateFlag | None, receipt: LibraryRow | None, original: LibraryRow | None
    ) -> None:
        self.flag = flag
        if flag is None:
            self.setVisible(False)
            return
        reason = self.reasons.get(flag.reason, flag.reason)
        self.title.setText(self.tr("#{0} may be the same receipt as #{1} ({2})").format(
            flag.receipt_id, flag.original_id, reason))  # fmt: skip
        self.detail.setText(flag.detail)
        self._ids = (flag.receipt_id, flag.original_id)
        pair = (
            (flag.receipt_id, receipt, flag.receipt_path),
            (flag.original_id, original, flag.original_path),
        )
        for n, (receipt_id, row, path) in enumerate(pair):
            self.captions[n].setText(self._caption(receipt_id, row, path))
            self._show_image(n)
        self.confirm_button.setEnabled(True)
        self.dismiss_button.setEnabled(True)
        self.setVisible(True)

    def _caption(self, receipt_id: int, row: LibraryRow | None, path: str) -> str:
        if row is None:
            return f"#{receipt_id}\n{Path(path).name}"
        facts = ", ".join(x for x in (row.vendor, row.date, f"{row.total_text} {row.currency}".strip()) if x)
        return f"#{receipt_id}: {facts}\n{Path(row.source).name}"

    def _show_image(self, n: int) -> None:
        image = self.thumbnails.image(self._ids[n])
        label = self.images[n]
        if image is None:
            label.setPixmap(QPixmap())
            label.setText(self.tr("(no picture)") if self.thumbnails.known(self._ids[n]) else "")
        else:
            label.setPixmap(QPixmap.fromImage(image))

    def _on_thumbnail(self, receipt_id: int) -> None:
        if self.flag is not None:
            for n, shown in enumerate(self._ids):
                if shown == receipt_id:
                    self._show_image(n)

    def _decide(self, state: str) -> None:
        if self.flag is not None:
            self.confirm_button.setEnabled(False)
            self.dismiss_button.setEnabled(False)
            self.decided.emit(self.flag.receipt_id, self.flag.original_id, state)
