"""Load statistics without a server: histogram, stability rule, schedules, error causes, engine mechanics."""

from __future__ import annotations

import csv
import itertools
import threading
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from scanner_app.load.engine import LoadRun, LoadSpec
from scanner_app.load.report import PERF_CSV_COLUMNS, RunResult, ratio, speedup, write_perf_csv
from scanner_app.load.server_stats import ServerSample
from scanner_app.load.stats import (
    MAX_CAUSES,
    PRECISION,
    ErrorCounter,
    LatencyHistogram,
    RateMeter,
    arrival_offsets,
    error_cause,
    is_stable,
)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_histogram_percentiles_match_numpy_within_bucket_precision(seed: int) -> None:
    rng = np.random.default_rng(seed)
    values = rng.lognormal(mean=np.log(50_000), sigma=1.0, size=20_000)  # ~50 ms, wide spread
    histogram = LatencyHistogram()
    for value in values:
        histogram.record(float(value))
    for q in (50, 90, 95, 99, 99.9):
        exact = np.percentile(values, q, method="inverted_cdf")
        assert histogram.percentile(q) == pytest.approx(exact, rel=PRECISION + 1e-9), q
    assert histogram.count == len(values)
    assert histogram.mean_us == pytest.approx(values.mean(), rel=1e-9)
    assert histogram.percentile(100) == pytest.approx(values.max(), rel=PRECISION)


def test_histogram_edges_and_merge() -> None:
    empty = LatencyHistogram()
    assert empty.percentile(50) == 0.0 and empty.mean_us == 0.0
    a, b = LatencyHistogram(), LatencyHistogram()
    for v in (0.1, 10.0, 1e12):  # below the first bucket, ordinary, beyond the last bucket
        a.record(v)
    b.record(1000.0)
    a.merge(b)
    assert a.count == 4
    assert a.percentile(0) == pytest.approx(0.1)  # clamped to the smallest value seen
    assert a.percentile(100) == pytest.approx(1e12)  # clamped to the largest
    assert a.percentile(75) == pytest.approx(1000.0, rel=PRECISION)


def test_histogram_is_fixed_size() -> None:
    histogram = LatencyHistogram()
    size = histogram._counts.nbytes
    for v in np.random.default_rng(0).uniform(1, 1e9, 10_000):
        histogram.record(float(v))
    assert histogram._counts.nbytes == size < 20_000


def test_stability_rule_is_perf_analyzers() -> None:
    assert is_stable([100, 104, 96], [50, 52, 49])
    assert not is_stable([100, 104], [50, 52])  # fewer than 3 windows
    assert not is_stable([100, 120, 96], [50, 52, 49])  # throughput off by more than 10 %
    assert not is_stable([100, 104, 96], [50, 70, 49])  # latency off by more than 10 %
    assert is_stable([10, 500, 100, 104, 96], [1, 1, 50, 52, 49])  # only the last 3 count
    assert not is_stable([0, 0, 0], [0, 0, 0])  # nothing completed is not a measurement


def test_constant_schedule_has_the_exact_rate() -> None:
    offsets = list(itertools.islice(arrival_offsets(40.0, poisson=False), 401))
    assert offsets[0] == 0.0
    assert offsets[-1] == pytest.approx(10.0)
    assert np.allclose(np.diff(offsets), 1 / 40)


def test_poisson_schedule_has_the_rate_and_exponential_gaps() -> None:
    offsets = np.array(list(itertools.islice(arrival_offsets(40.0, poisson=True, seed=3), 20_001)))
    gaps = np.diff(offsets)
    assert len(gaps) / offsets[-1] == pytest.approx(40.0, rel=0.03)
    assert gaps.std() / gaps.mean() == pytest.approx(1.0, abs=0.05)  # exponential: CV = 1
    with pytest.raises(ValueError):
        next(arrival_offsets(0.0, poisson=False))


