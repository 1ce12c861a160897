"""`scanner-app gui`: the desktop app (PySide6 is imported only when this command runs)."""

from __future__ import annotations

import argparse
import sys

from scanner_app.commands.library_args import add_library_arguments


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    from scanner_app.gui.app import add_arguments

    parser = subparsers.add_parser("gui", help="open the desktop app (viewer, batches, server panel)")
    add_arguments(parser)
    # The app's receipt library (args.library; None: the app's setting, else the default location).
    add_library_arguments(parser, skip=False)


def run(args: argparse.Namespace) -> int:
    from scanner_app.commands.gui_preflight import problem

    message = problem(install=True)
    if message:
        print(f"error: {message}", file=sys.stderr)
        return 1
    from scanner_app.gui.app import run as run_app

    return run_app(args)
