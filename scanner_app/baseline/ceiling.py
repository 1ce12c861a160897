"""The raw in-process ceiling: the same per-image work (decode + det + crops + rec + CTC) with no
server at all, in several thread/process layouts. The best layout is the honest ceiling a server
of these models can approach on this machine.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from scanner_app.baseline.engine import build_engine, recognize


@dataclass(frozen=True)
class Layout:
    """`workers` loops, each with its own engine of `threads`-thread sessions (0: ORT's default)."""

    name: str
    workers: int
    threads: int
    processes: bool = False


def default_layouts(cores: int | None = None) -> tuple[Layout, ...]:
    """One serial worker on ORT's default threading (the baseline without HTTP), and one worker of
    one-thread sessions per core, as threads and as processes."""
    cores = cores or os.cpu_count() or 1
    return (
        Layout("1 worker, ORT default threads", 1, 0),
        Layout(f"{cores} threads x 1-thread sessions", cores, 1),
        Layout(f"{cores} processes x 1-thread sessions", cores, 1, processes=True),
    )


@dataclass(frozen=True)
class CeilingResult:
    layout: Layout
    images_per_s: float
    completed: int
    cpu_s_per_image: float  # CPU time the workers used per image (robust to a busy machine)


def _loop(
    repository: Path, images: Sequence[bytes], threads: int, k: int, seconds: float, start: object
) -> tuple[int, float, float]:
    """Warm on every image once, wait at `start` (a barrier), then read images k, k+1, ... for
    `seconds`; (completed, seconds from the start to the last completion, CPU seconds used)."""
    engine = build_engine(repository, threads)
    for data in images:
        recognize(engine, data)
    # One-thread sessions run in the calling thread; pool threads only show in the process's time.
    clock = time.thread_time if threads == 1 else time.process_time
    start.wait()  # type: ignore[attr-defined]
    begun, cpu = time.perf_counter(), clock()
    done, last, i = 0, 0.0, k
    while time.perf_counter() - begun < seconds:
        recognize(engine, images[i % len(images)])
        done, last, i = done + 1, time.perf_counter() - begun, i + 1
    return done, last, clock() - cpu


def _process_loop(queue: object, *args: object) -> None:
    queue.put(_loop(*args))  # type: ignore[attr-defined, arg-type]


def measure_layout(
    repository: Path, images: Sequence[bytes], layout: Layout, seconds: float
) -> CeilingResult:
    """Images/s of one layout: the sum over workers of completed / time to the last completion."""
    if layout.processes:
        context = multiprocessing.get_context("spawn")  # fresh interpreters: no ORT state forked
        between, queue = context.Barrier(layout.workers), context.Queue()
        procs = [
            context.Process(
                target=_process_loop,
                args=(queue, repository, list(images), layout.threads, k, seconds, between),
            )
            for k in range(layout.workers)
        ]
        for proc in procs:
            proc.start()
        try:
            results = [queue.get(timeout=seconds + 600) for _ in procs]
        finally:
            for proc in procs:
                proc.join(10)
                if proc.is_alive():
                    proc.kill()
    else:
        barrier = threading.Barrier(layout.workers)
        results = [(0, 0.0, 0.0)] * layout.workers

        def work(k: int) -> None:
            results[k] = _loop(repository, images, layout.threads, k, seconds, barrier)

        workers = [threading.Thread(target=work, args=(k,)) for k in range(layout.workers)]
        for thread in workers:
            thread.start()
        for thread in workers:
            thread.join()
    rate = sum(done / last for done, last, _ in results if done and last > 0)
    completed = sum(done for done, _, _ in results)
    cpu = sum(cpu for _, _, cpu in results) / completed if completed else 0.0
    return CeilingResult(layout, rate, completed, cpu)


def ceiling(
    repository: Path, images: Sequence[bytes], seconds: float, layouts: Sequence[Layout] | None = None
) -> list[CeilingResult]:
    """Every layout measured in turn; max(..., key=images_per_s) is the ceiling."""
    return [measure_layout(repository, images, layout, seconds) for layout in layouts or default_layouts()]