def test_errors_are_grouped_by_cause() -> None:
    counter = ErrorCounter()
    for attempt in range(5):  # the same failure with a varying timestamp and timing is one cause
        counter.add(error_cause(TimeoutError(f"deadline after {attempt}.25 s at 1795976{attempt:04d}")))
    counter.add(error_cause(ConnectionRefusedError("connect to 127.0.0.1:8001 refused")))
    counter.add(error_cause(ValueError()))
    causes = counter.snapshot()
    assert causes == {
        "TimeoutError: deadline after # s at #": 5,
        "ConnectionRefusedError: connect to 127.0.0.1:8001 refused": 1,
        "ValueError": 1,
    }
    assert next(iter(causes)).startswith("TimeoutError")  # most frequent first
    for k in range(MAX_CAUSES + 10):
        counter.add(f"cause {k}")
    assert len(counter.snapshot()) == MAX_CAUSES + 1  # the rest fall into one group
    assert counter.snapshot()[ErrorCounter.OTHER] >= 10
    assert counter.total == 7 + MAX_CAUSES + 10


def test_rate_meter_counts_the_last_span() -> None:
    now = [100.0]
    meter = RateMeter(span_s=1.0, tick_s=0.1, clock=lambda: now[0])
    for _ in range(20):  # 10 events per tick of 0.1 s for 2 s: 100 per second
        now[0] += 0.1
        meter.add(10)
    assert meter.rate() == pytest.approx(100.0, rel=0.01)
    now[0] += 5.0
    assert meter.rate() == 0.0


class CountingTarget:
    """A real in-process target (no server): echoes the input number after `delay_s`."""

    name = "echo"
    url = "in-process"
    model = ""
    has_golden = True

    def __init__(self, delay_s: float = 0.0, fail_every: int = 0) -> None:
        self.delay_s = delay_s
        self.fail_every = fail_every
        self.sent = 0
        self._lock = threading.Lock()

    def send(self, index: int) -> int:
        with self._lock:
            self.sent += 1
        if self.delay_s:
            time.sleep(self.delay_s)
        if self.fail_every and index % self.fail_every == 0:
            raise ConnectionError(f"input {index % 3} refused")
        return index

    def check(self, index: int, response: int) -> bool:
        return response == index

    def take_golden(self) -> None: ...

    def close(self) -> None: ...


def test_request_bound_runs_exactly_n_and_memory_stays_bounded() -> None:
    target = CountingTarget()
    spec = LoadSpec(concurrency=4, duration_s=None, requests=2_000, warmup_s=0.2, window_s=0.5)
    run = LoadRun(target, spec)
    run.start()
    run.wait(60)  # warm the interpreter's caches before measuring memory
    tracemalloc.start()
    try:
        big = LoadRun(target, LoadSpec(concurrency=4, duration_s=None, requests=30_000, warmup_s=0.0))
        big.start()
        result = big.wait(120)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.completed == 30_000 and result.mismatches == 0 and not result.errors
    assert peak < 3_000_000  # a list of 30,000 latencies alone would be ~1 MB; nothing grows per request


def test_errors_and_rate_mode() -> None:
    target = CountingTarget(delay_s=0.002, fail_every=4)
    spec = LoadSpec(concurrency=4, duration_s=1.5, rate_per_s=200.0, poisson=True, warmup_s=0.2, window_s=0.5)
    run = LoadRun(target, spec)
    run.start()
    result = run.wait(30)
    assert result.rate_per_s == 200.0
    assert result.throughput + result.error_count / result.duration_s == pytest.approx(200.0, rel=0.2)
    assert set(result.errors) == {f"ConnectionError: input {k} refused" for k in range(3)}
    assert result.error_count == pytest.approx(result.completed / 3, rel=0.3)


class BlockedTarget(CountingTarget):
    """Every request blocks until `release` is set; `all_in` is set once `workers` requests are in flight."""

    def __init__(self, workers: int) -> None:
        super().__init__()
        self.workers = workers
        self.all_in = threading.Event()
        self.release = threading.Event()

    def send(self, index: int) -> int:
        with self._lock:
            self.sent += 1
            if self.sent >= self.workers:
                self.all_in.set()
        self.release.wait()
        return index


def test_stop_ends_the_run_while_requests_are_still_in_flight() -> None:
    target = BlockedTarget(workers=8)
    run = LoadRun(target, LoadSpec(concurrency=8, duration_s=600, warmup_s=0))
    run.start()
    try:
        assert target.all_in.wait(30), "the 8 workers never sent"
        run.stop()
        result = run.wait(30)  # a hang guard: without stop() the run lasts 600 s
        assert not target.release.is_set() and target.sent == 8  # the 8 requests are still blocked
        assert result.completed == 0 and result.error_count == 0 and run.live().phase == "done"
    finally:
        target.release.set()


