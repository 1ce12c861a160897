"""The Library tab in the main window: beside the Batch tab, the command line's library, and end to
end against the real server: a dropped folder of real receipts lands in the library as it is read,
and a receipt opens from the tab in the viewer with its stored boxes."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import QSettings

from scanner_app.gui.connection.link import ServerConnection
from scanner_app.gui.document.session_folder import SessionFolder
from scanner_app.gui.window.main_window import MainWindow
from tests.helpers.gui_shell import RECOGNIZE_TIMEOUT_MS, drop_paths, main_window
from tests.helpers.paths import SROIE_IMAGES


def test_the_library_tab_is_beside_the_batch_tab_on_the_command_lines_library(qtbot, tmp_path: Path) -> None:
    connection = ServerConnection(urls=["127.0.0.1:9"], start_embedded_if_unconfigured=False)
    given = tmp_path / "given" / "library.sqlite"
    window = MainWindow(connection, session=SessionFolder(tmp_path / "session"), library=given)
    qtbot.addWidget(window)
    window.show()
    try:
        tabs = window.tabs
        assert tabs.indexOf(window.library_panel) == tabs.indexOf(window.batch_panel) + 1
        assert tabs.tabText(tabs.indexOf(window.library_panel)) == "Library"
        window.main_actions.actions["tab_library"].trigger()
        assert tabs.currentWidget() is window.library_panel
        qtbot.waitUntil(lambda: window.library_panel.fetched is not None, timeout=20_000)
        assert window.library.path == given and given.is_file()
    finally:
        window.close()
        connection.shutdown()


def test_a_dropped_folder_lands_in_the_library_as_it_is_read(qtbot, triton, tmp_path: Path) -> None:
    folder = tmp_path / "receipts"
    folder.mkdir()
    names = sorted(p.name for p in SROIE_IMAGES.glob("*.jpg"))[:2]
    for name in names:
        shutil.copy(SROIE_IMAGES / name, folder / name)
    QSettings().setValue("batch/folder", str(tmp_path / "batches"))
    with main_window(qtbot, [triton.grpc_url], tmp_path / "session") as window:
        tab = window.library_panel
        drop_paths(window, [folder])
        assert window.tabs.currentWidget() is window.batch_panel
        window.tabs.setCurrentWidget(tab)  # watched while the batch runs
        qtbot.waitUntil(lambda: len(tab.model.rows) == 2, timeout=RECOGNIZE_TIMEOUT_MS)
        rows = tab.model.rows
        assert sorted(Path(r.source).name for r in rows) == names
        assert {r.way_in for r in rows} == {"batch"}
        store = window.batch_panel.store()
        assert store is not None and {r.batch for r in rows} == {str(store.path)}
        assert any(r.vendor for r in rows) and any(r.total is not None for r in rows)
        # a receipt opens in the viewer as the batch stored it: its boxes, no new request
        tab.table.select_ids([rows[0].id], current=rows[0].id)
        with qtbot.waitSignal(window.controller.recognized, timeout=60_000) as shown:
            tab.open_current()
        assert window.tabs.currentIndex() == 0 and window.document.source == Path(rows[0].source)
        assert len(shown.args[0].lines) > 5 and "stored" in window.statusBar().currentMessage()
