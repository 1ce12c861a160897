"""The Library tab over a real library: the table sorts, the search narrows as one types (stale
answers dropped), saved searches, bulk edits reach the library, thumbnails come lazily, a receipt
opens in the viewer by signal, and the accounting export of a selection or a search."""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from scanner_app.core.library.library import Library
from scanner_app.gui.library.export_dialog import ExportRequest
from scanner_app.gui.library.panel import LibraryPanel
from scanner_app.gui.library.saved_searches import saved
from scanner_app.gui.library.search import SearchState
from scanner_app.gui.library.search_bar import SearchBar
from scanner_app.gui.library.table_model import COLUMNS
from tests.gui.library.conftest import RECEIPTS, Filled

TIMEOUT_MS = 20_000


def _shown(tab: LibraryPanel, name: str) -> list[object]:
    rows = {row.id: row for row in tab.model.rows}
    return [getattr(rows[i], name) for i in tab.table.shown_ids()]


def _search(qtbot, tab: LibraryPanel, state: SearchState):
    with qtbot.waitSignal(
        tab.refreshed, timeout=TIMEOUT_MS, check_params_cb=lambda f: f.state == state
    ) as got:
        tab.search(state)
    return got.args[0]


def test_the_table_shows_the_receipts_and_sorts_by_each_column(qtbot, tab: LibraryPanel) -> None:
    assert tab.table.shown_ids() == list(range(RECEIPTS, 0, -1))  # newest first until a header is clicked
    assert all(row.vendor and row.date and row.total is not None for row in tab.model.rows)
    assert {row.way_in for row in tab.model.rows} == {"batch"}
    ascending, descending = Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder
    tab.table.sortByColumn(COLUMNS.index("total"), ascending)
    totals = _shown(tab, "total")
    assert totals == sorted(totals) and len(set(totals)) == RECEIPTS  # as amounts, not as text
    tab.table.sortByColumn(COLUMNS.index("vendor"), descending)
    vendors = _shown(tab, "vendor")
    assert vendors == sorted(vendors, key=str.casefold, reverse=True)
    tab.table.sortByColumn(COLUMNS.index("date"), ascending)
    assert _shown(tab, "date") == sorted(_shown(tab, "date"))
    # a new answer keeps the order the header says
    _search(qtbot, tab, SearchState(query=""))
    assert _shown(tab, "date") == sorted(_shown(tab, "date"))


def test_the_search_narrows_as_one_types_once_typing_pauses(qtbot, tab: LibraryPanel) -> None:
    target = tab.model.rows[0]
    word = target.vendor.split()[0][:5].lower()
    totals = sorted(row.total for row in tab.model.rows if row.total is not None)
    answers: list[SearchState] = []
    tab.refreshed.connect(lambda fetched: answers.append(fetched.state))
    with qtbot.waitSignal(tab.refreshed, timeout=TIMEOUT_MS) as got:
        qtbot.keyClicks(tab.search_bar.query, word)
    assert answers == [SearchState(query=word)]  # one search for the whole word, not one per key
    assert [row.id for row in got.args[0].rows] == [target.id]
    assert tab.status_label.text().startswith("1 receipt")
    # the filters narrow too; an amount range, then a date that cannot be read is named, not searched
    tab.search_bar.query.clear()
    with qtbot.waitSignal(tab.refreshed, timeout=TIMEOUT_MS) as got:
        tab.search_bar.filters.edits["amount_min"].setText(str(totals[1]))
    assert sorted(row.total for row in got.args[0].rows) == totals[1:]
    edit = tab.search_bar.filters.edits["date_from"]
    edit.setText("2024-13-40")
    qtbot.waitUntil(lambda: "Not searched" in tab.status_label.text(), timeout=TIMEOUT_MS)
    assert "date" in edit.toolTip() and edit.styleSheet()


def test_a_superseded_search_is_never_shown(qtbot, tab: LibraryPanel) -> None:
    answers: list[SearchState] = []
    tab.refreshed.connect(lambda fetched: answers.append(fetched.state))
    first, last = SearchState(query="a"), SearchState(query=tab.model.rows[0].vendor)
    with qtbot.waitSignal(tab.refreshed, timeout=TIMEOUT_MS):
        tab.search(first)
        tab.search(last)
    qtbot.waitUntil(lambda: tab._background.running == 0, timeout=TIMEOUT_MS)
    assert answers == [last]


