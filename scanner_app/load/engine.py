"""The load engine: workers keep requests in flight against a Target and measure like perf_analyzer.

Closed loop (default): `concurrency` workers each keep one request in flight. Open loop
(`rate_per_s`): a scheduler releases requests at a constant or Poisson rate to at most
`concurrency` workers. A run takes the golden responses at concurrency 1 (once per target),
warms up, then measures in windows of `window_s`; with `stability` it stops as soon as the last
3 windows agree within +-10 % (perf_analyzer's rule, at most 10 windows) and reports those 3.
Memory stays bounded however long it runs: counters and histograms only.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scanner_app.load.report import PERF_CSV_COLUMNS, RunResult, WindowStats, write_perf_csv
from scanner_app.load.stats import LatencySummary, RateMeter, arrival_offsets, error_cause, is_stable
from scanner_app.load.tally import Tally

if TYPE_CHECKING:
    from scanner_app.load.server_stats import Monitor, ServerSample, ServerTotals
    from scanner_app.load.targets import Target

__all__ = [
    "PERF_CSV_COLUMNS", "LiveStats", "LoadRun", "LoadSpec", "RunResult", "WindowStats", "write_perf_csv",
]  # fmt: skip

MAX_WINDOWS = 10  # perf_analyzer's default maximum number of trials
STABLE_WINDOWS = 3
STOP_GRACE_S = 1.0  # how long stop() lets in-flight requests finish before the result is made
DRAIN_S = 30.0  # at a normal end, in-flight requests may finish (so they load no later run)
MAX_KEPT_WINDOWS = 600  # the latest windows kept for live views and the result (bounded memory)


@dataclass(frozen=True)
class LoadSpec:
    """What to run. `duration_s` and `requests` both None: run until stop()."""

    concurrency: int = 1
    duration_s: float | None = 20.0  # None -> bounded by `requests`
    requests: int | None = None
    rate_per_s: float | None = None  # None -> closed loop (each worker keeps one request in flight)
    poisson: bool = False
    warmup_s: float = 2.0
    window_s: float = 2.0
    stability: bool = False  # perf_analyzer rule: last 3 windows within +-10 %, <= 10 windows
    stability_tolerance: float = 0.10  # perf_analyzer's --stability-percentage / 100
    window_requests: int | None = None  # count windows: a window ends after this many responses

    def __post_init__(self) -> None:
        if self.concurrency < 1:
            raise ValueError("concurrency must be >= 1")
        if self.requests is not None and self.requests < 1:
            raise ValueError("requests must be >= 1")
        if self.duration_s is not None and self.duration_s <= 0:
            raise ValueError("duration must be > 0 seconds")
        if self.rate_per_s is not None and self.rate_per_s <= 0:
            raise ValueError("the request rate must be > 0")
        if self.window_requests is not None and self.window_requests < 1:
            raise ValueError("window_requests must be >= 1")
        if self.window_s <= 0 or self.warmup_s < 0:
            raise ValueError("window_s must be > 0 and warmup_s >= 0")


@dataclass(frozen=True)
class LiveStats:
    """A cheap, thread-safe snapshot for UI timers (the measurement so far, or the warm-up)."""

    elapsed_s: float
    warming_up: bool
    completed: int
    errors: int
    mismatches: int
    throughput: float  # responses/s over the last window_s; once "done", the run's measured throughput
    mean_ms: float
    p50_ms: float
    p90_ms: float
    p95_ms: float
    p99_ms: float
    phase: str = ""  # "golden" | "warmup" | "measuring" | "draining" | "done"
    windows: tuple[WindowStats, ...] = ()
    error_causes: tuple[tuple[str, int], ...] = ()
    server_samples: tuple[ServerSample, ...] = ()  # one per measured window so far (see RunResult)


class LoadRun:
    """One run of a LoadSpec against a Target; start() returns at once, the work runs on own threads."""

    def __init__(self, target: Target, spec: LoadSpec, monitor: Monitor | None = None) -> None:
        """`monitor` is sampled once per measured window (the result's server_samples and breakdown)."""
        self.target = target
        self.spec = spec
        self.monitor = monitor
        self._stop = threading.Event()
        self._finished = threading.Event()
        self._lock = threading.Lock()
        self._phase = "idle"
        self._started_at = 0.0
        self._warmup = Tally()
        self._measure: Tally | None = None
        self._window = Tally()
        self._tallies: tuple[Tally, ...] = (self._warmup,)  # where completions go now
        self._windows: deque[WindowStats] = deque(maxlen=MAX_KEPT_WINDOWS)
        self._samples: deque[ServerSample] = deque(maxlen=MAX_KEPT_WINDOWS)
        self._window_count = 0
        self._window_tallies: list[Tally] = []  # the last STABLE_WINDOWS, for the stable result
        self._meter = RateMeter(span_s=max(1.0, spec.window_s))
        self._indices = itertools.count()
        self._tickets = 0
        self._delayed = 0
        self._due: queue.SimpleQueue[float] = queue.SimpleQueue()
        self._workers: list[threading.Thread] = []
        self._result: RunResult | None = None
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._control, name="load-control", daemon=True)

    # Public --------------------------------------------------------------------------------
    def start(self) -> None:
        """Begin (golden responses, warm-up, measurement) on background threads."""
        self._started_at = time.perf_counter()
        self._thread.start()

    def stop(self) -> None:
        """Ask the run to end now; returns at once. wait() then gives the result measured so far."""
        self._stop.set()

    @property
    def done(self) -> bool:
        return self._finished.is_set()

    @property
    def result(self) -> RunResult | None:
        return self._result

    def wait(self, timeout: float | None = None) -> RunResult:
        """Block until the run ends; raise TimeoutError if it has not within `timeout` seconds."""
        if not self._finished.wait(timeout):
            raise TimeoutError(f"the load run did not finish within {timeout} s")
        if self._failure is not None:
            raise self._failure
        assert self._result is not None
        return self._result

    def live(self) -> LiveStats:
        with self._lock:
            phase, tally, windows = self._phase, self._measure or self._warmup, tuple(self._windows)
            samples, result = tuple(self._samples), self._result
        s = LatencySummary.of(tally.histogram)
        elapsed = time.perf_counter() - self._started_at if self._started_at else 0.0
        # A finished run's last window may hold no response (results checked, the server sampled), so
        # its final point is the run's own figure, not a rate that has fallen to 0.
        throughput = result.throughput if phase == "done" and result is not None else self._meter.rate()
        return LiveStats(
            elapsed_s=elapsed, warming_up=phase in ("golden", "warmup"), completed=tally.completed,
            errors=tally.errors.total, mismatches=tally.mismatches, throughput=throughput,
            mean_ms=s.mean_ms, p50_ms=s.p50_ms, p90_ms=s.p90_ms, p95_ms=s.p95_ms, p99_ms=s.p99_ms,
            phase=phase, windows=windows, error_causes=tuple(tally.errors.snapshot().items()),
            server_samples=samples,
        )  # fmt: skip

    # Workers -------------------------------------------------------------------------------
    def _worker(self) -> None:
        open_loop = self.spec.rate_per_s is not None
        while not self._stop.is_set():
            if open_loop:
                try:
                    due = self._due.get(timeout=0.1)
                except queue.Empty:
                    continue
                if time.perf_counter() - due > 0.005:
                    with self._lock:
                        self._delayed += 1
            at_start = self._tallies
            ticket = self._take_ticket()
            if ticket is False:
                return
            self._one(next(self._indices), at_start, ticket)

    def _take_ticket(self) -> bool | None:
        """In a run bounded by requests: True for a measured request, False when all are issued."""
        if self.spec.requests is None or self._measure is None:
            return None
        with self._lock:
            if self._tickets >= self.spec.requests:
                return False
            self._tickets += 1
            return True

    def _one(self, index: int, at_start: tuple[Tally, ...], ticket: bool | None) -> None:
        started = time.perf_counter()
        try:
            response = self.target.send(index)
        except Exception as exc:  # every failure is counted by cause, none ends the run
            cause = error_cause(exc)
            for tally in self._destinations(at_start, ticket):
                tally.errors.add(cause)
            return
        latency = time.perf_counter() - started
        try:
            ok = bool(self.target.check(index, response))
        except Exception:  # a response the check cannot read is a mismatch
            ok = False
        send_s = float(getattr(response, "client_send_s", 0.0))
        recv_s = float(getattr(response, "client_recv_s", 0.0))
        self._meter.add()
        for tally in self._destinations(at_start, ticket):
            tally.add(latency, ok, send_s, recv_s)

    def _destinations(self, at_start: tuple[Tally, ...], ticket: bool | None) -> tuple[Tally, ...]:
        """Time-bounded runs count a response where it lands; request-bounded ones count tickets only."""
        if self.spec.requests is not None and not ticket:
            return at_start  # a warm-up request
        return self._tallies

    def _schedule(self) -> None:
        """Open loop: put the due time of each request on the queue, at the spec's rate."""
        assert self.spec.rate_per_s is not None
        start = time.perf_counter()
        for offset in arrival_offsets(self.spec.rate_per_s, self.spec.poisson):
            if self._stop.wait(max(0.0, start + offset - time.perf_counter())):
                return
            self._due.put(start + offset)

    # Control -------------------------------------------------------------------------------
    def _control(self) -> None:
        try:
            self._result = self._run()
        except BaseException as exc:  # reported by wait(); the thread itself must not die loudly
            self._failure = exc
        finally:
            self._stop.set()
            self._set_phase("done")
            self._finished.set()

    def _set_phase(self, phase: str) -> None:
        with self._lock:
            self._phase = phase

    def _run(self) -> RunResult:
        spec = self.spec
        if not getattr(self.target, "has_golden", False):
            self._set_phase("golden")
            cause = self._take_golden()
            if cause:  # no golden, nothing to check against: report the cause
                self._warmup.errors.add(cause)
                return self._finish(self._warmup, 0.0, [], None, None)
        self._set_phase("warmup")
        count = spec.concurrency
        self._workers = [
            threading.Thread(target=self._worker, name=f"load-worker-{k}", daemon=True) for k in range(count)
        ]
        if spec.rate_per_s is not None:
            self._workers.append(threading.Thread(target=self._schedule, name="load-schedule", daemon=True))
        for thread in self._workers:
            thread.start()
        self._stop.wait(spec.warmup_s)
        snapshots = [self._sample_server(keep=False)]  # the measured interval starts here
        measure = Tally()
        with self._lock:
            self._measure, self._window = measure, Tally()
            self._tallies = (measure, self._window)
            self._phase = "measuring"
        begun = time.perf_counter()
        self._measure_loop(begun, snapshots)
        duration = time.perf_counter() - begun
        self._tallies = (Tally(),)  # later completions are not measured
        self._set_phase("draining")
        self._join_workers()
        if spec.stability:
            last = self._window_tallies[-STABLE_WINDOWS:]
            merged = Tally()
            for tally in last:
                merged.merge(tally)
            recent = list(self._windows)[-len(last) :]
            measure, duration = merged, sum(w.duration_s for w in recent) or duration
            snapshots = snapshots[-len(last) - 1 :]
        return self._finish(measure, duration, list(self._windows), snapshots[0], snapshots[-1])

    def _take_golden(self) -> str:
        """Golden responses on a thread of their own, so that stop() is prompt here too; '' when taken."""
        outcome: list[str] = []

        def take() -> None:
            try:
                self.target.take_golden()
                outcome.append("")
            except Exception as exc:
                outcome.append(f"golden responses: {error_cause(exc)}")

        thread = threading.Thread(target=take, name="load-golden", daemon=True)
        thread.start()
        while thread.is_alive() and not self._stop.is_set():
            thread.join(0.05)
        return outcome[0] if outcome else "stopped while taking the golden responses"

    def _sample_server(self, keep: bool = True) -> ServerTotals | None:
        """Sample the monitor (kept for the result when `keep`); the statistics reading it ended on."""
        if self.monitor is None:
            return None
        sample = self.monitor.sample()
        if keep:
            with self._lock:
                self._samples.append(sample)
        return self.monitor.last_totals

    def _measure_loop(self, begun: float, snapshots: list[ServerTotals | None]) -> None:
        spec = self.spec
        end = None if spec.duration_s is None or spec.stability else begun + spec.duration_s
        window_start = begun
        while True:
            deadline = window_start + (spec.window_s if spec.window_requests is None else 1e9)
            if end is not None:
                deadline = min(deadline, end)
            stopped = self._wait_window(deadline)
            now = time.perf_counter()
            self._close_window(now - window_start)
            snapshots.append(self._sample_server())
            del snapshots[1 : -STABLE_WINDOWS - 1]  # keep the first and the last few only
            window_start = now
            if stopped or (end is not None and now >= end - 1e-3):
                return
            if spec.stability and (self._stable() or self._window_count >= MAX_WINDOWS):
                return

    def _wait_window(self, deadline: float) -> bool:
        """Sleep until the deadline; True when the run must end (stopped, or every request done)."""
        while True:
            remaining = deadline - time.perf_counter()
            if self._stop.wait(min(0.05, max(0.0, remaining))):
                return True
            if self.spec.requests is not None and self._all_counted():
                return True
            if remaining <= 0 or self._window_full():
                return False

    def _window_full(self) -> bool:
        """Count windows (perf_analyzer's count_windows mode): the window has its responses."""
        window, wanted = self._window, self.spec.window_requests
        return wanted is not None and window.completed + window.errors.total >= wanted

    def _all_counted(self) -> bool:
        measure = self._measure
        return measure is not None and measure.completed + measure.errors.total >= (self.spec.requests or 0)

    def _close_window(self, duration_s: float) -> None:
        with self._lock:
            closed, self._window = self._window, Tally()
            assert self._measure is not None
            self._tallies = (self._measure, self._window)
            self._windows.append(closed.window(self._window_count, duration_s))
            self._window_count += 1
            self._window_tallies = [*self._window_tallies[-STABLE_WINDOWS + 1 :], closed]

    def _stable(self) -> bool:
        return self._stable_windows(self._windows)

    def _stable_windows(self, windows: Sequence[WindowStats]) -> bool:
        return is_stable(
            [w.throughput for w in windows], [w.mean_ms for w in windows], self.spec.stability_tolerance
        )

    def _join_workers(self) -> None:
        grace = STOP_GRACE_S if self._stop.is_set() else DRAIN_S
        self._stop.set()
        deadline = time.perf_counter() + grace
        for thread in self._workers:
            thread.join(max(0.0, deadline - time.perf_counter()))

    def _finish(
        self, tally: Tally, duration: float, windows: Sequence[WindowStats], before: Any, after: Any
    ) -> RunResult:
        from scanner_app.load.server_stats import breakdown

        s = LatencySummary.of(tally.histogram)
        per = 1e6 / tally.completed if tally.completed else 0.0
        model = getattr(self.target, "model", "")
        server, models = breakdown(
            before, after, model, s.mean_ms * 1e3, tally.send_s * per, tally.recv_s * per
        )
        return RunResult(
            target=self.target.name, url=self.target.url, concurrency=self.spec.concurrency,
            completed=tally.completed, errors=tally.errors.snapshot(), mismatches=tally.mismatches,
            throughput=tally.completed / duration if duration > 0 else 0.0, mean_ms=s.mean_ms,
            p50_ms=s.p50_ms, p90_ms=s.p90_ms, p95_ms=s.p95_ms, p99_ms=s.p99_ms, duration_s=duration,
            stable=self._stable_windows(windows),
            windows=tuple(windows), server=server, rate_per_s=self.spec.rate_per_s, delayed=self._delayed,
            model=model, server_models=models, server_samples=tuple(self._samples),
        )  # fmt: skip
