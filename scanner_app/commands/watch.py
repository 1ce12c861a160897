"""`scanner-app watch DIR --out OUT`: read every receipt that lands in a folder (scan-to-folder), once."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from scanner_app.commands.layout_args import add_layout_arguments, layout_of
from scanner_app.commands.library_args import LibraryUnavailable, add_library_arguments, library_sink
from scanner_app.commands.progress import ProgressPrinter
from scanner_app.commands.scan import recognizer
from scanner_app.core.batch.events import FileFailed, RunStopped, ServerWaiting
from scanner_app.core.client.triton import ClientOptions
from scanner_app.core.errors import ScannerError
from scanner_app.core.export.formats import FORMATS
from scanner_app.core.watch.events import FileExported, FileSkipped, WatchNotice, WatchStarted
from scanner_app.core.watch.watcher import FolderWatcher, WatchOptions


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "watch", help="read every image or PDF that appears in a folder (a copier's scan-to-folder)"
    )
    parser.add_argument("folder", type=Path, metavar="DIR", help="the folder to watch (recursively)")
    parser.add_argument("--out", type=Path, required=True, metavar="OUT",
                        help="the batch store and exports: OUT/<path in DIR>.<format> per file")  # fmt: skip
    parser.add_argument("--format", default="txt,json",
                        help=f"per-file exports, from {','.join(FORMATS)} (default txt,json); "
                        "the batch exports OUT/results.* follow too")  # fmt: skip
    parser.add_argument("--fields", action="store_true",
                        help="also extract invoice fields into the JSON and results_fields.csv")  # fmt: skip
    add_layout_arguments(parser)
    parser.add_argument("--server", action="append", metavar="HOST:PORT",
                        help="a Triton server; repeat for several (default: embedded)")  # fmt: skip
    parser.add_argument("--jobs", type=int, default=4, help="requests in flight (default 4)")
    parser.add_argument("--settle", type=float, default=2.0, metavar="S",
                        help="a file is complete once unchanged for S seconds (default 2)")  # fmt: skip
    parser.add_argument("--incomplete-after", type=float, default=120.0, metavar="S",
                        help="a file whose end is still missing after S seconds unchanged is read, "
                        "and fails as truncated (default 120)")  # fmt: skip
    parser.add_argument("--poll", action="store_true",
                        help="poll instead of file events (chosen by itself on NFS/SMB shares)")  # fmt: skip
    parser.add_argument("--poll-interval", type=float, default=2.0, metavar="S", help="default 2")
    parser.add_argument("--once", action="store_true",
                        help="read what is in DIR (and arrives meanwhile), then exit")  # fmt: skip
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per request (default 120)")
    parser.add_argument("--tls-ca", type=Path, metavar="PEM", help="root certificate to verify the server")
    parser.add_argument("--tls-cert", type=Path, metavar="PEM", help="client certificate (mutual TLS)")
    parser.add_argument("--tls-key", type=Path, metavar="PEM", help="client private key (mutual TLS)")
    add_library_arguments(parser)


def event_printer(printer: ProgressPrinter) -> Callable[[object], None]:
    """One line per thing a clerk cares about: read (and where), failed (and why), skipped.

    Events come from the watcher's threads at once; each line is written whole, under the
    printer's lock (print() writes the text and its newline apart, and two lines could merge)."""

    def say(text: str, stream: TextIO | None = None) -> None:
        printer.message(text, stream or sys.stdout)

    def on_event(event: object) -> None:
        if isinstance(event, FileExported):
            kind = "exported" if event.late else "read    "  # late: read before (a killed run, a copy)
            say(f"{kind} {event.path} -> {', '.join(str(p) for p in event.outputs)}")
        elif isinstance(event, FileFailed):
            say(f"failed  {event.path}: {event.cause}")
        elif isinstance(event, FileSkipped):
            say(f"skipped {event.path}: {event.reason}")
        elif isinstance(event, WatchStarted):
            say(f"watching {event.folder} ({event.observer}); {event.known} files read before", sys.stderr)
        elif isinstance(event, WatchNotice):
            say(f"note: {event.message}", sys.stderr)
        elif isinstance(event, ServerWaiting):
            say(f"server unavailable ({event.cause}); retrying in {event.retry_in:.0f} s", sys.stderr)
        elif isinstance(event, RunStopped):
            say(f"run stopped: {event.reason}", sys.stderr)

    return on_event


def _watch_options(args: argparse.Namespace) -> WatchOptions:
    formats = tuple(f.strip().lower() for f in args.format.split(",") if f.strip())
    unknown = sorted(set(formats) - set(FORMATS))
    if unknown:
        raise ValueError(f"unknown format(s) {', '.join(unknown)}; choose from {', '.join(FORMATS)}")
    return WatchOptions(
        settle_s=args.settle,
        incomplete_s=args.incomplete_after,
        polling=True if args.poll else None,
        poll_interval_s=args.poll_interval,
        jobs=max(1, args.jobs),
        formats=formats,
        fields=args.fields,
        layout=layout_of(args),
    )


def run(args: argparse.Namespace) -> int:
    printer = ProgressPrinter()  # no bar here: its lock keeps each line whole
    try:
        options = _watch_options(args)
    except ValueError as exc:
        printer.message(f"scanner-app watch: {exc}")
        return 2
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    client_options = ClientOptions(timeout_s=args.timeout, root_certificates=args.tls_ca,
                                   certificate_chain=args.tls_cert, private_key=args.tls_key)  # fmt: skip
    with contextlib.ExitStack() as stack:
        try:
            sink = stack.enter_context(library_sink(args, "watch"))
            client = stack.enter_context(recognizer(args.server, client_options))
            watcher = FolderWatcher(args.folder, args.out, client.recognize, options, event_printer(printer),
                                    sink=sink)  # fmt: skip
        except (ScannerError, OSError, ValueError, LibraryUnavailable) as exc:
            printer.message(f"error: {exc}")
            return 2
        stack.enter_context(watcher)
        if args.once:
            while not (stop.is_set() or watcher.wait_idle(0.5)):
                pass
        else:
            while not stop.wait(1.0):  # short waits: Python runs signal handlers only between them
                pass
        summary = watcher.store.summary()
    printer.message(f"stopped; {summary.done} files read, {summary.failed} failed, {summary.queued} queued")
    return 1 if args.once and summary.failed else 0
