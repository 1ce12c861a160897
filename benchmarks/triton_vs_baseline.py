"""Triton against the serial Flask baseline and the raw in-process ceiling, on the same models.

Usage: python benchmarks/triton_vs_baseline.py [--data ../shared/data/sroie] [--images N]
       [--duration 30] [--concurrency 16] [--warmup 15] [--rounds 1] [--repository DIR]

One command starts both servers itself: the embedded Triton (configs/local.pbtxt) and the
baseline (`scanner-app serve --baseline`: one Flask process, one request at a time, the same OCR
code and ONNX models in-process, ONNX Runtime's default threading). The load engine drives both
at the same concurrency with the same images (closed loop, golden responses checked), then the
same per-image work (decode + det + crops + rec + CTC) runs with no server at all in each thread
and process layout; the best of them is the ceiling. Printed: images/s of each, the ratios
Triton / baseline (goal >= 1.25) and Triton / best raw (goal >= 0.90) with PASS/FAIL, and the
average batch each Triton model executed. "CPU s/im" is the CPU time the server's process tree
(or the raw workers) used per image while measured: on a busy shared machine the throughput of a
side grows with its number of runnable threads, its CPU cost per image does not.
Exit status 0 when both goals hold, 1 otherwise.
Uses the SROIE receipts in ../shared/data/sroie/img when present, rendered receipts otherwise.
With --rounds > 1 the three are measured in alternating order each round and the median ratio
is reported as well: the figures of one round are noisy on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from scanner_app.baseline.ceiling import CeilingResult, ceiling
from scanner_app.baseline.launcher import BaselineProcess
from scanner_app.load.engine import LoadRun, LoadSpec, RunResult
from scanner_app.load.host_metrics import tree_cpu_ticks
from scanner_app.load.server_stats import ServerMonitor
from scanner_app.load.targets import make_target, sample_images
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.model_fetch import default_repository, placed_model_set

ROOT = Path(__file__).resolve().parents[1]
GOAL_VS_BASELINE = 1.25
GOAL_VS_CEILING = 0.90
DISAGREE = 1.2  # rounds whose Triton / baseline ratios differ more than this are flagged


@dataclass(frozen=True)
class Measured:
    """A load run and the CPU seconds its server's process tree used per image while measured."""

    result: RunResult
    cpu_s_per_image: float | None


@dataclass(frozen=True)
class Round:
    triton: Measured
    baseline: Measured
    raw: list[CeilingResult]

    @property
    def best_raw(self) -> CeilingResult:
        return max(self.raw, key=lambda r: r.images_per_s)

    @property
    def vs_baseline(self) -> float:
        triton, baseline = self.triton.result.throughput, self.baseline.result.throughput
        return triton / baseline if baseline else 0.0

    @property
    def vs_ceiling(self) -> float:
        best = self.best_raw.images_per_s
        return self.triton.result.throughput / best if best else 0.0


def load_inputs(data: Path, count: int | None) -> tuple[list[bytes], str]:
    """The receipts in data/img (at most `count`), or `count` (default 8) rendered receipts."""
    files = sorted((data / "img").glob("*.jpg"))[:count] if count else sorted((data / "img").glob("*.jpg"))
    if files:
        return [p.read_bytes() for p in files], f"{len(files)} SROIE receipts from {data / 'img'}"
    images = sample_images(count or 8)
    return images, f"{len(images)} rendered receipts ({data / 'img'} has none)"


def drive(
    target_kind: str,
    url: str,
    images: list[bytes],
    spec: LoadSpec,
    pid: int | None,
    monitor: ServerMonitor | None = None,
) -> Measured:
    """Golden responses at concurrency 1, then the closed-loop run of `spec`; the CPU time of the
    process tree of `pid` is read when the measurement starts and when it ends."""
    target = make_target(target_kind, url, images)
    try:
        target.take_golden()
        run = LoadRun(target, spec, monitor)
        run.start()
        ticks: list[int | None] = []
        while not run.done and len(ticks) < 2:
            measuring = run.live().phase == "measuring"
            if measuring != (len(ticks) == 1):  # the phase just started (or ended)
                ticks.append(tree_cpu_ticks(pid) if pid else None)
            time.sleep(0.05)
        result = run.wait()
    finally:
        target.close()
    cpu = None
    if len(ticks) == 2 and None not in ticks and result.completed:
        cpu = (ticks[1] - ticks[0]) / os.sysconf("SC_CLK_TCK") / result.completed  # type: ignore[operator]
    return Measured(result, cpu)


def same_texts(triton_url: str, baseline_url: str, images: list[bytes]) -> int:
    """How many images the two servers read alike: same texts and image size, boxes within 3 px."""
    triton = make_target("pipeline", triton_url, images)
    baseline = make_target("baseline", baseline_url, images)
    try:
        triton.take_golden()
        return sum(bool(triton.check(i, _page(baseline.send(i)))) for i in range(len(images)))
    finally:
        triton.close()
        baseline.close()


def _page(response: object) -> object:
    return getattr(response, "value", response)


