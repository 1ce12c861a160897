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
sys.path.insert(0, str(ROOT / "tests"))
from sane_test_backend import DEVICE, use_sane_test_backend  # noqa: E402

from scanner_app.core.devices.base import ScanSettings  # noqa: E402
from scanner_app.core.devices.sane_device import SaneDevice  # noqa: E402
from scanner_app.core.devices.sane_inprocess import InProcessSaneDevice  # noqa: E402

Opener = Callable[[str], SaneDevice | InProcessSaneDevice]


def _median(times: list[float]) -> float:
    return statistics.median(times)


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
    return _median(opens), _median(scans)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--dpi", type=int, default=300)
    args = parser.parse_args()
    use_sane_test_backend()
    settings = ScanSettings("flatbed", dpi=args.dpi, mode="color")
    rows = []
    for _ in range(2):  # interleaved, so that a load change on the machine hits both sides
        rows.append(("in this process", *_measure(InProcessSaneDevice, args.pages, settings)))
        rows.append(("worker process", *_measure(SaneDevice, args.pages, settings)))
    inproc = [r for r in rows if r[0] == "in this process"]
    worker = [r for r in rows if r[0] == "worker process"]
    print(f"SANE test device, {args.dpi} dpi colour flatbed page, median of {args.pages} (two rounds)")
    print(f"{'':18} {'open+close s':>13} {'page s':>8}")
    for label, side in (("in this process", inproc), ("worker process", worker)):
        print(f"{label:18} {_median([r[1] for r in side]):13.3f} {_median([r[2] for r in side]):8.3f}")
    extra_open = _median([r[1] for r in worker]) - _median([r[1] for r in inproc])
    page_ratio = _median([r[2] for r in worker]) / _median([r[2] for r in inproc])
    # in this process SANE is initialised once (the first open), so open+close is a difference, not a ratio
    print(f"worker against in process: open+close {extra_open:+.3f} s, page {page_ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
