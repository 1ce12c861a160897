"""`scanner-app`: the command line, one subcommand module each."""

from __future__ import annotations

import argparse
import sys

from scanner_app import __version__
from scanner_app.commands import bench, device, gui, library, models, scan, serve, watch

COMMANDS = {
    "scan": scan,
    "serve": serve,
    "models": models,
    "gui": gui,
    "bench": bench,
    "watch": watch,
    "device": device,
    "library": library,
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scanner-app", description=__doc__)
    parser.add_argument("--version", action="version", version=f"scanner-app {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for module in COMMANDS.values():
        module.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return COMMANDS[args.command].run(args)


if __name__ == "__main__":
    sys.exit(main())
