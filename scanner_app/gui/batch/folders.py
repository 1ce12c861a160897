"""Where the Batch tab keeps its batches: the root folder (a setting) and a new folder per batch."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths


def batches_root() -> Path:
    """Where new batch folders go: QSettings "batch/folder", else AppDataLocation/batches."""
    chosen = str(QSettings().value("batch/folder", "") or "")
    if chosen:
        return Path(chosen)
    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)) / "batches"


def new_batch_folder(root: Path) -> Path:
    """``root/<YYYYmmdd-HHMMSS>`` (with a suffix when that exists already)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder, n = root / stamp, 1
    while folder.exists():
        n += 1
        folder = root / f"{stamp}-{n}"
    return folder
