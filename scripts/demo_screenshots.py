"""Screenshots of the Stress tab's stakeholder demo against the embedded server (issue 14).

    python scripts/demo_screenshots.py --name demo_after [--duration 8] [--presentation] [--theme dark]

Re-runs itself under ``xvfb-run`` when there is no display; throw-away settings; starts the embedded
Triton like a first run, runs the demo (baseline, then Triton) and saves docs/screenshots/<name>.png.
With --presentation it also saves presentation_mode.png (the demo's presentation window); then
server_model_control.png (the Server tab: why this config, the live A/B switches).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from take_screenshots import ROOT, SIZE, _under_xvfb, scratch_app, shoot, wait_until


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--name", default="demo_after")
    parser.add_argument("--duration", type=float, default=8.0)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--presentation", action="store_true")
    parser.add_argument("--theme", choices=("system", "light", "dark"), default="system")
    args = parser.parse_args()
    _under_xvfb()
    app, scratch = scratch_app("scanner-app-demo-shots-")

    from scanner_app.gui.theme import ThemeFollower

    ThemeFollower(app, args.theme)

    from scanner_app.gui.connection.link import ServerConnection
    from scanner_app.gui.document.session_folder import SessionFolder
    from scanner_app.gui.i18n.translators import Translations
    from scanner_app.gui.window.main_window import MainWindow

    args.out.mkdir(parents=True, exist_ok=True)
    translations = Translations(app)
    translations.install("en")
    connection = ServerConnection()
    window = MainWindow(connection, session=SessionFolder(scratch / "session"), translations=translations)
    window.resize(*SIZE)
    window.move(0, 0)
    window.show()
    connection.start()
    try:
        wait_until(lambda: connection.state.status == "ready", 600, "the embedded server")
        dashboard = window.stress_panel
        if dashboard is None:
            raise SystemExit("no Stress tab")
        window.tabs.setCurrentWidget(dashboard)
        dashboard.demo.duration.setValue(args.duration)
        dashboard.demo.concurrency.setValue(args.concurrency)
        presentation = None
        if args.presentation and hasattr(dashboard, "open_presentation"):
            presentation = dashboard.open_presentation(start=False)
        if not dashboard.start_demo():
            raise SystemExit("the stakeholder demo did not start")
        wait_until(lambda: not dashboard.controller.running, 900, "the stakeholder demo to finish")
        if presentation is not None:
            presentation.hide()  # the main window's shot must not show it on top
        shoot(window, args.out / f"{args.name}.png")
        if presentation is not None:
            presentation.show()
            presentation.resize(*SIZE)
            presentation.move(0, 0)
            presentation.raise_()
            shoot(presentation, args.out / "presentation_mode.png")
            presentation.hide()
        window.tabs.setCurrentWidget(window.server_panel)  # the "why" note and the live A/B switches
        shoot(window, args.out / "server_model_control.png")
    finally:
        window.close()
        connection.shutdown()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