def test_a_saved_search_comes_back(qtbot, tab: LibraryPanel) -> None:
    bar = tab.search_bar
    state = SearchState(query="shop", amount_min="10", status="to check")
    with qtbot.waitSignal(tab.refreshed, timeout=TIMEOUT_MS):
        bar.set_state(state)
    bar.saved.save_as("Shops to check")
    assert saved() == {"Shops to check": state}
    other = SearchBar()
    qtbot.addWidget(other)
    assert other.saved.combo.findData("Shops to check") > 0
    with qtbot.waitSignal(other.changed, timeout=TIMEOUT_MS) as got:
        other.saved.choose("Shops to check")
    assert got.args[0] == state and other.query.text() == "shop"
    assert other.filters.edits["amount_min"].text() == "10" and other.filters_button.isChecked()


def test_bulk_edits_of_the_selection_reach_the_library(qtbot, tab: LibraryPanel, filled: Filled) -> None:
    chosen = [1, 3]
    tab.table.select_ids(chosen, current=1)
    assert sorted(tab.selected_ids()) == chosen and tab.edit_bar.category_button.isEnabled()
    for kind, value in (("category", "Travel"), ("add_tags", ["trip", "q3"]), ("status", "checked")):
        with qtbot.waitSignal(tab.edited, timeout=TIMEOUT_MS) as got:
            tab.edit_selected(kind, value)
        assert got.args[0].changed == 2 and not got.args[0].errors
    with Library(filled.path) as library:  # another connection: it is in the file
        for record in library.receipts([1, 2, 3, 4]):
            if record.id in chosen:
                assert (record.category, record.tags, record.status) == ("Travel", ("q3", "trip"), "checked")
            else:
                assert record.category is None and record.tags == () and record.status == "to check"
    qtbot.waitUntil(lambda: {r.category for r in tab.model.rows if r.id in chosen} == {"Travel"})
    assert sorted(tab.selected_ids()) == chosen  # the selection outlives the refresh
    answer = _search(qtbot, tab, SearchState(tag="trip"))
    assert sorted(row.id for row in answer.rows) == chosen
    with qtbot.waitSignal(tab.edited, timeout=TIMEOUT_MS):
        tab.edit_selected("remove_tags", ["trip"])
    with Library(filled.path) as library:
        assert library.get(1).tags == ("q3",)


def test_thumbnails_come_off_the_gui_thread_when_shown(qtbot, tab: LibraryPanel) -> None:
    index = tab.model.index(0, COLUMNS.index("receipt"))
    qtbot.waitUntil(lambda: isinstance(tab.model.data(index, Qt.ItemDataRole.DecorationRole), QImage))
    image = tab.model.data(index, Qt.ItemDataRole.DecorationRole)
    assert max(image.width(), image.height()) == tab.thumbnails.side


def test_a_receipt_opens_in_the_viewer_by_signal(qtbot, tab: LibraryPanel, filled: Filled) -> None:
    tab.table.select_ids([2], current=2)
    with qtbot.waitSignal(tab.open_requested, timeout=TIMEOUT_MS) as got:
        tab.open_current()
    assert got.args == [filled.files[1][0], 0, None]  # its file, page 1, no batch store recorded


def test_the_export_writes_the_selection_then_the_rest_of_the_search(
    qtbot, tab: LibraryPanel, filled: Filled, tmp_path: Path
) -> None:
    tab.table.select_ids([1, 2])
    out = tmp_path / "selected.csv"
    with qtbot.waitSignal(tab.exported, timeout=TIMEOUT_MS) as got:
        tab.export(ExportRequest("csv", out, selection=True, again=False, currency="MYR"))
    done = got.args[0]
    assert done.summary.written == 2, done
    with out.open(encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    totals = {str(r.total) for r in tab.model.rows if r.id in (1, 2)}
    assert {row["id"] for row in rows} == {"1", "2"} and {row["total"] for row in rows} == totals
    with qtbot.waitSignal(tab.exported, timeout=TIMEOUT_MS) as got:
        tab.export(ExportRequest("csv", tmp_path / "all.csv", selection=False, again=False, currency=""))
    assert got.args[0].summary.written == RECEIPTS - 2 and got.args[0].left_out_exported == 2
    with Library(filled.path) as library:
        assert {r.status for r in library.search()} == {"exported"}
    qtbot.waitUntil(lambda: {r.status for r in tab.model.rows} == {"exported"})
    assert all(Decimal(r.total_text) == r.total for r in tab.model.rows)
