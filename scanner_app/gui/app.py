"""Start the desktop app: QApplication, translations, the server connection, the main window."""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

from scanner_app import __version__
from scanner_app.gui.i18n.languages import LANGUAGES

if TYPE_CHECKING:  # Qt is imported by run(), so that the CLI's other commands never load it
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QWidget

ORGANIZATION = APPLICATION = "scanner-app"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scanner-app gui", description="open the desktop app")
    add_arguments(parser)
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE", help="images, PDFs or folders to open")
    parser.add_argument("--server", action="append", metavar="HOST:PORT",
                        help="a Triton server for this session; repeat for several (default: settings, "
                        "else the embedded server)")  # fmt: skip
    parser.add_argument("--lang", choices=sorted(LANGUAGES),
                        help="UI language (default: settings, else the system's)")
    parser.add_argument("--theme", choices=("system", "light", "dark"),
                        help="colour scheme (default: settings ui/theme, else the system's light or dark)")


def run(args: argparse.Namespace) -> int:
    """Run the app until its window closes; the exit code."""
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    # instance() is typed QCoreApplication | None; this process's one is a QApplication (pytest-qt's too)
    app = cast(QApplication, QApplication.instance() or QApplication(sys.argv[:1]))
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationVersion(__version__)
    icon = Path(__file__).resolve().parents[2] / "resources" / "icons" / "scanner-app.png"
    if icon.is_file():
        from PySide6.QtGui import QIcon

        app.setWindowIcon(QIcon(str(icon)))
    from scanner_app.gui.connection.link import ServerConnection  # after the app exists (QSettings)
    from scanner_app.gui.i18n.translators import Translations, configured_language
    from scanner_app.gui.theme import SETTING as THEME_SETTING
    from scanner_app.gui.theme import ThemeFollower
    from scanner_app.gui.window.main_window import MainWindow

    choice = args.theme or str(QSettings().value(THEME_SETTING, "system"))
    _theme = ThemeFollower(app, choice)  # the system's light or dark scheme, followed while the app runs
    translations = Translations(app)
    translations.install(args.lang or configured_language())
    connection = ServerConnection(urls=args.server)
    # the receipt library: `scanner-app gui --library PATH`, else the setting, else the default
    window = MainWindow(connection, translations=translations, library=getattr(args, "library", None))
    window.show()
    _close_on_signals(window, QTimer(window))
    connection.start()
    if args.files:
        files = list(args.files)
        QTimer.singleShot(0, lambda: window.open_paths(files))
    try:
        return app.exec()
    finally:
        connection.shutdown()


def _close_on_signals(window: QWidget, ticker: QTimer) -> None:
    """Ctrl+C / SIGTERM close the window like its close button (batches stop, the server goes).

    Python runs signal handlers only between bytecodes, so a timer gives it a chance to.
    """
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: window.close())
    ticker.timeout.connect(lambda: None)
    ticker.start(250)


def main(argv: Sequence[str] | None = None) -> int:
    """``scanner-app gui [FILE...] [--server HOST:PORT]... [--lang en|zh_CN] [--theme system|light|dark]``."""
    return run(build_parser().parse_args(list(argv) if argv is not None else None))
