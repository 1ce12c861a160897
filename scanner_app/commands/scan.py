"""`scanner-app scan`: recognise files and folders as a resumable batch; print, store, export."""

from __future__ import annotations

import argparse
import contextlib
import json
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TextIO

from scanner_app.commands.layout_args import add_layout_arguments, layout_of
from scanner_app.commands.library_args import LibraryUnavailable, add_library_arguments, library_sink
from scanner_app.commands.progress import ProgressPrinter
from scanner_app.core.batch.events import BatchSummary, PageDone
from scanner_app.core.batch.export import export_store
from scanner_app.core.batch.runner import run_batch
from scanner_app.core.client.endpoints import EndpointPool
from scanner_app.core.client.triton import ClientOptions, OcrClient
from scanner_app.core.errors import ScannerError
from scanner_app.core.export.formats import FORMATS, layout_text
from scanner_app.core.export.receipt_files import write_receipt_files
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("scan", help="recognise text in image files, PDFs and folders")
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="files and folders (recursive)")
    parser.add_argument(
        "--server",
        action="append",
        metavar="HOST:PORT",
        help="a Triton server; repeat for several (default: embedded)",
    )
    parser.add_argument("--out", type=Path, metavar="DIR", help="keep the batch store and the exports in DIR")
    parser.add_argument(
        "--format",
        default="json,csv,txt",
        help=f"exports written to --out, from {','.join(FORMATS)} (default json,csv,txt)",
    )
    parser.add_argument("--json", type=Path, metavar="DIR", help="also write DIR/NAME.json for each page")
    parser.add_argument(
        "--split-receipts",
        action="store_true",
        help="with --json: also write DIR/NAME.receipt-K.json and .txt for each receipt K on a page "
        "(several receipts on one scanner glass; an ordinary page is receipt 1)",
    )
    add_layout_arguments(parser)
    parser.add_argument("--jobs", type=int, default=4, help="requests in flight (default 4)")
    parser.add_argument("--resume", action="store_true", help="continue the batch already in --out")
    parser.add_argument(
        "--fresh", action="store_true", help="discard the batch already in --out and start over"
    )
    parser.add_argument(
        "--retry-failed",
        action="store_true",
        help="continue the batch in --out and send every failed file again (--resume already "
        "retries the files that failed because of the server)",
    )
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per request (default 120)")
    parser.add_argument("--tls-ca", type=Path, metavar="PEM", help="root certificate to verify the server")
    parser.add_argument("--tls-cert", type=Path, metavar="PEM", help="client certificate (mutual TLS)")
    parser.add_argument("--tls-key", type=Path, metavar="PEM", help="client private key (mutual TLS)")
    parser.add_argument("--quiet", action="store_true", help="no recognised text on stdout")
    parser.add_argument(
        "--force-ocr",
        action="store_true",
        help="OCR every PDF page, even one with its own text layer (by default a real text layer is read)",
    )
    parser.add_argument(
        "--fields",
        action="store_true",
        help="also extract invoice fields (vendor, date, number, amounts): added to the JSON outputs, "
        "and results_fields.csv (a reimbursement sheet) with the CSV exports",
    )
    add_library_arguments(parser)


@contextlib.contextmanager
def server_url(server: str | None) -> Iterator[str]:
    """The given server, or an embedded one started for the duration of the block."""
    if server:
        yield server
        return
    from scanner_app.server.embedded import EmbeddedServer
    from scanner_app.server.model_fetch import default_repository

    print("No --server given: starting the embedded Triton server on 127.0.0.1 ...", file=sys.stderr)
    with EmbeddedServer(default_repository(), grpc_port=0, http_port=0, metrics_port=0) as embedded:
        embedded.wait_ready()
        print(f"Embedded server ready at {embedded.grpc_url}", file=sys.stderr)
        yield embedded.grpc_url


@contextlib.contextmanager
def recognizer(servers: list[str] | None, options: ClientOptions) -> Iterator[OcrClient | EndpointPool]:
    """One client, or a pool when several servers are given, connected and checked."""
    with contextlib.ExitStack() as stack:
        urls = servers or [stack.enter_context(server_url(None))]
        client = EndpointPool(urls, options) if len(urls) > 1 else OcrClient(urls[0], options)
        stack.callback(client.close)
        client.connect()
        yield client


def _options(args: argparse.Namespace) -> ClientOptions:
    return ClientOptions(
        timeout_s=args.timeout,
        root_certificates=args.tls_ca,
        certificate_chain=args.tls_cert,
        private_key=args.tls_key,
    )


def _formats(text: str) -> list[str]:
    formats = [f.strip().lower() for f in text.split(",") if f.strip()]
    unknown = sorted(set(formats) - set(FORMATS))
    if unknown:
        raise SystemExit(
            f"scanner-app scan: unknown format(s) {', '.join(unknown)}; choose from {', '.join(FORMATS)}"
        )
    return formats


