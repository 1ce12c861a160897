"""A flagged pair in the Library tab: the flag in the table, the pair side by side, and a decision
that stays in the library."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt

from scanner_app.core.library.library import Library
from scanner_app.gui.library.panel import LibraryPanel
from scanner_app.gui.library.search import SearchState
from scanner_app.gui.library.table_model import COLUMNS
from tests.gui.library.conftest import RECEIPTS, Filled, close_tab, open_tab
from tests.helpers.library import page_in

TIMEOUT_MS = 20_000


def _copy_of_the_first(filled: Filled, tmp_path: Path) -> int:
    """The first receipt read again from a copy under another name (the same content): its id."""
    source, result = filled.files[0]
    copy = tmp_path / "copies" / "scan-again.png"
    copy.parent.mkdir()
    shutil.copy(source, copy)
    with Library(filled.path) as library:
        (receipt_id,) = library.ingest(page_in(copy, result, "viewer"))
        assert [(f.receipt_id, f.original_id) for f in library.duplicates()] == [(receipt_id, 1)]
    return receipt_id


def _open(qtbot, filled: Filled) -> LibraryPanel:
    panel = open_tab(qtbot, filled.path)
    qtbot.waitUntil(lambda: panel.fetched is not None and len(panel.fetched.rows) == RECEIPTS + 1)
    return panel


def test_a_flagged_pair_is_shown_side_by_side_and_dismissing_it_persists(
    qtbot, filled: Filled, tmp_path: Path
) -> None:
    later = _copy_of_the_first(filled, tmp_path)
    tab = _open(qtbot, filled)
    try:
        row = tab.model.row_of(later)
        assert row is not None
        cell = tab.model.index(row, COLUMNS.index("duplicate"))
        assert "#1" in tab.model.data(cell) and "same file" in tab.model.data(cell)
        assert "scan-again.png" not in tab.model.data(
            cell, Qt.ItemDataRole.ToolTipRole
        )  # the original's path
        assert str(filled.files[0][0]) in tab.model.data(cell, Qt.ItemDataRole.ToolTipRole)
        assert "1 possible duplicate" in tab.status_label.text()
        assert not tab.duplicate_panel.isVisible()
        tab.table.select_ids([later], current=later)
        pair = tab.duplicate_panel
        assert pair.isVisible() and f"#{later}" in pair.title.text() and "#1" in pair.title.text()
        assert "SHA-256" in pair.detail.text()
        vendor = tab.model.rows[tab.model.row_of(1)].vendor
        assert all(vendor in caption.text() for caption in pair.captions)
        qtbot.waitUntil(lambda: all(not label.pixmap().isNull() for label in pair.images), timeout=TIMEOUT_MS)
        with qtbot.waitSignal(tab.decided, timeout=TIMEOUT_MS) as got:
            qtbot.mouseClick(pair.dismiss_button, Qt.MouseButton.LeftButton)
        assert got.args[0].state == "dismissed"
        qtbot.waitUntil(lambda: tab.model.flag(later) is None, timeout=TIMEOUT_MS)
        assert not pair.isVisible()
    finally:
        close_tab(tab)
    with Library(filled.path) as library:  # kept in the file, and a new tab shows no flag
        assert library.duplicates() == []
        assert [(f.receipt_id, f.original_id) for f in library.duplicates(("dismissed",))] == [(later, 1)]
        assert library.get(later).status != "duplicate"
    tab = _open(qtbot, filled)
    try:
        assert tab.fetched is not None and tab.fetched.flags == {}
    finally:
        close_tab(tab)


def test_confirming_a_pair_marks_the_later_one_a_duplicate(qtbot, filled: Filled, tmp_path: Path) -> None:
    later = _copy_of_the_first(filled, tmp_path)
    tab = _open(qtbot, filled)
    try:
        answer = tab.fetched
        with qtbot.waitSignal(tab.refreshed, timeout=TIMEOUT_MS, check_params_cb=lambda f: f is not answer):
            tab.search_bar.filters.duplicates_only.setChecked(True)
        assert [row.id for row in tab.model.rows] == [later]
        tab.table.select_ids([later], current=later)
        qtbot.waitUntil(lambda: tab.duplicate_panel.width() >= 2 * tab.pair_thumbnails.side)  # laid out
        with qtbot.waitSignal(tab.decided, timeout=TIMEOUT_MS):
            qtbot.mouseClick(tab.duplicate_panel.confirm_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: tab.model.rows == [], timeout=TIMEOUT_MS)  # no pair left to decide
        with qtbot.waitSignal(tab.refreshed, timeout=TIMEOUT_MS):
            tab.search(SearchState(status="duplicate"))
        assert [row.id for row in tab.model.rows] == [later]
    finally:
        close_tab(tab)
