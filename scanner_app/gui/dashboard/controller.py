"""Owns a stress session: the Session on a pool thread, a 5 Hz live timer, a 1 Hz server sampler.

Nothing here blocks the GUI thread: the session (images, golden results, LoadRuns) and every
ServerMonitor.sample() run on the controller's own QThreadPool; the timers only read LoadRun.live()
(a cheap snapshot) and emit points. Charts get points per timer tick, never per request.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal, Slot

from scanner_app.core.client import ClientOptions

from .images import LoadedImages
from .plan import RunStep, SessionPlan
from .records import RunRecord, ServerTotals
from .session import Session

LIVE_INTERVAL_MS = 200
SAMPLE_INTERVAL_MS = 1000


class _Job(QRunnable):
    def __init__(self, work: Callable[[], None]) -> None:
        super().__init__()
        self._work = work

    def run(self) -> None:
        self._work()


class _Bridge(QObject):
    """SessionEvents for the session thread: every callback becomes a signal (queued to the GUI)."""

    status = Signal(str, str)
    images = Signal(object)
    monitor = Signal(object)
    baseline_cpu = Signal(object)
    run_started = Signal(object, str, object, object)
    run_finished = Signal(object, str, object, bool)
    failed = Signal(str)

    def on_status(self, code: str, detail: str) -> None:
        _emit(self.status, code, detail)

    def on_images(self, images: LoadedImages) -> None:
        _emit(self.images, images)

    def on_monitor(self, monitor: Any) -> None:
        if not _emit(self.monitor, monitor):
            monitor.close()

    def on_baseline_cpu(self, watch: Any) -> None:
        _emit(self.baseline_cpu, watch)

    def on_run_started(self, step: RunStep, label: str, run: Any, batching: frozenset[str]) -> None:
        _emit(self.run_started, step, label, run, batching)

    def on_run_finished(self, step: RunStep, label: str, result: Any, stopped: bool) -> None:
        _emit(self.run_finished, step, label, result, stopped)

    def on_failed(self, message: str) -> None:
        _emit(self.failed, message)


def _emit(signal: Any, *args: Any) -> bool:
    """Emit from a worker thread; False when the receiving objects are already gone (app closing)."""
    try:
        signal.emit(*args)
    except RuntimeError:
        return False
    return True


class StressController(QObject):
    """Runs one session at a time. Signals carry plain data; widgets only render them."""

    status_changed = Signal(str, str)  # (code, detail): images, baseline, golden, run, stopping, idle
    images_loaded = Signal(object)  # LoadedImages
    run_started = Signal(str)  # label
    live_point = Signal(float, object)  # (seconds since the session began, LiveStats)
    server_point = Signal(float, object)  # (seconds, ServerSample)
    baseline_cpu_point = Signal(float, float)  # (seconds, % of all cores used by the baseline server)
    run_finished = Signal(object)  # RunRecord
    failed = Signal(str)
    session_finished = Signal(bool)  # True when stopped by the user

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(3)
        self._bridge = _Bridge(self)
        self._bridge.status.connect(self._on_status)
        self._bridge.images.connect(self.images_loaded)
        self._bridge.monitor.connect(self._on_monitor)
        self._bridge.baseline_cpu.connect(self._on_baseline_cpu)
        self._bridge.run_started.connect(self._on_run_started)
        self._bridge.run_finished.connect(self._on_run_finished)
        self._bridge.failed.connect(self.failed)
        self._done_signal = _Done(self)
        self._done_signal.done.connect(self._on_session_done)
        self._sampled = _Sampled(self)
        self._sampled.sample.connect(self._on_sample)
        self._session: Session | None = None
        self._run: Any = None
        self._totals = ServerTotals()
        self._batching: frozenset[str] = frozenset()
        self._run_is_triton = False
        self._monitor: Any = None
        self._cpu_watch: Any = None  # ProcessTreeCpu of a baseline server while one runs
        self._sampling = False
        self._t0 = time.perf_counter()
        self._live_timer = QTimer(self)
        self._live_timer.setInterval(LIVE_INTERVAL_MS)
        self._live_timer.timeout.connect(self._on_live_tick)
        self._sample_timer = QTimer(self)
        self._sample_timer.setInterval(SAMPLE_INTERVAL_MS)
        self._sample_timer.timeout.connect(self._on_sample_tick)

    @property
    def running(self) -> bool:
        return self._session is not None

    @property
    def current_run(self) -> Any:
        """The LoadRun being measured, or None."""
        return self._run

    def start(self, plan: SessionPlan, options: ClientOptions | None = None) -> None:
        """Begin a session; raises RuntimeError while one runs."""
        if self._session is not None:
            raise RuntimeError("a stress session is already running")
        session = Session(plan, self._bridge, options)
        self._session = session
        self._t0 = time.perf_counter()
        self._live_timer.start()
        self._sample_timer.start()

        def work() -> None:
            try:
                session.run()
            finally:
                _emit(self._done_signal.done, session.cancelled)

        self._pool.start(_Job(work))

    def stop(self) -> None:
        """Cooperative and non-blocking: the current run ends within about a second."""
        if self._session is not None:
            self._session.stop()
            self.status_changed.emit("stopping", "")

    def shutdown(self, timeout_ms: int = 10_000) -> None:
        """Stop and wait for the worker threads (app exit, tests)."""
        self.stop()
        self._live_timer.stop()
        self._sample_timer.stop()
        self._pool.waitForDone(timeout_ms)
        monitor, self._monitor = self._monitor, None
        if monitor is not None:
            monitor.close()

    # Session events (GUI thread) -----------------------------------------------------------------
    @Slot(str, str)
    def _on_status(self, code: str, detail: str) -> None:
        self.status_changed.emit(code, detail)

    @Slot(object)
    def _on_monitor(self, monitor: Any) -> None:
        self._close_monitor()
        self._monitor = monitor
        if self._session is None:  # the session ended before the monitor arrived
            self._close_monitor()

    @Slot(object)
    def _on_baseline_cpu(self, watch: Any) -> None:
        self._cpu_watch = watch

    @Slot(object, str, object, object)
    def _on_run_started(self, step: RunStep, label: str, run: Any, batching: frozenset[str]) -> None:
        self._run = run
        self._run_is_triton = step.kind != "baseline"  # the monitor watches Triton, not the baseline
        self._batching = batching
        self._totals = ServerTotals()
        self.run_started.emit(label)

    @Slot(object, str, object, bool)
    def _on_run_finished(self, step: RunStep, label: str, result: Any, stopped: bool) -> None:
        self._push_live(final=True)  # the run's last figures, even when the timer missed them
        self._run = None
        totals = self._totals
        record = RunRecord(
            label + (self.tr(" (stopped)") if stopped else ""), step, result,
            totals.summaries(getattr(result, "server_models", None)),
            totals.utilisation_kind, totals.mean_utilisation(), self._batching,
        )  # fmt: skip
        self.run_finished.emit(record)

    @Slot(bool)
    def _on_session_done(self, stopped: bool) -> None:
        self._session = None
        self._run = None
        self._cpu_watch = None
        self._live_timer.stop()
        self._sample_timer.stop()
        if not self._sampling:
            self._close_monitor()
        self.status_changed.emit("idle", "")
        self.session_finished.emit(stopped)

    # Timers (GUI thread) -----------------------------------------------------------------------
    @Slot()
    def _on_live_tick(self) -> None:
        self._push_live()

    def _push_live(self, final: bool = False) -> None:
        run = self._run
        if run is None:
            return
        stats = run.live()
        if stats.phase in ("warmup", "measuring", "draining") or (final and stats.phase == "done"):
            self.live_point.emit(time.perf_counter() - self._t0, stats)

    @Slot()
    def _on_sample_tick(self) -> None:
        monitor, watch = self._monitor, self._cpu_watch
        if (monitor is None and watch is None) or self._sampling:
            return
        self._sampling = True
        sampled = self._sampled

        def work() -> None:
            sample: Any = None
            try:
                sample = monitor.sample() if monitor is not None else None
            except Exception as exc:  # a server that went away: the run reports its errors itself
                sample = exc
            _emit(sampled.sample, (sample, watch.read() if watch is not None else None))

        self._pool.start(_Job(work))

    @Slot(object)
    def _on_sample(self, payload: tuple[Any, float | None]) -> None:
        sample, baseline_cpu = payload
        self._sampling = False
        if self._session is None:
            self._close_monitor()
        x = time.perf_counter() - self._t0
        run = self._run
        measuring = run is not None and run.live().phase == "measuring"
        if baseline_cpu is not None:
            if measuring and not self._run_is_triton:
                self._totals.add_utilisation("CPU", baseline_cpu)
            self.baseline_cpu_point.emit(x, baseline_cpu)
        if sample is None or isinstance(sample, Exception):
            return
        if measuring and self._run_is_triton:
            self._totals.add(sample)
        self.server_point.emit(x, sample)

    def _close_monitor(self) -> None:
        monitor, self._monitor = self._monitor, None
        if monitor is not None:
            self._pool.start(_Job(monitor.close))


class _Done(QObject):
    done = Signal(bool)


class _Sampled(QObject):
    sample = Signal(object)
