"""The Library tab's screenshot for the docs, taken under Xvfb against the embedded server.

    python scripts/library_screenshot.py [--out docs/screenshots] [--receipts 6]

Re-runs itself under ``xvfb-run`` when there is no display. Throw-away settings and library: real
receipts (../shared/data/sroie/img) are dropped on the window as a folder, with one of them again
under another name (a duplicate); two are filed under a category and tagged, the duplicate is
selected so that its pair shows side by side; saves library.png.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import take_screenshots as shots  # scripts/take_screenshots.py: Xvfb, waits, the grab

ROOT = Path(__file__).resolve().parent.parent
SROIE = ROOT.parent / "shared" / "data" / "sroie" / "img"
SIZE = (1600, 1000)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--receipts", type=int, default=6)
    args = parser.parse_args()
    shots.SIZE = SIZE
    shots._under_xvfb()
    from PySide6.QtCore import QSettings

    app, scratch = shots.scratch_app("scanner-app-library-shot-")
    QSettings().setValue("batch/folder", str(scratch / "batches"))

    from scanner_app.gui.connection.link import ServerConnection
    from scanner_app.gui.document.session_folder import SessionFolder
    from scanner_app.gui.i18n.translators import Translations
    from scanner_app.gui.window.main_window import MainWindow

    folder = scratch / "receipts"
    folder.mkdir()
    images = sorted(SROIE.glob("*.jpg"))[: args.receipts]
    for image in images:
        shutil.copy(image, folder / image.name)
    shutil.copy(images[1], folder / f"{images[1].stem}-phone.jpg")  # the same receipt twice
    expected = len(images) + 1
    translations = Translations(app)
    translations.install("en")
    connection = ServerConnection()  # the embedded server, as on a first run
    window = MainWindow(connection, session=SessionFolder(scratch / "session"), translations=translations,
                        library=scratch / "library.sqlite")  # fmt: skip
    window.resize(*SIZE)
    window.move(0, 0)
    window.show()
    connection.start()
    tab = window.library_panel
    try:
        shots.wait_until(lambda: connection.state.status == "ready", 600, "the embedded server")
        window.open_paths([folder])
        window.tabs.setCurrentWidget(tab)
        shots.wait_until(lambda: len(tab.model.rows) == expected, 900, "the receipts in the library")
        shots.wait_until(lambda: not window.batch_panel.running, 300, "the batch to end")
        ids = [row.id for row in tab.model.rows]
        edited: list[object] = []
        tab.edited.connect(edited.append)
        for n, (kind, value) in enumerate((("category", "Meals & entertainment"), ("add_tags", ["trip-kl"]))):
            tab.table.select_ids(ids[-3:-1])
            tab.edit_selected(kind, value)
            shots.wait_until(lambda: len(edited) > n, 60, f"the {kind} edit")  # noqa: B023 (waited for here)
        shots.wait_until(lambda: any(r.category for r in tab.model.rows), 60, "the table to refresh")
        flagged = [row.id for row in tab.model.rows if tab.model.flag(row.id) is not None]
        if flagged:
            tab.table.select_ids([flagged[0]], current=flagged[0])
            pair = tab.duplicate_panel
            pictures = lambda: all(not label.pixmap().isNull() for label in pair.images)  # noqa: E731
            shots.wait_until(pictures, 60, "the pair's pictures")
        shots.pause(1500)  # thumbnails of the rows shown
        shots.shoot(window, args.out / "library.png")
    finally:
        window.close()
        connection.shutdown()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