def run_round(
    k: int, server: EmbeddedServer, baseline: BaselineProcess, images: list[bytes], args: argparse.Namespace
) -> Round:
    spec = LoadSpec(concurrency=args.concurrency, duration_s=args.duration, warmup_s=args.warmup)
    measured: dict[str, object] = {}

    def triton() -> None:
        monitor = ServerMonitor(server.grpc_url, server.metrics_url)
        try:
            measured["triton"] = drive("pipeline", server.grpc_url, images, spec, server.pid, monitor)
        finally:
            monitor.close()

    def serial() -> None:
        measured["baseline"] = drive("baseline", baseline.url, images, spec, baseline.pid)

    def raw() -> None:
        measured["raw"] = ceiling(args.repository, images, args.duration)

    steps = [("Triton", triton), ("baseline", serial), ("raw in-process", raw)]
    for name, step in steps if k % 2 == 0 else steps[::-1]:
        print(f"  round {k + 1}: measuring {name} ...", flush=True)
        step()
    return Round(measured["triton"], measured["baseline"], measured["raw"])  # type: ignore[arg-type]


def _row(label: str, images_per_s: float, cpu: float | None, result: RunResult | None = None) -> str:
    cpu_text = f"{cpu:8.2f}" if cpu else f"{'n/a':>8s}"
    if result is None:
        return f"{label:52s} {images_per_s:9.3f} {cpu_text}"
    errors = sum(result.errors.values())
    return (
        f"{label:52s} {images_per_s:9.3f} {cpu_text} {result.p50_ms:9.0f} {result.p99_ms:9.0f} "
        f"{result.completed:6d} {errors:6d} {result.mismatches:6d}"
    )


def report(rounds: list[Round], args: argparse.Namespace) -> bool:
    print()
    print(f"{'concurrency ' + str(args.concurrency):52s} {'images/s':>9s} {'CPU s/im':>8s} {'p50 ms':>9s} "
          f"{'p99 ms':>9s} {'done':>6s} {'errors':>6s} {'differ':>6s}")  # fmt: skip
    for k, r in enumerate(rounds, 1):
        t, b = r.triton, r.baseline
        print(_row(f"[{k}] Triton (embedded, gRPC)", t.result.throughput, t.cpu_s_per_image, t.result))
        print(_row(f"[{k}] baseline (Flask, serial, HTTP)", b.result.throughput, b.cpu_s_per_image, b.result))
        for raw in r.raw:
            print(_row(f"[{k}] raw in-process: {raw.layout.name}", raw.images_per_s, raw.cpu_s_per_image))
        models = sorted(t.result.server_models.items())
        batches = ", ".join(f"{name} {m['avg_batch']:.2f}" for name, m in models if "avg_batch" in m)
        print(f"[{k}] Triton average executed batch: {batches or 'n/a'}")
        for side in (t.result, b.result):
            for cause, count in side.errors.items():
                print(f"[{k}] {side.target} error x{count}: {cause}")
    vs_baseline = statistics.median(r.vs_baseline for r in rounds)
    vs_ceiling = statistics.median(r.vs_ceiling for r in rounds)
    label = "median of rounds" if len(rounds) > 1 else "this run"
    best = rounds[-1].best_raw.layout.name
    ok_baseline, ok_ceiling = vs_baseline >= GOAL_VS_BASELINE, vs_ceiling >= GOAL_VS_CEILING
    print()
    if len(rounds) > 1:
        print("per round, Triton / baseline: " + ", ".join(f"{r.vs_baseline:.2f}" for r in rounds))
        print("per round, Triton / best raw: " + ", ".join(f"{r.vs_ceiling:.2f}" for r in rounds))
        spread = max(r.vs_baseline for r in rounds) / max(min(r.vs_baseline for r in rounds), 1e-9)
        if spread > DISAGREE:
            print(f"WARNING: the rounds disagree ({spread:.1f}x): the load changed while measuring. "
                  "A busy machine favours the side with more threads; rerun on a quiet machine.")  # fmt: skip
    print(f"ratio Triton / baseline ({label}, goal >= {GOAL_VS_BASELINE:.2f}): "
          f"{vs_baseline:.2f}  {'PASS' if ok_baseline else 'FAIL'}")  # fmt: skip
    print(f"ratio Triton / best raw in-process ({label}, goal >= {GOAL_VS_CEILING:.2f}): "
          f"{vs_ceiling:.2f}  {'PASS' if ok_ceiling else 'FAIL'}   (best: {best})")  # fmt: skip
    load = os.getloadavg()
    print(f"cpu count {os.cpu_count()}; load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; no GPU used")
    return ok_baseline and ok_ceiling


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "sroie")
    parser.add_argument("--images", type=int, default=None, help="at most this many images (default: all)")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds of each run")
    parser.add_argument("--warmup", type=float, default=15.0, help="unmeasured seconds before each run")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--repository", type=Path, help="model repository (default: the project's)")
    args = parser.parse_args(argv)
    args.repository = (args.repository or default_repository()).absolute()

    images, what = load_inputs(args.data, args.images)
    set_name = (placed_model_set(args.repository) or {}).get("set", "?")
    print(f"model set {set_name}; {what}; concurrency {args.concurrency}; {args.duration:.0f} s per run")
    with (
        EmbeddedServer(args.repository, grpc_port=0, http_port=0, metrics_port=0) as server,
        BaselineProcess(repository=args.repository) as baseline,
    ):
        print(f"Triton on {server.grpc_url} (pid {server.pid}); "
              f"baseline on {baseline.url} (pid {baseline.pid})")  # fmt: skip
        same = same_texts(server.grpc_url, baseline.url, images)
        print(f"same lines from both servers (texts, boxes within 3 px): {same} of {len(images)} images")
        rounds = [run_round(k, server, baseline, images, args) for k in range(args.rounds)]
    return 0 if report(rounds, args) else 1


if __name__ == "__main__":
    sys.exit(main())
