"""A concurrency sweep: one LoadRun per level, in order, against the same target."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace

from scanner_app.load.engine import LoadRun, LoadSpec, RunResult
from scanner_app.load.server_stats import ServerMonitor
from scanner_app.load.targets import Target


def run_sweep(
    target: Target,
    concurrencies: Sequence[int],
    spec: LoadSpec,
    monitor: ServerMonitor | None = None,
    on_result: Callable[[RunResult], None] | None = None,
    cancel: threading.Event | None = None,
) -> list[RunResult]:
    """One run per concurrency level, in order (the golden responses are taken once, by the first)."""
    results = []
    for level in concurrencies:
        if cancel is not None and cancel.is_set():
            break
        run = LoadRun(target, replace(spec, concurrency=level), monitor)
        run.start()
        while True:
            try:
                result = run.wait(0.1)
                break
            except TimeoutError:
                if cancel is not None and cancel.is_set():
                    run.stop()
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results
