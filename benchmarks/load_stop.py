"""How soon a load run ends after stop(): requests still in flight, or golden responses being taken.

Usage: python benchmarks/load_stop.py [--rounds 5] [--concurrency 8]

No server: in-process targets whose requests (or golden responses) block until released, so
stop() can only end the run by not waiting for them. The tests check that it does not wait
(tests/load/test_stats.py); this measures how long stop() -> wait() takes. Prints the median and
worst of each case; exit status 1 when the worst is over the goal, STOP_GRACE_S + 0.5 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time

from scanner_app.load.engine import STOP_GRACE_S, LoadRun, LoadSpec

GOAL_S = STOP_GRACE_S + 0.5


class Blocked:
    """A Target whose requests (and, with `golden`, golden responses) block until `release` is set."""

    name, url, model = "blocked", "in-process", ""

    def __init__(self, workers: int, golden: bool) -> None:
        self.has_golden = not golden
        self.workers = workers
        self.sent = 0
        self.busy = threading.Event()  # every worker is blocked in send(), or take_golden() began
        self.release = threading.Event()
        self._lock = threading.Lock()

    def send(self, index: int) -> int:
        with self._lock:
            self.sent += 1
            if self.sent >= self.workers:
                self.busy.set()
        self.release.wait()
        return index

    def check(self, index: int, response: int) -> bool:
        return response == index

    def take_golden(self) -> None:
        self.busy.set()
        self.release.wait()

    def close(self) -> None: ...


def stop_seconds(concurrency: int, golden: bool) -> float:
    target = Blocked(concurrency, golden)
    run = LoadRun(target, LoadSpec(concurrency=concurrency, duration_s=600, warmup_s=0))
    run.start()
    try:
        if not target.busy.wait(60):
            raise RuntimeError("the workers never started")
        started = time.perf_counter()
        run.stop()
        run.wait(60)
        return time.perf_counter() - started
    finally:
        target.release.set()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()
    worst = 0.0
    for label, golden in (("requests in flight", False), ("taking golden responses", True)):
        times = [stop_seconds(args.concurrency, golden) for _ in range(args.rounds)]
        worst = max(worst, *times)
        median = statistics.median(times)
        print(f"stop() -> wait(), {label:24s} median {median:.3f} s, worst {max(times):.3f} s")
    print(f"goal: worst <= {GOAL_S:.1f} s (STOP_GRACE_S {STOP_GRACE_S:.1f} s + 0.5 s)")
    return 0 if worst <= GOAL_S else 1


if __name__ == "__main__":
    sys.exit(main())
