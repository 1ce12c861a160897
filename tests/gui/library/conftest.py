"""The Library tab's tests: a real library file in the test's folder, filled with real page results
(rendered receipts and the reading a perfect reader gives), and the tab over it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from scanner_app.core.library.library import Library
from scanner_app.core.results import PageResult
from scanner_app.gui.library.hub import LibraryHub
from scanner_app.gui.library.panel import LibraryPanel
from tests.helpers.library import page_in, write_receipts

RECEIPTS = 4


@dataclass(frozen=True)
class Filled:
    path: Path  # the library file
    files: list[tuple[Path, PageResult]]  # the receipts' files and readings, by id - 1


@pytest.fixture
def filled(tmp_path: Path) -> Filled:
    """A library of RECEIPTS receipts read by the Batch tab (ids 1..RECEIPTS in file order)."""
    path = tmp_path / "library" / "library.sqlite"
    files = [(p, result) for p, result, _ in write_receipts(tmp_path / "receipts", RECEIPTS, seed=3)]
    with Library(path) as library:
        for source, result in files:
            library.ingest(page_in(source, result, "batch"))
    return Filled(path, files)


@pytest.fixture
def tab(qtbot, filled: Filled) -> Iterator[LibraryPanel]:
    """The Library tab over ``filled``, shown, its first search in."""
    panel = open_tab(qtbot, filled.path)
    qtbot.waitUntil(lambda: panel.fetched is not None and len(panel.fetched.rows) == RECEIPTS, timeout=20_000)
    yield panel
    close_tab(panel)


def open_tab(qtbot, path: Path) -> LibraryPanel:
    hub = LibraryHub(path)
    panel = LibraryPanel(hub)
    qtbot.addWidget(panel)
    panel.resize(1400, 700)
    panel.show()
    return panel


def close_tab(panel: LibraryPanel) -> None:
    panel.shutdown()
    panel.hub.shutdown()
    panel.hub.deleteLater()
