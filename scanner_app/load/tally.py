"""The counters of one phase or window of a load run: fixed size, thread-safe."""

from __future__ import annotations

import threading
import time

from scanner_app.load.report import WindowStats
from scanner_app.load.stats import ErrorCounter, LatencyHistogram, LatencySummary


class Tally:
    """Counters of one phase or window; thread-safe, fixed size."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.histogram = LatencyHistogram()
        self.errors = ErrorCounter()
        self.completed = self.mismatches = 0
        self.send_s = self.recv_s = 0.0
        self.started = time.perf_counter()

    def add(self, latency_s: float, ok: bool, send_s: float, recv_s: float) -> None:
        self.histogram.record(latency_s * 1e6)
        with self.lock:
            self.completed += 1
            self.mismatches += 0 if ok else 1
            self.send_s += send_s
            self.recv_s += recv_s

    def merge(self, other: Tally) -> None:
        self.histogram.merge(other.histogram)
        for cause, count in other.errors.snapshot().items():
            self.errors.add(cause, count)
        with self.lock:
            self.completed += other.completed
            self.mismatches += other.mismatches
            self.send_s += other.send_s
            self.recv_s += other.recv_s

    def window(self, index: int, duration_s: float) -> WindowStats:
        s = LatencySummary.of(self.histogram)
        return WindowStats(index, duration_s, self.completed, self.errors.total, self.mismatches,
                           self.completed / duration_s if duration_s > 0 else 0.0,
                           s.mean_ms, s.p50_ms, s.p90_ms, s.p95_ms, s.p99_ms)  # fmt: skip
