"""The --layout and --name options shared by `scan` and `watch`: where each file's outputs go."""

from __future__ import annotations

import argparse

from scanner_app.core.export.layout import LAYOUTS, TEMPLATE_KEYS, OutputLayout, check_template


def _template(text: str) -> str:
    try:
        check_template(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def add_layout_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--layout", choices=LAYOUTS, default="tree",
                        help="per-file outputs: tree mirrors the input folders (default), flat")  # fmt: skip
    parser.add_argument("--name", metavar="TEMPLATE", type=_template,
                        help="name each file's outputs from a template, e.g. '{vendor}_{date}_{total}'; "
                        f"placeholders: {', '.join(TEMPLATE_KEYS)}")  # fmt: skip


def layout_of(args: argparse.Namespace) -> OutputLayout:
    return OutputLayout(args.layout, args.name)
