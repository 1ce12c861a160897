"""The ``--library PATH`` / ``--no-library`` options of the commands that read receipts, the search
filters the ``library`` subcommands share, and the library opened as a batch's page sink."""

from __future__ import annotations

import argparse
import contextlib
import datetime
import sys
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from pathlib import Path

from scanner_app.core.errors import ScannerError
from scanner_app.core.library.library import Library
from scanner_app.core.library.location import LIBRARY_ENV
from scanner_app.core.library.receipts import STATUSES
from scanner_app.core.library.search import Filters
from scanner_app.core.library.sink import LibrarySink

LIBRARY_HELP = (f"the receipt library (default: ${LIBRARY_ENV}, else library.sqlite in the user's data "
                "folder, "
                "~/.local/share/scanner-app on Linux)")  # fmt: skip


def add_library_arguments(parser: argparse.ArgumentParser, skip: bool = True) -> None:
    parser.add_argument("--library", type=Path, metavar="PATH", help=LIBRARY_HELP)
    if skip:
        parser.add_argument("--no-library", action="store_true",
                            help="do not add the receipts read to the library")  # fmt: skip


class LibraryUnavailable(Exception):
    """The library asked for cannot be opened; printed, exit code 2."""


@contextlib.contextmanager
def library_sink(
    args: argparse.Namespace, way_in: str, keep_batch: bool = True
) -> Iterator[LibrarySink | None]:
    """The library of ``--library`` as a page sink for the command's batch (None with --no-library);
    at the end, what could not be added is said on stderr."""
    if getattr(args, "no_library", False):
        yield None
        return
    try:
        library = Library(getattr(args, "library", None))
    except (ScannerError, OSError) as exc:
        raise LibraryUnavailable(f"{exc} (or run with --no-library)") from exc
    with library:
        sink = library.sink(way_in, keep_batch)
        try:
            yield sink
        finally:
            print(f"Library {library.path}: {sink.added} receipts added or updated", file=sys.stderr)
            for problem in sink.problems:
                print(f"  not in the library: {problem}", file=sys.stderr)


def _date(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date YYYY-MM-DD") from None


def _amount(text: str) -> Decimal:
    try:
        return Decimal(text)
    except InvalidOperation:
        raise argparse.ArgumentTypeError(f"{text!r} is not an amount") from None


def add_filter_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("query", nargs="*", metavar="QUERY",
                        help="words that must all be found (parts of numbers and Chinese too)")  # fmt: skip
    group = parser.add_argument_group("filters")
    group.add_argument("--vendor", help="part of the vendor's name")
    group.add_argument("--from", dest="date_from", type=_date, metavar="DATE", help="dated on or after")
    group.add_argument("--to", dest="date_to", type=_date, metavar="DATE", help="dated on or before")
    group.add_argument("--min", dest="amount_min", type=_amount, metavar="AMOUNT", help="total at least")
    group.add_argument("--max", dest="amount_max", type=_amount, metavar="AMOUNT", help="total at most")
    group.add_argument("--currency", help="ISO code, e.g. MYR")
    group.add_argument("--category")
    group.add_argument("--tag")
    group.add_argument("--status", choices=STATUSES)
    group.add_argument("--way-in", help="scan, watch, device, batch, viewer, camera, clipboard, import")
    group.add_argument("--batch", help="the batch folder the receipts were read into")


def filters_of(args: argparse.Namespace, include_duplicates: bool = True) -> Filters:
    batch = str(Path(args.batch).absolute()) if args.batch else None
    return Filters(args.vendor, args.date_from, args.date_to, args.amount_min, args.amount_max, args.currency,
                   args.category, args.tag, args.status, args.way_in, batch, include_duplicates)  # fmt: skip


def query_of(args: argparse.Namespace) -> str:
    return " ".join(args.query)