def _page_printer(args: argparse.Namespace, progress: ProgressPrinter) -> Callable[[object], None]:
    def on_event(event: object) -> None:
        if isinstance(event, PageDone):
            if args.json:
                fields, split = getattr(args, "fields", False), getattr(args, "split_receipts", False)
                _write_page_json(args.json, event, fields, split)
            if not args.quiet:
                text = layout_text(event.result)
                progress.message(
                    f"== {event.result.image} ({len(event.result.lines)} lines)\n{text}", sys.stdout
                )
        progress(event)

    return on_event


def _write_page_json(folder: Path, event: PageDone, fields: bool = False, split: bool = False) -> None:
    stem = event.path.stem if event.count == 1 else f"{event.path.stem}_p{event.index + 1}"
    data = event.result.to_json()
    data["image"] = str(event.path)
    if event.count > 1:
        data["page"] = event.index + 1
    if fields:
        from scanner_app.core.export.fields_sheet import page_fields_json

        data.update(page_fields_json(event.result))
    (folder / f"{stem}.json").write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    if split:
        write_receipt_files(folder, stem, event.result, fields)


def print_summary(summary: BatchSummary, stream: TextIO | None = None) -> None:
    """Files ok and failed (with causes), skipped, pages, lines, seconds, images/s."""
    out = stream or sys.stderr
    print(
        f"\n{len(summary.ok)} files ok, {len(summary.failed)} failed, {len(summary.pending)} pending, "
        f"{len(summary.skipped)} skipped; {summary.pages} pages ({summary.receipts} receipts), "
        f"{summary.lines} lines; "
        f"{summary.pages_sent} pages sent in {summary.seconds:.1f} s ({summary.images_per_s:.2f} images/s)",
        file=out,
    )
    for path, cause in summary.failed:
        print(f"  failed:  {path}: {cause}", file=out)
    for path, reason in summary.skipped:
        print(f"  skipped: {path}: {reason}", file=out)
    if summary.stopped:
        print(f"  stopped early: {summary.stopped} (run again with --resume to continue)", file=out)


def run(args: argparse.Namespace) -> int:
    formats = _formats(args.format)
    if getattr(args, "split_receipts", False) and not args.json:
        print("error: --split-receipts writes next to the --json files: give --json DIR too", file=sys.stderr)
        return 2
    if args.json:
        args.json.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        out = args.out or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="scanner-app-")))
        store_path = out / STORE_NAME
        retry = getattr(args, "retry_failed", False)
        if args.out and store_path.exists() and not (args.resume or args.fresh or retry):
            print(
                f"error: {out} already holds a batch; pass --resume to continue it or --fresh to start over",
                file=sys.stderr,
            )
            return 2
        progress = ProgressPrinter()
        try:
            if retry and store_path.exists():
                with BatchStore(store_path) as store:
                    print(f"Retrying {store.requeue_failed()} failed file(s).", file=sys.stderr)
            sink = stack.enter_context(library_sink(args, "scan", keep_batch=bool(args.out)))
            client = stack.enter_context(recognizer(args.server, _options(args)))
            summary = run_batch(
                args.paths,
                out,
                client.recognize,
                jobs=max(1, args.jobs),
                on_event=_page_printer(args, progress),
                resume=not args.fresh,
                force_ocr=getattr(args, "force_ocr", False),
                sink=sink,
            )
        except (ScannerError, LibraryUnavailable) as exc:
            progress.close()
            print(f"error: {exc}", file=sys.stderr)
            return 2
        except (sqlite3.Error, OSError) as exc:  # the store cannot be opened or written
            progress.close()
            return output_error(f"cannot write the batch store {store_path}", exc)
        progress.close()
        if summary.stopped and summary.stopped.startswith("cannot save results"):
            print_summary(summary)
            return output_error(f"cannot write the batch store {store_path}", summary.stopped)
        if args.out and formats:
            try:
                with BatchStore(store_path) as store:
                    written = export_store(store, out, formats, fields=getattr(args, "fields", False),
                                           layout=layout_of(args))  # fmt: skip
                owner_only(written)
            except (sqlite3.Error, OSError) as exc:
                print_summary(summary)
                return output_error(f"cannot write the exports in {out}", exc, stored=store_path)
            print(f"Results in {store_path}; exports: {', '.join(p.name for p in written)}", file=sys.stderr)
        print_summary(summary)
    return 1 if summary.failed or summary.pending or summary.stopped else 0


EXIT_OUTPUT_ERROR = 3  # the output folder cannot be written (disk full, read-only, no permission)


def output_error(what: str, cause: BaseException | str, stored: Path | None = None) -> int:
    """Say what could not be written, where and why (no traceback); EXIT_OUTPUT_ERROR."""
    reason = cause if isinstance(cause, str) else (getattr(cause, "strerror", None) or str(cause))
    print(f"error: {what}: {reason}.", file=sys.stderr)
    print(
        "Every result stored before this is kept"
        + (f" in {stored}" if stored else "")
        + ": free some space (or make the folder writable) and run again with --resume.",
        file=sys.stderr,
    )
    return EXIT_OUTPUT_ERROR


def owner_only(paths: Iterable[Path]) -> None:
    """Exports hold receipt text: readable by their owner only."""
    for path in paths:
        with contextlib.suppress(OSError):
            path.chmod(0o700 if path.is_dir() else 0o600)
