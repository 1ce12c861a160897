"""Where file dialogs start: the folder of the documents at hand, never the process's working directory."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

LAST_FOLDER = "ui/last_folder"  # the folder of the documents opened last


def last_folder() -> Path:
    """The folder documents were last opened from (the home folder at first)."""
    return Path(str(QSettings().value(LAST_FOLDER, str(Path.home()))))


def remember_folder(folder: Path) -> None:
    QSettings().setValue(LAST_FOLDER, str(folder))


def start_folder(source: Path | None) -> Path:
    """The document's own folder when it came from a file, else the folder opened last."""
    if source is not None and source.parent.is_dir():
        return source.parent
    return last_folder()
