"""Owns a stress session: the StressSession off the GUI thread, a 5 Hz timer that reads the run.

The session runs through the app's one worker mechanism (scanner_app.gui.background); its events
come back through a Background relay. The timer only reads LoadRun.live() (a cheap snapshot): the
run's throughput and latency, and the server samples the run took once per measured window.
Charts get points per timer tick, never per request.
"""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from scanner_app.core.client.triton import ClientOptions
from scanner_app.gui.background import Background

from .plan import SessionPlan
from .records import RunRecord
from .session import Failed, ImagesLoaded, RunFinished, RunStarted, Status, StressSession

LIVE_INTERVAL_MS = 200


class StressController(QObject):
    """Runs one session at a time. Signals carry plain data; widgets only render them."""

    status_changed = Signal(str, str)  # (code, detail): images, baseline, golden, run, stopping, idle
    images_loaded = Signal(object)  # LoadedImages
    run_started = Signal(str)  # label
    live_point = Signal(float, object)  # (seconds since the session began, LiveStats)
    server_point = Signal(float, object, str)  # (seconds, ServerSample, "Triton" | "baseline")
    run_finished = Signal(object)  # RunRecord
    failed = Signal(str)
    session_finished = Signal(bool)  # True when stopped by the user

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._background = Background(self, threads=1)
        self._post = self._background.relay(self._on_events)
        self._session: StressSession | None = None
        self._run: Any = None  # the LoadRun being measured
        self._server = "Triton"
        self._kind = ""  # the step kind of the run being measured ("baseline", "pipeline", ...)
        self._last_sample = 0.0  # ServerSample.time of the last one plotted
        self._t0 = time.perf_counter()
        self._live_timer = QTimer(self)
        self._live_timer.setInterval(LIVE_INTERVAL_MS)
        self._live_timer.timeout.connect(self._push_live)

    @property
    def running(self) -> bool:
        return self._session is not None

    def elapsed_s(self) -> float:
        """Seconds since the session began (the charts' x)."""
        return time.perf_counter() - self._t0

    @property
    def current_kind(self) -> str:
        """The step kind of the latest run started ("baseline", "pipeline", ...)."""
        return self._kind

    @property
    def current_run(self) -> Any:
        """The LoadRun being measured, or None."""
        return self._run

    def start(self, plan: SessionPlan, options: ClientOptions | None = None) -> None:
        """Begin a session; raises RuntimeError while one runs."""
        if self._session is not None:
            raise RuntimeError("a stress session is already running")
        session = StressSession(plan, self._post, options)
        self._session = session
        self._t0 = time.perf_counter()
        self._live_timer.start()
        self._background.run(session.run, lambda _result, _error: self._on_session_done(session))

    def stop(self) -> None:
        """Cooperative and non-blocking: the current run ends within about a second."""
        if self._session is not None:
            self._session.stop()
            self.status_changed.emit("stopping", "")

    def shutdown(self, timeout_ms: int = 10_000) -> None:
        """Stop and wait for the session's thread (app exit, tests)."""
        self.stop()
        self._live_timer.stop()
        self._background.wait(timeout_ms)

    # Session events (GUI thread) -----------------------------------------------------------------
    def _on_events(self, events: list[object]) -> None:
        for event in events:
            if isinstance(event, Status):
                self.status_changed.emit(event.code, event.detail)
            elif isinstance(event, ImagesLoaded):
                self.images_loaded.emit(event.images)
            elif isinstance(event, RunStarted):
                self._run, self._last_sample = event.run, 0.0
                self._server = "baseline" if event.step.kind == "baseline" else "Triton"
                self._kind = event.step.kind
                self.run_started.emit(event.label)
            elif isinstance(event, RunFinished):
                self._push_live(final=True)  # the run's last figures, even when the timer missed them
                self._run = None
                label = event.label + (self.tr(" (stopped)") if event.stopped else "")
                record = RunRecord(label, event.step, event.result, event.batching, event.config)
                self.run_finished.emit(record)
            elif isinstance(event, Failed):
                self.failed.emit(event.message)

    def _on_session_done(self, session: StressSession) -> None:
        self._session = None
        self._run = None
        self._live_timer.stop()
        self.status_changed.emit("idle", "")
        self.session_finished.emit(session.cancelled)

    # Timer (GUI thread) ------------------------------------------------------------------------
    def _push_live(self, final: bool = False) -> None:
        run = self._run
        if run is None:
            return
        stats = run.live()
        x = time.perf_counter() - self._t0
        if stats.phase in ("warmup", "measuring", "draining") or (final and stats.phase == "done"):
            self.live_point.emit(x, stats)
        for sample in stats.server_samples:
            if sample.time > self._last_sample:
                self._last_sample = sample.time
                self.server_point.emit(x, sample, self._server)