def test_perf_csv_layout(tmp_path: Path) -> None:
    result = RunResult(
        target="detection", url="x", concurrency=4, completed=10, errors={}, mismatches=0, throughput=12.5,
        mean_ms=300.0, p50_ms=290.0, p90_ms=350.0, p95_ms=360.0, p99_ms=400.0, duration_s=1.0, stable=True,
        windows=(), server={"client_send": 100, "network": 900, "queue": 1000, "compute_input": 50,
                            "compute_infer": 297_000, "compute_output": 800, "client_recv": 150},
    )  # fmt: skip
    write_perf_csv([result, result], tmp_path / "out.csv")
    rows = list(csv.reader((tmp_path / "out.csv").open(encoding="utf-8")))
    assert tuple(rows[0]) == PERF_CSV_COLUMNS and len(rows) == 3
    assert rows[1] == ["4", "12.5000", "100", "900", "1000", "50", "297000", "800", "150",
                       "290000", "350000", "360000", "400000"]  # fmt: skip


class BlockedGoldenTarget(CountingTarget):
    """take_golden() blocks until `release` is set; `entered` is set when it begins."""

    has_golden = False

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Event()
        self.release = threading.Event()

    def take_golden(self) -> None:
        self.entered.set()
        self.release.wait()


def test_stop_while_taking_golden_does_not_wait_for_it() -> None:
    target = BlockedGoldenTarget()
    run = LoadRun(target, LoadSpec(concurrency=2, duration_s=5))
    run.start()
    try:
        assert target.entered.wait(30)
        assert run.live().phase == "golden" and run.live().warming_up
        run.stop()
        result = run.wait(30)  # a hang guard: the golden responses never come
        assert not target.release.is_set() and target.sent == 0  # ended with take_golden() still blocked
        assert result.completed == 0 and list(result.errors) == ["stopped while taking the golden responses"]
    finally:
        target.release.set()


def test_count_windows_end_after_their_responses() -> None:
    spec = LoadSpec(concurrency=2, duration_s=None, requests=40, warmup_s=0, window_requests=10, window_s=60)
    run = LoadRun(CountingTarget(delay_s=0.05), spec)
    run.start()
    result = run.wait(30)
    assert result.completed == 40
    assert all(10 <= w.completed <= 13 for w in result.windows[:-1]), result.windows
    assert sum(w.completed for w in result.windows) == 40
    assert len(result.windows) >= 4  # closed by their count: one 60 s time window would hold all 40


def _throughput(value: float) -> RunResult:
    return RunResult(
        target="pipeline", url="x", concurrency=4, completed=int(value * 10), errors={}, mismatches=0,
        throughput=value, mean_ms=1.0, p50_ms=1.0, p90_ms=1.0, p95_ms=1.0, p99_ms=1.0, duration_s=10.0,
        stable=True, windows=(), server=None,
    )  # fmt: skip


def test_speedup_is_candidate_over_reference_and_none_without_a_reference() -> None:
    assert speedup(_throughput(6.0), _throughput(2.0)) == pytest.approx(3.0)
    assert speedup(_throughput(0.0), _throughput(2.0)) == 0.0  # the candidate completed nothing: 0x
    assert speedup(_throughput(6.0), _throughput(0.0)) is None  # nothing to compare with
    assert ratio(900.0, 300.0) == pytest.approx(3.0) and ratio(1.0, 0.0) is None


class SampledMonitor:
    """A Monitor (load.server_stats) that counts its samples: each reports 10 % more CPU than the last."""

    def __init__(self) -> None:
        self.samples = 0

    @property
    def last_totals(self) -> None:
        return None

    def sample(self) -> ServerSample:
        self.samples += 1
        return ServerSample(float(self.samples), {}, None, None, 10.0 * self.samples, 1.0)


def test_the_result_carries_one_server_sample_per_measured_window() -> None:
    monitor = SampledMonitor()
    spec = LoadSpec(concurrency=2, duration_s=None, requests=30, warmup_s=0, window_requests=10, window_s=60)
    run = LoadRun(CountingTarget(delay_s=0.05), spec, monitor)  # 10 responses take ~0.25 s
    run.start()
    result = run.wait(30)
    assert len(result.server_samples) == len(result.windows) >= 3
    assert monitor.samples == len(result.windows) + 1  # and one that starts the measured interval
    assert [s.cpu_util for s in result.server_samples] == [10.0 * k for k in range(2, monitor.samples + 1)]
    assert run.live().server_samples == result.server_samples
