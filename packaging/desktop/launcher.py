"""Entry point of the bundled desktop app: `scanner_app.gui.app.main`, plus `--smoke-test`.

`--sane-worker FD` makes the process the SANE worker of a scanner the app opened
(scanner_app/core/devices/sane_device.py: a frozen app has no `python -m` to run it with).

`--smoke-test` (used by packaging/desktop/smoke_test.py on the built bundle): about one second
after start, report the visible main windows on stdout and quit; exit code 0 when one is shown,
3 when none is.
"""

from __future__ import annotations

import sys

SMOKE_FLAG = "--smoke-test"
SMOKE_DELAY_MS = 1000
NO_WINDOW_EXIT = 3


def _arm_smoke_test() -> None:
    """Create the QApplication early and schedule the check; app.run() reuses this instance."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])

    def check() -> None:
        shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMainWindow) and w.isVisible()]
        titles = ", ".join(repr(w.windowTitle()) for w in shown) or "none"
        print(f"smoke-test: visible main windows: {titles}", flush=True)
        app.exit(0 if shown else NO_WINDOW_EXIT)

    QTimer.singleShot(SMOKE_DELAY_MS, check)


def main() -> int:
    argv = sys.argv[1:]
    from scanner_app.core.devices.sane_device import WORKER_FLAG

    if argv[:1] == [WORKER_FLAG]:
        from scanner_app.core.devices import sane_worker

        sane_worker.main(sys.argv[1:])
        return 0
    if SMOKE_FLAG in argv:
        argv.remove(SMOKE_FLAG)
        _arm_smoke_test()
    from scanner_app.gui.app import main as app_main

    return app_main(argv)


if __name__ == "__main__":
    sys.exit(main())
