"""Runs a SessionPlan on a worker thread: images, then per target its golden results and a sweep (no Qt).

Everything here blocks: the controller runs `StressSession.run` off the GUI thread; what happens
is handed to `post` as the events below. Each group of consecutive steps against one target is
one scanner_app.load.sweep.run_sweep, with one monitor sampled once per measured window.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from scanner_app.core.client.triton import ClientOptions, OcrClient
from scanner_app.core.errors import ScannerError
from scanner_app.load.engine import LoadRun, LoadSpec
from scanner_app.load.host_metrics import ProcessTreeCpu
from scanner_app.load.report import RunResult
from scanner_app.load.server_stats import Monitor, ProcessMonitor, ServerMonitor
from scanner_app.load.sweep import run_sweep
from scanner_app.load.targets import Target, make_target
from scanner_app.server.process import start_ready

from .images import LoadedImages, load_images
from .plan import RunStep, SessionPlan, run_label, server_tag

if TYPE_CHECKING:
    from scanner_app.baseline.launcher import BaselineProcess


def _start_baseline() -> BaselineProcess:
    """The serial baseline server on a free port, ready; BaselineStartError when it does not start."""
    from scanner_app.baseline.launcher import BaselineProcess  # Flask: only when a baseline run is asked for

    return start_ready(BaselineProcess())


@dataclass(frozen=True)
class Status:
    code: str  # images, baseline, golden, run
    detail: str


@dataclass(frozen=True)
class ImagesLoaded:
    images: LoadedImages


@dataclass(frozen=True)
class RunStarted:
    step: RunStep
    label: str
    run: LoadRun
    batching: frozenset[str]  # models with dynamic batching on


@dataclass(frozen=True)
class RunFinished:
    step: RunStep
    label: str
    result: RunResult
    stopped: bool
    batching: frozenset[str]
    config: str = ""  # the server's model config the run ran under ("dyn-batching off · 2 inst")


@dataclass(frozen=True)
class Failed:
    message: str


@dataclass(frozen=True)
class _Opened:
    target: Target
    monitor: Monitor | None
    tag: str  # the server's configuration for run labels ("dyn-batching off · 2 inst")
    batching: frozenset[str]


class StressSession:
    """One session: call `run()` on a worker thread, `stop()` from any thread."""

    def __init__(
        self,
        plan: SessionPlan,
        post: Callable[[object], Any],
        options: ClientOptions | None = None,
        *,
        start_baseline: Callable[[], BaselineProcess] = _start_baseline,
    ) -> None:
        self.plan = plan
        self.post = post
        self.options = options
        self._start_baseline = start_baseline
        self._cancel = threading.Event()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def stop(self) -> None:
        """Cooperative: the current run stops, no later step starts."""
        self._cancel.set()

    def run(self) -> None:
        """Blocking. Every failure ends up as a Failed event with a message naming the cause."""
        try:
            self._run_steps()
        except (ScannerError, OSError, ValueError, RuntimeError) as exc:
            self.post(Failed(str(exc) or type(exc).__name__))
        except Exception as exc:  # e.g. tritonclient's own exceptions from a model-level target
            self.post(Failed(f"{type(exc).__name__}: {exc}"))

    def _run_steps(self) -> None:
        self.post(Status("images", self.plan.images.describe()))
        images = load_images(self.plan.images)
        self.post(ImagesLoaded(images))
        for _, group in itertools.groupby(self.plan.steps, key=lambda step: step.target_key):
            steps = list(group)
            if self.cancelled:
                return
            with contextlib.ExitStack() as resources:  # the target, its monitor, its baseline server
                opened = self._open(steps[0], images, resources)
                if not self.cancelled:
                    self._sweep(steps, opened)

    def _open(self, step: RunStep, images: LoadedImages, resources: contextlib.ExitStack) -> _Opened:
        urls: tuple[str, ...] = step.urls
        tag, batching = "", frozenset[str]()
        monitor: Monitor | None = None
        if step.kind == "baseline" and not urls:
            self.post(Status("baseline", ""))
            process = self._start_baseline()
            resources.callback(process.stop)
            urls = (process.url,)
            if process.pid is not None:
                monitor = ProcessMonitor(process.pid, self._local_triton_trees())
        elif step.kind != "baseline":
            tag, batching = self._server_facts(urls[0])
            monitor = ServerMonitor(urls[0], self.plan.metrics_url, self.options)
            resources.callback(monitor.close)
        url: str | tuple[str, ...] = urls[0] if len(urls) == 1 else urls
        target = make_target(step.kind, url, list(images.data), self.options)
        resources.callback(target.close)
        if self.plan.golden and not self.cancelled:
            self.post(Status("golden", run_label(step.kind, 1)))
            target.take_golden()
        return _Opened(target, monitor, tag, batching)

    def _local_triton_trees(self) -> dict[str, ProcessTreeCpu]:
        """The plan's local Triton process tree, read beside the baseline (it should idle meanwhile)."""
        for step in self.plan.steps:
            if step.kind != "baseline" and step.urls:
                tree = ProcessTreeCpu.for_url(step.urls[0])
                return {"Triton": tree} if tree is not None else {}
        return {}

    def _server_facts(self, url: str) -> tuple[str, frozenset[str]]:
        """The label's server tag and the models with dynamic batching on."""
        try:
            with OcrClient(url, self.options) as client:
                models = client.connect().models
        except ScannerError:
            return "", frozenset()  # a detection/recognition target can run where the pipeline check fails
        return server_tag(models), frozenset(m.name for m in models if m.dynamic_batching)

    def _sweep(self, steps: list[RunStep], opened: _Opened) -> None:
        by_level = {step.concurrency: step for step in steps}
        labels = {n: run_label(step.kind, n, opened.tag) for n, step in by_level.items()}

        def started(run: LoadRun) -> None:
            step = by_level[run.spec.concurrency]
            self.post(Status("run", labels[step.concurrency]))
            self.post(RunStarted(step, labels[step.concurrency], run, opened.batching))

        def finished(result: RunResult) -> None:
            step = by_level[result.concurrency]
            label = labels[step.concurrency]
            self.post(RunFinished(step, label, result, self.cancelled, opened.batching, opened.tag))

        spec = LoadSpec(**asdict(self.plan.load))
        run_sweep(opened.target, list(by_level), spec, opened.monitor, finished, self._cancel, started)
