"""How often SANE's cleanup hangs, and that the worker contains every hang (SANE's `test` backend).

Usage: ``python benchmarks/sane_hangs.py [--scans 1000] [--status SANE_STATUS_DEVICE_BUSY]``

One open device scans a flatbed page ``--scans`` times: each read ends in ``--status`` (``Default``
for whole pages). Counted: outcomes as expected (the status's message, or one page), stalls (no
outcome: the scan waited for the stall limit), and workers replaced because SANE's cleanup after
the outcome hung (the worker's PID changed). Goal: every outcome as expected and no stall; hung
cleanups are SANE's own, and each costs at most the worker's grace (sane_device.CANCEL_GRACE_S).
Needs ``python scripts/prepare_tests.py``.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the tests package: its helpers
from scanner_app.core.devices.base import DeviceError, ScanSettings  # noqa: E402
from scanner_app.core.devices.sane_device import SaneDevice  # noqa: E402
from tests.helpers.sane_backend import DEVICE, use_sane_test_backend  # noqa: E402

STALL_S = 5.0  # far above a test-device scan (milliseconds), far below the app's limit


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scans", type=int, default=1000)
    parser.add_argument("--status", default="SANE_STATUS_DEVICE_BUSY")
    args = parser.parse_args()
    use_sane_test_backend()
    settings = ScanSettings("flatbed", dpi=50, mode="gray", options={"read_return_value": args.status})
    expected = stalls = replaced = 0
    other: list[str] = []
    start = time.monotonic()
    device = SaneDevice(DEVICE, stall_s=STALL_S)
    try:
        pid = device.worker_pid
        for _ in range(args.scans):
            try:
                pages = list(device.scan(settings, threading.Event()))
                ok = args.status == "Default" and len(pages) == 1
                expected += ok
                if not ok:
                    other.append(f"{len(pages)} pages")
            except DeviceError as exc:
                if "sent nothing" in str(exc):
                    stalls += 1
                elif args.status != "Default":
                    expected += 1
                else:
                    other.append(str(exc))
            if device.worker_pid != pid:
                replaced += 1
                pid = device.worker_pid
    finally:
        device.close()
    samples = "; ".join(sorted(set(other))[:3])
    print(
        f"{args.scans} scans ending in {args.status} in {time.monotonic() - start:.0f} s: "
        f"{expected} as expected, {stalls} stalls, {replaced} workers replaced after a hung cleanup, "
        f"{len(other)} other outcomes" + (f" ({samples})" if other else "")
    )
    return 0 if expected == args.scans and not stalls else 1


if __name__ == "__main__":
    sys.exit(main())
