"""Load statistics with bounded memory: latency histogram, live throughput, error causes, schedules.

Nothing here keeps one entry per request, so a run can last for hours. Latencies go into
log-spaced buckets (each about 1 % wide, like HdrHistogram with two significant digits):
percentiles are read from the buckets and are exact to within half a bucket.
"""

from __future__ import annotations

import math
import random
import re
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

_RATIO = 1.02  # neighbouring bucket edges differ by 2 %: a value is read back within 1 %
_LOG_RATIO = math.log(_RATIO)
_MIN_US = 1.0  # values below 1 us share the first bucket
_MAX_US = 3.6e9  # one hour; longer values share the last bucket
_BUCKETS = int(math.log(_MAX_US / _MIN_US) / _LOG_RATIO) + 2
PRECISION = (_RATIO - 1.0) / 2.0  # the largest relative error of a percentile read from the buckets


class LatencyHistogram:
    """Latencies in microseconds, counted in ~1 %-wide log buckets; thread-safe; fixed size (~9 KB)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts = np.zeros(_BUCKETS, dtype=np.int64)
        self.count = 0
        self.total_us = 0.0
        self.min_us = math.inf
        self.max_us = 0.0

    @staticmethod
    def bucket_of(value_us: float) -> int:
        if value_us <= _MIN_US:
            return 0
        return min(_BUCKETS - 1, int(math.log(value_us / _MIN_US) / _LOG_RATIO) + 1)

    @staticmethod
    def value_of(bucket: int) -> float:
        """The geometric middle of a bucket."""
        if bucket == 0:
            return _MIN_US
        return _MIN_US * _RATIO ** (bucket - 1) * math.sqrt(_RATIO)

    def record(self, value_us: float) -> None:
        bucket = self.bucket_of(value_us)
        with self._lock:
            self._counts[bucket] += 1
            self.count += 1
            self.total_us += value_us
            self.min_us = min(self.min_us, value_us)
            self.max_us = max(self.max_us, value_us)

    def merge(self, other: LatencyHistogram) -> None:
        with other._lock:
            counts, count, total = other._counts.copy(), other.count, other.total_us
            low, high = other.min_us, other.max_us
        with self._lock:
            self._counts += counts
            self.count += count
            self.total_us += total
            self.min_us = min(self.min_us, low)
            self.max_us = max(self.max_us, high)

    @property
    def mean_us(self) -> float:
        return self.total_us / self.count if self.count else 0.0

    def percentile(self, q: float) -> float:
        """The q-th percentile (0-100) in microseconds; 0.0 when empty."""
        return self.percentiles((q,))[0]

    def percentiles(self, qs: Sequence[float]) -> list[float]:
        with self._lock:
            if not self.count:
                return [0.0 for _ in qs]
            cumulative = np.cumsum(self._counts)
            count, low, high = self.count, self.min_us, self.max_us
        out = []
        for q in qs:
            if q <= 0 or q >= 100:
                out.append(low if q <= 0 else high)
                continue
            rank = max(1, math.ceil(q / 100.0 * count))  # nearest-rank definition
            bucket = int(np.searchsorted(cumulative, rank))
            out.append(min(high, max(low, self.value_of(bucket))))
        return out


@dataclass(frozen=True)
class LatencySummary:
    """Milliseconds, as shown to people."""

    count: int
    mean_ms: float
    p50_ms: float
    p90_ms: float
    p95_ms: float
    p99_ms: float

    @classmethod
    def of(cls, histogram: LatencyHistogram) -> LatencySummary:
        p50, p90, p95, p99 = histogram.percentiles((50, 90, 95, 99))
        return cls(histogram.count, histogram.mean_us / 1e3, p50 / 1e3, p90 / 1e3, p95 / 1e3, p99 / 1e3)


class RateMeter:
    """Events per second over the last `span_s` seconds, from per-tick counters (a fixed ring)."""

    def __init__(self, span_s: float = 1.0, tick_s: float = 0.1, clock=time.monotonic) -> None:
        self._tick = tick_s
        self._ticks = max(1, round(span_s / tick_s))
        self._clock = clock
        self._lock = threading.Lock()
        self._ring: deque[list[float]] = deque(maxlen=self._ticks + 1)  # [tick number, count]
        self._started = clock()

    def add(self, n: int = 1) -> None:
        tick = int(self._clock() / self._tick)
        with self._lock:
            if self._ring and self._ring[-1][0] == tick:
                self._ring[-1][1] += n
            else:
                self._ring.append([tick, n])

    def rate(self) -> float:
        """Events per second in the last complete ticks (lags by at most one tick)."""
        current = int(self._clock() / self._tick)
        first = current - self._ticks
        with self._lock:
            total = sum(count for tick, count in self._ring if first <= tick < current)
        covered = min(self._ticks * self._tick, current * self._tick - self._started)
        return total / covered if covered > 0 else 0.0


# Timings, timestamps and ids vary between identical failures; addresses and ports keep their digits.
_LONG_NUMBER = re.compile(r"(?<![\d.])\d+\.\d+(?![\d.])|\d{6,}")
MAX_CAUSES = 50


def error_cause(exc: BaseException) -> str:
    """A short, stable description of an error, so that identical failures fall into one group."""
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    message = _LONG_NUMBER.sub("#", message)[:200]
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


class ErrorCounter:
    """Errors counted per cause; at most MAX_CAUSES distinct causes, the rest under 'other errors'."""

    OTHER = "other errors"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}

    def add(self, cause: str, count: int = 1) -> None:
        with self._lock:
            if cause not in self._counts and len(self._counts) >= MAX_CAUSES:
                cause = self.OTHER
            self._counts[cause] = self._counts.get(cause, 0) + count

    @property
    def total(self) -> int:
        with self._lock:
            return sum(self._counts.values())

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return dict(sorted(self._counts.items(), key=lambda kv: -kv[1]))


def within(values: Sequence[float], tolerance: float) -> bool:
    """True when every value lies within +-tolerance of the values' mean."""
    if not values:
        return False
    mean = sum(values) / len(values)
    if mean <= 0:
        return False
    return all(abs(v - mean) <= tolerance * mean for v in values)


def is_stable(
    throughputs: Sequence[float], latencies: Sequence[float], tolerance: float = 0.10, count: int = 3
) -> bool:
    """perf_analyzer's rule: the last `count` windows within +-tolerance in throughput and latency."""
    if len(throughputs) < count or len(latencies) < count:
        return False
    return within(throughputs[-count:], tolerance) and within(latencies[-count:], tolerance)


def arrival_offsets(rate_per_s: float, poisson: bool, seed: int | None = None) -> Iterator[float]:
    """Send times (seconds from the start) of a constant or Poisson schedule at `rate_per_s`."""
    if rate_per_s <= 0:
        raise ValueError("the request rate must be > 0")
    rng = random.Random(seed)
    t = 0.0
    while True:
        yield t
        t += rng.expovariate(rate_per_s) if poisson else 1.0 / rate_per_s
