"""File > Open recent: the documents and folders opened last (QSettings), newest first."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import cast

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMenu

SETTING = "ui/recent_files"
LIMIT = 10


def recent_paths() -> list[Path]:
    """The remembered paths that still exist, newest first."""
    value = QSettings().value(SETTING, [])
    names = [value] if isinstance(value, str) else list(cast("Iterable[str]", value or []))  # a list of str
    return [Path(n) for n in names if n and Path(n).exists()]


def remember(paths: list[Path]) -> None:
    """Put ``paths`` first (a path already there moves up); at most LIMIT are kept."""
    names = [str(p) for p in paths] + [str(p) for p in recent_paths()]
    QSettings().setValue(SETTING, list(dict.fromkeys(names))[:LIMIT])


def fill_menu(menu: QMenu, open_path: Callable[[Path], None], empty_text: str) -> None:
    """(Re)fill ``menu`` with the recent paths (called when it is about to show)."""
    menu.clear()
    paths = recent_paths()
    for number, path in enumerate(paths, start=1):
        action = menu.addAction(f"&{number % 10} {path.name}")
        action.setToolTip(str(path))
        action.setData(str(path))
        action.triggered.connect(lambda _checked=False, p=path: open_path(p))
    if not paths:
        menu.addAction(empty_text).setEnabled(False)
