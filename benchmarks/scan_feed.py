"""Reading pages as they come off the feeder, against scanning the stack first and reading it after.

Usage: ``python benchmarks/scan_feed.py [--pages 10] [--page-s 1.0] [--jobs 2] [--server HOST:PORT]``

The scanner is the local eSCL test server (tests/helpers/escl_server.py, 127.0.0.1 only) serving real
SROIE receipts, taking ``--page-s`` seconds a page (NextDocument answers 503 until a page is ready),
as a network scanner's feeder would. Both runs use the same server (the embedded one when no
``--server``). Prints: seconds to the first result, seconds to the last, and their ratio.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the tests package: its helpers
from scanner_app.commands.scan import recognizer  # noqa: E402
from scanner_app.core.batch.events import PageDone  # noqa: E402
from scanner_app.core.batch.runner import run_batch  # noqa: E402
from scanner_app.core.client.triton import ClientOptions  # noqa: E402
from scanner_app.core.devices import ScanSettings, open_device  # noqa: E402
from scanner_app.core.devices.feed import scan_folder, scan_pages, scan_to_batch  # noqa: E402
from tests.helpers.escl_server import EsclTestServer, Scanner  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "sroie" / "img"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=int, default=10)
    parser.add_argument("--page-s", type=float, default=1.0, help="seconds the scanner takes per page")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--server", action="append")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    receipts = sorted(args.data.glob("*.jpg"))[: args.pages]
    if not receipts:
        print(f"no receipts in {args.data}", file=sys.stderr)
        return 2
    fronts = [p.read_bytes() for p in receipts]
    with recognizer(args.server, ClientOptions(timeout_s=300)) as client:
        client.recognize(fronts[0], "warm-up")
        rows = []
        for label, streaming in (("scan, then read", False), ("read as scanned", True)):
            with EsclTestServer(Scanner(list(fronts), page_delay_s=args.page_s)) as server, \
                    tempfile.TemporaryDirectory() as out:  # fmt: skip
                first = threading.Event()
                first_at = [0.0]

                def on_event(
                    event: object, first: threading.Event = first, first_at: list[float] = first_at
                ) -> None:
                    if isinstance(event, PageDone) and not first.is_set():
                        first_at[0] = time.perf_counter()
                        first.set()

                device = open_device("escl:" + server.root)
                settings = ScanSettings("feeder", 300, "color")
                start = time.perf_counter()
                if streaming:
                    summary = scan_to_batch(
                        device, settings, out, client.recognize, jobs=args.jobs, on_event=on_event
                    )
                    ok = len(summary.batch.ok)
                else:
                    scanned = scan_pages(device, settings, scan_folder(Path(out)))
                    batch = run_batch(
                        scanned.paths, Path(out) / "batch", client.recognize, args.jobs, on_event
                    )
                    ok = len(batch.ok)
                total = time.perf_counter() - start
                rows.append((label, first_at[0] - start, total, ok))
    print(f"{len(receipts)} SROIE receipts, scanner {args.page_s:.1f} s/page, {args.jobs} requests in flight")
    print(f"{'':<18}{'first result s':>16}{'all results s':>16}{'pages ok':>10}")
    for label, first_s, total, ok in rows:
        print(f"{label:<18}{first_s:>16.1f}{total:>16.1f}{ok:>10}")
    (_, f0, t0, _), (_, f1, t1, _) = rows
    print(f"read as scanned: first result {f0 / f1:.1f}x sooner, all results {t0 / t1:.2f}x sooner")
    return 0


if __name__ == "__main__":
    sys.exit(main())
