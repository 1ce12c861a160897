"""Screenshots of the real app for the README, taken under Xvfb against the embedded server.

    python scripts/take_screenshots.py [--out docs/screenshots]

Re-runs itself under ``xvfb-run`` when there is no display. Uses throw-away settings (nothing of
the user's is read or changed), starts the embedded Triton like a first run, and saves:
document.png (the sample invoice with its overlay), fields.png (its Fields tab), batch.png
(a batch mid-run), server.png, document_zh_CN.png (the Chinese UI), stress.png (the stakeholder
demo: the baseline, then Triton).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZE = (1440, 900)


def _under_xvfb() -> None:
    if os.environ.get("DISPLAY") or os.environ.get("QT_QPA_PLATFORM"):
        return
    xvfb = shutil.which("xvfb-run")
    if not xvfb:
        raise SystemExit("no display and no xvfb-run: install xvfb or run with a display")
    command = [xvfb, "-a", "-s", f"-screen 0 {SIZE[0]}x{SIZE[1]}x24", sys.executable, *sys.argv]
    raise SystemExit(subprocess.call(command))


def wait_until(predicate: Callable[[], bool], timeout_s: float, what: str) -> None:
    """Run the event loop until ``predicate`` holds (this is a script, not app code)."""
    from PySide6.QtCore import QEventLoop, QTimer

    deadline = time.monotonic() + timeout_s
    loop = QEventLoop()
    timer = QTimer()
    timer.timeout.connect(lambda: (predicate() or time.monotonic() > deadline) and loop.quit())
    timer.start(50)
    loop.exec()
    timer.stop()
    if not predicate():
        raise SystemExit(f"timed out waiting for {what}")


def pause(ms: int) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def shoot(window, path: Path) -> None:
    pause(400)  # let the last repaint land
    pixmap = window.screen().grabWindow(window.winId())
    if pixmap.isNull() or pixmap.width() < 100:
        pixmap = window.grab()
    pixmap.save(str(path))
    print(f"saved {path} ({pixmap.width()}x{pixmap.height()})")


def scratch_app(prefix: str):
    """A QApplication whose settings and receipt library live in a new scratch folder, not the user's:
    (app, folder)."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    scratch = Path(tempfile.mkdtemp(prefix=prefix))
    os.environ["SCANNER_APP_LIBRARY"] = str(scratch / "library.sqlite")  # the app adds what it reads
    app = QApplication(sys.argv[:1])
    app.setOrganizationName("scanner-app")
    app.setApplicationName("scanner-app")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(scratch / "settings"))
    return app, scratch


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--batch-size", type=int, default=40)
    args = parser.parse_args()
    _under_xvfb()
    from PySide6.QtCore import QSettings

    app, scratch = scratch_app("scanner-app-shots-")
    QSettings().setValue("batch/folder", str(scratch / "batches"))

    from scanner_app.gui.connection.link import ServerConnection
    from scanner_app.gui.document.session_folder import SessionFolder
    from scanner_app.gui.i18n.translators import Translations
    from scanner_app.gui.window.main_window import MainWindow
    from scanner_app.samples.documents import distinct_receipts

    args.out.mkdir(parents=True, exist_ok=True)
    translations = Translations(app)
    translations.install("en")
    connection = ServerConnection()  # nothing configured: the embedded server starts, as on a first run
    window = MainWindow(connection, session=SessionFolder(scratch / "session"), translations=translations)
    window.resize(*SIZE)
    window.move(0, 0)
    window.show()
    connection.start()
    try:
        window.open_paths([ROOT / "resources" / "samples" / "invoice.png"])
        wait_until(lambda: window.document.page is not None, 300, "the invoice to be recognised")
        window.document.select([4])
        window.document.set_hovered(9)
        shoot(window, args.out / "document.png")
        window.main_actions.actions["tab_fields"].trigger()  # the invoice's fields beside it
        shoot(window, args.out / "fields.png")
        window.side_tabs.setCurrentIndex(0)

        folder = scratch / "receipts"
        folder.mkdir()
        for i, doc in enumerate(distinct_receipts(args.batch_size, seed=7)):
            doc.image.save(folder / f"receipt-{i:03d}.png")
        window.open_paths([folder])
        panel = window.batch_panel
        wait_until(lambda: panel.totals.done >= max(3, args.batch_size // 4), 600, "the batch to get going")
        shoot(window, args.out / "batch.png")
        panel.cancel()

        window.tabs.setCurrentWidget(window.server_panel)
        shoot(window, args.out / "server.png")

        translations.install("zh_CN")
        window.tabs.setCurrentIndex(0)
        pause(300)
        shoot(window, args.out / "document_zh_CN.png")
        translations.install("en")
        wait_until(lambda: not panel.running, 120, "the batch to stop")

        dashboard = window.stress_panel
        if dashboard is not None:
            window.tabs.setCurrentWidget(dashboard)
            dashboard.demo.duration.setValue(20.0)
            if not dashboard.start_demo():
                raise SystemExit("the stakeholder demo did not start")
            wait_until(lambda: not dashboard.controller.running, 600, "the stakeholder demo to finish")
            shoot(window, args.out / "stress.png")
    finally:
        window.close()
        connection.shutdown()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
