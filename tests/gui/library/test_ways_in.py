"""Where the app's library is, and how the GUI's ways in reach it: a page saved through the session's
store with the library's sinks appears in the Library tab, by the way it came in."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from scanner_app.core.library.library import Library
from scanner_app.gui.document.session_folder import SessionFolder
from scanner_app.gui.library.hub import SETTING, LibraryHub, chosen_path
from tests.gui.library.conftest import RECEIPTS, Filled, close_tab, open_tab
from tests.helpers.library import page_in, write_receipts

TIMEOUT_MS = 20_000


def test_the_library_is_the_command_lines_else_the_settings_else_the_default(tmp_path: Path) -> None:
    default = chosen_path(None)
    assert (
        default.name == "library.sqlite" and default.parent.exists()
    )  # the test's own ($SCANNER_APP_LIBRARY)
    QSettings().setValue(SETTING, str(tmp_path / "chosen.sqlite"))
    assert chosen_path(None) == tmp_path / "chosen.sqlite"
    assert chosen_path(tmp_path / "given.sqlite") == tmp_path / "given.sqlite"


def test_a_page_saved_in_the_session_store_appears_in_the_tab(qtbot, filled: Filled, tmp_path: Path) -> None:
    tab = open_tab(qtbot, filled.path)
    session = SessionFolder(tmp_path / "session")
    try:
        qtbot.waitUntil(lambda: tab.fetched is not None and len(tab.fetched.rows) == RECEIPTS)
        session.use_sinks(tab.hub.sink)
        (path, result, _), (pasted, pasted_result, _) = write_receipts(tmp_path / "camera", 2, seed=9)
        session.note_way_in(path, "camera")  # as the controller does before the page is saved
        session.note_way_in(pasted, "clipboard")
        session.note_way_in(path, "viewer")  # the first way a file came in stays
        store = session.store()
        shot, paste = store.add_files([path, pasted])
        answer = tab.fetched
        with qtbot.waitSignal(tab.refreshed, timeout=TIMEOUT_MS, check_params_cb=lambda f: f is not answer):
            store.save_page(shot.id, 0, result)  # here on the GUI thread; the app saves on a worker thread
        new = tab.model.rows[0]
        assert len(tab.model.rows) == RECEIPTS + 1 and new.source == str(path)
        assert new.way_in == "camera" and new.batch == str(store.path)
        with qtbot.waitSignal(tab.hub.receipts_added, timeout=TIMEOUT_MS) as added:
            store.save_page(paste.id, 0, pasted_result)
        assert added.args == [1]
        qtbot.waitUntil(lambda: len(tab.model.rows) == RECEIPTS + 2, timeout=TIMEOUT_MS)
        assert tab.model.rows[0].way_in == "clipboard"
    finally:
        session.close()
        close_tab(tab)


def test_choosing_another_file_switches_and_is_remembered(qtbot, filled: Filled, tmp_path: Path) -> None:
    tab = open_tab(qtbot, filled.path)
    try:
        qtbot.waitUntil(lambda: tab.fetched is not None and len(tab.fetched.rows) == RECEIPTS)
        other = tmp_path / "other" / "library.sqlite"
        with qtbot.waitSignal(tab.refreshed, timeout=TIMEOUT_MS, check_params_cb=lambda f: f.total == 0):
            tab.hub.choose(other)
        assert QSettings().value(SETTING) == str(other) and other.is_file()
        assert str(other) in tab.path_label.text()
    finally:
        close_tab(tab)


def test_a_file_that_is_not_a_library_is_refused_in_words(qtbot, tmp_path: Path) -> None:
    bad = tmp_path / "notes.sqlite"
    bad.write_bytes(b"this is not SQLite at all" * 100)
    hub = LibraryHub(bad)  # its answer comes by the event loop, after this line
    failures: list[str] = []
    hub.failed.connect(failures.append)
    try:
        qtbot.waitUntil(lambda: bool(failures), timeout=TIMEOUT_MS)
        assert str(bad) in failures[0] and hub.library is None
        assert hub.sink("viewer")._current.sink("viewer") is None  # the ways in go on without it
    finally:
        hub.shutdown()
    assert bad.read_bytes().startswith(b"this is not SQLite")  # never replaced


def test_a_library_written_by_another_process_shows_up(qtbot, filled: Filled, tmp_path: Path) -> None:
    """Another process (a `scanner-app watch` beside the app) adds a receipt: the shown tab sees the
    file's data version change and searches again."""
    tab = open_tab(qtbot, filled.path)
    try:
        qtbot.waitUntil(lambda: tab.fetched is not None and len(tab.fetched.rows) == RECEIPTS)
        qtbot.waitUntil(lambda: tab._data_version is not None, timeout=TIMEOUT_MS)  # the first check
        ((path, result, _),) = write_receipts(tmp_path / "watched", 1, seed=21)
        with Library(filled.path) as elsewhere:  # its own connection, as another process has
            elsewhere.ingest(page_in(path, result, "watch"))
        qtbot.waitUntil(lambda: len(tab.model.rows) == RECEIPTS + 1, timeout=TIMEOUT_MS)
        assert tab.model.rows[0].way_in == "watch"
    finally:
        close_tab(tab)
