"""Runs a SessionPlan on a worker thread: images, targets, golden results, one LoadRun per step (no Qt).

Everything here blocks; the Qt controller calls `Session.run` on a pool thread and receives events
through the SessionEvents callbacks (it turns them into queued signals).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from scanner_app.core.client import ClientOptions, OcrClient
from scanner_app.core.errors import ScannerError
from scanner_app.load.engine import LoadRun, LoadSpec
from scanner_app.load.host_metrics import ProcessTreeCpu
from scanner_app.load.server_stats import ServerMonitor
from scanner_app.load.targets import make_target

from .images import LoadedImages, load_images
from .plan import RunStep, SessionPlan, run_label, server_tag


class SessionEvents(Protocol):
    """Callbacks, called on the session's thread. Status codes: images, baseline, golden, run."""

    def on_status(self, code: str, detail: str) -> None: ...
    def on_images(self, images: LoadedImages) -> None: ...
    def on_monitor(self, monitor: ServerMonitor) -> None: ...  # the receiver owns and closes it
    def on_baseline_cpu(self, watch: ProcessTreeCpu | None) -> None: ...  # the baseline server's CPU use
    def on_run_started(self, step: RunStep, label: str, run: LoadRun, batching: frozenset[str]) -> None: ...
    def on_run_finished(self, step: RunStep, label: str, result: Any, stopped: bool) -> None: ...
    def on_failed(self, message: str) -> None: ...


def _start_baseline() -> Any:
    """The serial baseline server (CONTRACTS G) on a free port; RuntimeError when it does not start."""
    from scanner_app.baseline.launcher import BaselineProcess  # only when a baseline run is asked for

    process = BaselineProcess()
    process.start()
    try:
        process.wait_ready()
    except BaseException:
        process.stop()
        raise
    return process


@dataclass(frozen=True)
class _OpenTarget:
    target: Any
    tag: str  # the server's configuration for run labels ("dyn-batching off · 2 inst")
    batching: frozenset[str]  # models with dynamic batching on
    resources: contextlib.ExitStack  # closes the target (and a baseline server started for it)


class Session:
    """One session: call `run()` on a worker thread, `stop()` from any thread."""

    def __init__(
        self,
        plan: SessionPlan,
        events: SessionEvents,
        options: ClientOptions | None = None,
        *,
        start_baseline: Callable[[], Any] = _start_baseline,
    ) -> None:
        self.plan = plan
        self.events = events
        self.options = options
        self._start_baseline = start_baseline
        self._cancel = threading.Event()
        self._lock = threading.Lock()
        self._run: LoadRun | None = None

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def stop(self) -> None:
        """Cooperative: the current run stops, no later step starts."""
        self._cancel.set()
        with self._lock:
            run = self._run
        if run is not None:
            run.stop()

    def run(self) -> None:
        """Blocking. Every failure ends up in events.on_failed with a message naming the cause."""
        try:
            with contextlib.ExitStack() as stack:
                self._run_steps(stack)
        except (ScannerError, OSError, ValueError, RuntimeError) as exc:
            self.events.on_failed(str(exc) or type(exc).__name__)
        except Exception as exc:  # e.g. tritonclient's own exceptions from a model-level target
            self.events.on_failed(f"{type(exc).__name__}: {exc}")

    def _run_steps(self, stack: contextlib.ExitStack) -> None:
        self.events.on_status("images", self.plan.images.describe())
        images = load_images(self.plan.images)
        self.events.on_images(images)
        if self.plan.monitor_url and not self.cancelled:
            self.events.on_monitor(ServerMonitor(self.plan.monitor_url, self.plan.metrics_url, self.options))
        last_use = {step.target_key: i for i, step in enumerate(self.plan.steps)}
        opened: dict[tuple[str, tuple[str, ...]], _OpenTarget] = {}
        for index, step in enumerate(self.plan.steps):
            if self.cancelled:
                break
            if step.target_key not in opened:
                opened[step.target_key] = self._open_target(step, images, stack)
            opening = opened[step.target_key]
            if self.cancelled:
                break
            label = run_label(step.kind, step.concurrency, opening.tag)
            self._measure(step, opening.target, label, opening.batching)
            if last_use[step.target_key] == index:
                opening.resources.close()  # the target (and its baseline server) is not needed any more

    def _open_target(self, step: RunStep, images: LoadedImages, stack: contextlib.ExitStack) -> _OpenTarget:
        resources = stack.enter_context(contextlib.ExitStack())
        urls: tuple[str, ...] = step.urls
        facts: tuple[str, frozenset[str]] = ("", frozenset())
        if step.kind == "baseline" and not urls:
            self.events.on_status("baseline", "")
            process = self._start_baseline()
            resources.callback(process.stop)
            urls = (process.url,)
            if process.pid is not None:
                self.events.on_baseline_cpu(ProcessTreeCpu(process.pid))
                resources.callback(self.events.on_baseline_cpu, None)
        elif step.kind != "baseline":
            facts = self._server_facts(urls[0])
        url: str | tuple[str, ...] = urls[0] if len(urls) == 1 else urls
        target = make_target(step.kind, url, list(images.data), self.options)
        resources.callback(target.close)
        if self.plan.golden and not self.cancelled:
            self.events.on_status("golden", run_label(step.kind, 1))
            target.take_golden()
        return _OpenTarget(target, facts[0], facts[1], resources)

    def _server_facts(self, url: str) -> tuple[str, frozenset[str]]:
        """The label's server tag and the models with dynamic batching on."""
        try:
            with OcrClient(url, self.options) as client:
                models = client.connect().models
        except ScannerError:
            return "", frozenset()  # a detection/recognition target can run where the pipeline check fails
        return server_tag(models), frozenset(m.name for m in models if m.dynamic_batching)

    def _measure(self, step: RunStep, target: Any, label: str, batching: frozenset[str]) -> None:
        spec = LoadSpec(concurrency=step.concurrency, **asdict(self.plan.load))
        monitor = None
        if step.kind != "baseline":
            monitor = ServerMonitor(step.urls[0], self.plan.metrics_url, self.options)
        try:
            run = LoadRun(target, spec, monitor)
            with self._lock:
                self._run = run
            if self.cancelled:
                return
            self.events.on_status("run", label)
            run.start()
            self.events.on_run_started(step, label, run, batching)
            result = run.wait()
            self.events.on_run_finished(step, label, result, self.cancelled)
        finally:
            with self._lock:
                self._run = None
            if monitor is not None:
                monitor.close()
