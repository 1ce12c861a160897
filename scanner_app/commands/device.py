"""`scanner-app device`: list scanners, show what one offers, scan from one into a batch.

``scanner-app device scan --device ID [--source feeder|flatbed] [--dpi N] [--duplex] --out DIR``
scans into ``DIR/scanner-app.sqlite`` (the same store and exports as ``scan``): each page is read as
soon as it is off the device, blank back sides of duplex scans are dropped, a jam or an empty feeder
ends the scan with its message and the pages before are still read. Runs again into the same DIR
add to the batch (a nightly script can point every run at one folder).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from scanner_app.commands.library_args import LibraryUnavailable, add_library_arguments, library_sink
from scanner_app.commands.progress import ProgressPrinter
from scanner_app.commands.scan import _formats, _options, _page_printer, print_summary, recognizer
from scanner_app.core.batch.export import export_store
from scanner_app.core.devices import DeviceError, ScanSettings, list_devices, open_device
from scanner_app.core.devices.base import MODES, PAGE_SIZES, Source
from scanner_app.core.devices.feed import BlankDropped, PageScanned, ScanEnded, ScanSummary, scan_to_batch
from scanner_app.core.errors import ScannerError
from scanner_app.core.export.formats import FORMATS
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "device", help="scan from a scanner (SANE, eSCL network scanners)", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    commands = parser.add_subparsers(dest="device_command", metavar="{list,show,scan}", required=True)
    listing = commands.add_parser("list", help="the scanners SANE and the network (eSCL) offer")
    listing.add_argument("--no-network", action="store_true", help="skip the eSCL search on the network")
    listing.add_argument("--wait", type=float, default=3.0, metavar="S", help="seconds to listen (default 3)")
    show = commands.add_parser("show", help="sources, colour modes, resolutions and area of one scanner")
    show.add_argument("--device", required=True, metavar="ID", help="as `device list` prints it")
    scan = commands.add_parser("scan", help="scan pages into a batch and read them as they come")
    scan.add_argument(
        "--device", required=True, metavar="ID", help="as `device list` prints it (or an eSCL URL)"
    )
    scan.add_argument("--source", choices=("flatbed", "feeder"), default="flatbed")
    scan.add_argument("--duplex", action="store_true", help="both sides of each sheet (feeder)")
    scan.add_argument("--dpi", type=int, default=300, help="resolution (default 300)")
    scan.add_argument("--mode", choices=MODES, default="gray", help="colour mode (default gray)")
    scan.add_argument("--page-size", choices=sorted(PAGE_SIZES), help="default: the whole scan area")
    scan.add_argument("--keep-blank", action="store_true", help="keep blank back sides of duplex scans")
    scan.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a raw device option (SANE name)"
    )
    scan.add_argument(
        "--out", type=Path, required=True, metavar="DIR", help="the batch store and the exports"
    )
    scan.add_argument("--format", default="json,csv,txt", help=f"exports, from {','.join(FORMATS)}")
    scan.add_argument(
        "--server", action="append", metavar="HOST:PORT", help="a Triton server (default: embedded)"
    )
    scan.add_argument("--jobs", type=int, default=4, help="requests in flight (default 4)")
    scan.add_argument("--timeout", type=float, default=120.0, help="seconds per request (default 120)")
    scan.add_argument("--tls-ca", type=Path, metavar="PEM")
    scan.add_argument("--tls-cert", type=Path, metavar="PEM")
    scan.add_argument("--tls-key", type=Path, metavar="PEM")
    scan.add_argument(
        "--fields", action="store_true", help="also extract invoice fields (see `scan --fields`)"
    )
    scan.add_argument("--quiet", action="store_true", help="no recognised text on stdout")
    add_library_arguments(scan)
    scan.set_defaults(json=None)


def _value(text: str) -> str | int | float | bool:
    if text.lower() in ("yes", "true", "on"):
        return True
    if text.lower() in ("no", "false", "off"):
        return False
    for kind in (int, float):
        with contextlib.suppress(ValueError):
            return kind(text)
    return text


def settings_from(args: argparse.Namespace) -> ScanSettings:
    options = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise SystemExit(f"scanner-app device scan: --option {item!r} is not NAME=VALUE")
        options[name] = _value(value)
    source: Source = "duplex" if args.duplex else args.source  # argparse's choices: flatbed or feeder
    if args.duplex and args.source == "flatbed":
        source = "duplex"  # --duplex implies the feeder
    try:
        return ScanSettings(source, args.dpi, args.mode, page_size=args.page_size, options=options)
    except ValueError as exc:
        raise SystemExit(f"scanner-app device scan: {exc}") from None


def _list(args: argparse.Namespace) -> int:
    found = list_devices(network=not args.no_network, discover_s=args.wait)
    for device in found.devices:
        print(f"{device.id}\t{device.vendor} {device.model}\t{device.kind}".replace("\t ", "\t"))
    for problem in found.problems:
        print(f"note: {problem}", file=sys.stderr)
    if not found.devices:
        print("no scanner found", file=sys.stderr)
    return 0 if found.devices else 1


def _show(args: argparse.Namespace) -> int:
    try:
        device = open_device(args.device)
    except DeviceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        caps = device.capabilities()
    finally:
        device.close()
    print(f"{device.info.label}")
    print(f"  sources:     {', '.join(caps.sources)}")
    print(f"  modes:       {', '.join(caps.modes)}")
    print(f"  resolutions: {', '.join(map(str, caps.resolutions))} dpi")
    print(f"  depths:      {', '.join(map(str, caps.depths))} bit")
    if caps.max_size_mm:
        print(f"  area:        {caps.max_size_mm[0]:.0f} x {caps.max_size_mm[1]:.0f} mm")
    return 0


def _device_printer(progress: ProgressPrinter, inner: Callable[[object], None]) -> Callable[[object], None]:
    def on_event(event: object) -> None:
        if isinstance(event, PageScanned):
            progress.message(f"scanned page {event.index + 1} ({event.side}) -> {event.path.name}")
        elif isinstance(event, BlankDropped):
            progress.message(f"page {event.index + 1}: blank back side dropped")
        elif isinstance(event, ScanEnded) and event.message:
            progress.message(f"scanner stopped: {event.message}; the {event.scanned} pages before are read")
        else:
            inner(event)

    return on_event


def print_scan(summary: ScanSummary) -> None:
    how = "cancelled" if summary.cancelled else (f"stopped: {summary.message}" if summary.message else "done")
    print(
        f"\nScan {how}: {summary.scanned} pages kept in {summary.folder}, "
        f"{summary.blank_dropped} blank back sides dropped",
        file=sys.stderr,
    )


def _scan(args: argparse.Namespace) -> int:
    formats = _formats(args.format)
    settings = settings_from(args)
    try:
        device = open_device(args.device)
    except DeviceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    progress = ProgressPrinter()
    cancel = threading.Event()
    with contextlib.ExitStack() as stack:
        stack.callback(device.close)
        try:
            sink = stack.enter_context(library_sink(args, "device"))
            client = stack.enter_context(recognizer(args.server, _options(args)))
            summary = scan_to_batch(
                device, settings, args.out, client.recognize, jobs=max(1, args.jobs), cancel=cancel,
                on_event=_device_printer(progress, _page_printer(args, progress)),
                drop_blank_backs=not args.keep_blank, sink=sink,
            )  # fmt: skip
        except KeyboardInterrupt:
            cancel.set()
            raise
        except (ScannerError, LibraryUnavailable) as exc:
            progress.close()
            print(f"error: {exc}", file=sys.stderr)
            return 2
        progress.close()
    if formats:
        with BatchStore(args.out / STORE_NAME) as store:
            written = export_store(store, args.out, formats, fields=args.fields)
        print(
            f"Results in {args.out / STORE_NAME}; exports: {', '.join(p.name for p in written)}",
            file=sys.stderr,
        )
    print_scan(summary)
    print_summary(summary.batch)
    return 0 if summary.ok and not summary.batch.pending else 1


def run(args: argparse.Namespace) -> int:
    return {"list": _list, "show": _show, "scan": _scan}[args.device_command](args)
