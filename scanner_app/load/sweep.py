"""A concurrency sweep: one LoadRun per level, in order, against the same target."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace

from scanner_app.load.engine import LoadRun, LoadSpec, RunResult
from scanner_app.load.server_stats import Monitor
from scanner_app.load.targets import Target

CANCEL_POLL_S = 0.1  # how soon a set `cancel` stops the level being measured


def run_sweep(
    target: Target,
    concurrencies: Sequence[int],
    spec: LoadSpec,
    monitor: Monitor | None = None,
    on_result: Callable[[RunResult], None] | None = None,
    cancel: threading.Event | None = None,
    on_start: Callable[[LoadRun], None] | None = None,
) -> list[RunResult]:
    """One run per concurrency level, in order (the golden responses are taken once, by the first).

    `on_start` gets each LoadRun once it runs (live views read run.live()); `on_result` each result.
    A set `cancel` stops the current level (its result so far is still reported) and starts no other.
    """
    results = []
    for level in concurrencies:
        if cancel is not None and cancel.is_set():
            break
        run = LoadRun(target, replace(spec, concurrency=level), monitor)
        run.start()
        if on_start is not None:
            on_start(run)
        while True:
            try:
                result = run.wait(CANCEL_POLL_S)
                break
            except TimeoutError:
                if cancel is not None and cancel.is_set():
                    run.stop()
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results
