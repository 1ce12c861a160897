"""`scanner-app scan`: recognise image files and print or save their lines."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from scanner_app.core.client import OcrClient
from scanner_app.core.errors import ScannerError
from scanner_app.core.results import PageResult


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("scan", help="recognise text in image files")
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE")
    parser.add_argument(
        "--server", metavar="HOST:PORT", help="a running Triton (default: start the embedded one)"
    )
    parser.add_argument("--json", type=Path, metavar="DIR", help="write DIR/NAME.json for each file")
    parser.add_argument("--jobs", type=int, default=4, help="requests in flight (default 4)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per request (default 120)")


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


def run(args: argparse.Namespace) -> int:
    failed = 0
    if args.json:
        args.json.mkdir(parents=True, exist_ok=True)
    try:
        with server_url(args.server) as url, OcrClient(url, timeout_s=args.timeout) as client:
            client.connect()

            def one(path: Path) -> PageResult:
                return client.recognize(path.read_bytes(), name=str(path))

            with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
                futures = [(path, pool.submit(one, path)) for path in args.files]
                for path, future in futures:
                    try:
                        page = future.result()
                    except (ScannerError, OSError) as exc:
                        failed += 1
                        print(f"{path}: FAILED: {exc}", file=sys.stderr)
                        continue
                    print(f"== {path} ({len(page.lines)} lines, {page.elapsed_ms:.0f} ms)")
                    print(page.text)
                    if args.json:
                        out = args.json / f"{path.stem}.json"
                        out.write_text(
                            json.dumps(page.to_json(), ensure_ascii=False, indent=1), encoding="utf-8"
                        )
    except ScannerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 1 if failed else 0
