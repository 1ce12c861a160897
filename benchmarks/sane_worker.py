"""What the SANE worker process costs: SANE's test device in this process against through the worker.

Usage: ``python benchmarks/sane_worker.py [--pages 20] [--dpi 300]``

Needs SANE's `test` backend (``python scripts/prepare_tests.py``). Prints the median seconds to open
and close the device and to scan one colour flatbed page, each way, side by side: the extra seconds
an open takes and the ratio of the page times.
The app always takes the worker path (scanner_app/core/devices/sane_device.py says why).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the tests package: its helpers
from scanner_app.core.devices.base import ScanSettings  # noqa: E402
from scanner_app.core.devices.sane_device import SaneDevice  # noqa: E402
from scanner_app.core.devices.sane_inprocess import InProcessSaneDevice  # noqa: E402
from tests.helpers.sane_backend import DEVICE, use_sane_test_backend  # noqa: E402

Opener = Callable[[str], SaneDevice | InProcessSaneDevice]


def _measure(opener: Opener, pages: int, settings: ScanSettings) -> tuple[float, float]:
    opens = []
    for _ in range(max(3, pages // 4)):
        start = time.perf_counter()
        opener(DEVICE).close()
        opens.append(time.perf_counter() - start)
    device = opener(DEVICE)
    try:
        device.set_option("test_picture", "Color pattern")
        scans = []
        for _ in range(pages):
            start = time.perf_counter()
            (page,) = list(device.scan(settings, threading.Event()))
            scans.append(time.perf_counter() - start)
            assert page.image.mode == "RGB"
    finally:
        device.close()
    return statistics.median(opens), statistics.median(scans)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--dpi", type=int, default=300)
    args = parser.parse_args()
    use_sane_test_backend()
    settings = ScanSettings("flatbed", dpi=args.dpi, mode="color")
    sides: dict[str, tuple[Opener, list[tuple[float, float]]]] = {
        "in this process": (InProcessSaneDevice, []),
        "worker process": (SaneDevice, []),
    }
    for _ in range(2):  # interleaved, so that a load change on the machine hits both sides
        for opener, rounds in sides.values():
            rounds.append(_measure(opener, args.pages, settings))
    medians = {
        label: (statistics.median(o for o, _ in rounds), statistics.median(p for _, p in rounds))
        for label, (_, rounds) in sides.items()
    }
    print(f"SANE test device, {args.dpi} dpi colour flatbed page, median of {args.pages} (two rounds)")
    print(f"{'':18} {'open+close s':>13} {'page s':>8}")
    for label, (open_s, page_s) in medians.items():
        print(f"{label:18} {open_s:13.3f} {page_s:8.3f}")
    (inproc_open, inproc_page), (worker_open, worker_page) = medians.values()
    # in this process SANE is initialised once (the first open), so open+close is a difference, not a ratio
    print(
        f"worker against in process: open+close {worker_open - inproc_open:+.3f} s, "
        f"page {worker_page / inproc_page:.2f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
