"""`scanner-app bench`: load the server like perf_analyzer does; a table, perf_analyzer's CSV, JSON.

Each concurrency level is a run of the load engine (scanner_app.load): golden responses at
concurrency 1, a warm-up, measured windows; every response is checked. With --baseline the same
levels run against the baseline server and the speed-up per level is printed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from scanner_app.core.client.triton import ClientOptions
from scanner_app.core.errors import ScannerError
from scanner_app.load.engine import LoadSpec
from scanner_app.load.report import RunResult, speedup, write_perf_csv
from scanner_app.load.server_stats import ServerMonitor
from scanner_app.load.sweep import run_sweep
from scanner_app.load.targets import images_from, make_target, sample_images

TARGETS = ("pipeline", "detection", "recognition")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench", help="measure throughput and latency under load (perf_analyzer-style)"
    )
    parser.add_argument(
        "--server", action="append", metavar="HOST:PORT", help="Triton gRPC (default: embedded)"
    )
    parser.add_argument("--metrics", metavar="URL", help="Triton's metrics page (default: HOST:8002/metrics)")
    parser.add_argument("--baseline", metavar="URL", help="also run against this baseline server")
    parser.add_argument(
        "--target", choices=TARGETS, default="pipeline", help="what to load (default pipeline)"
    )
    parser.add_argument("--concurrency", default="1,4,16", help="levels, comma separated (default 1,4,16)")
    parser.add_argument(
        "--duration", type=float, default=20.0, help="seconds measured per level (default 20)"
    )
    parser.add_argument("--requests", type=int, metavar="N", help="measure N requests per level instead")
    parser.add_argument("--rate", type=float, metavar="R", help="send R requests/s (open loop) instead")
    parser.add_argument("--poisson", action="store_true", help="with --rate: Poisson arrivals")
    parser.add_argument("--stability", action="store_true", help="perf_analyzer's rule: stop when stable")
    parser.add_argument("--warmup", type=float, default=2.0, help="warm-up seconds per level (default 2)")
    parser.add_argument("--window", type=float, default=2.0, help="measurement window seconds (default 2)")
    parser.add_argument("--images", type=Path, metavar="DIR", help="inputs (default: 8 rendered receipts)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per request (default 120)")
    parser.add_argument("--csv", type=Path, metavar="FILE", help="perf_analyzer's CSV layout (microseconds)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="every result as JSON")


def levels(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise SystemExit(
            f"scanner-app bench: --concurrency takes numbers like 1,4,16, not {text!r}"
        ) from None
    if not values or min(values) < 1:
        raise SystemExit("scanner-app bench: --concurrency needs levels >= 1")
    return values


@contextlib.contextmanager
def servers(args: argparse.Namespace) -> Iterator[tuple[list[str], str | None]]:
    """The given servers and metrics page, or an embedded server started for the command."""
    if args.server:
        host = args.server[0].rsplit(":", 1)[0]
        yield args.server, args.metrics or f"http://{host}:8002/metrics"
        return
    from scanner_app.server.embedded import EmbeddedServer
    from scanner_app.server.model_fetch import default_repository

    print("No --server given: starting the embedded Triton server on 127.0.0.1 ...", file=sys.stderr)
    with EmbeddedServer(default_repository(), grpc_port=0, http_port=0, metrics_port=0) as embedded:
        embedded.wait_ready()
        print(f"Benchmarking the embedded server at {embedded.grpc_url}", file=sys.stderr)
        yield [embedded.grpc_url], embedded.metrics_url


def _images(args: argparse.Namespace) -> list[bytes]:
    if args.images is None:
        return sample_images(8)
    found = images_from(args.images)
    for path, cause in found.skipped:
        print(f"  skipped: {path}: {cause}", file=sys.stderr)
    if not found.data:
        raise SystemExit(f"scanner-app bench: no readable image in {args.images}")
    return list(found.data)


HEADER = (
    f"{'conc':>5} {'infer/s':>9} {'mean ms':>9} {'p50':>9} {'p90':>9} {'p95':>9} {'p99':>9} "
    f"{'queue ms':>9} {'compute':>9} {'errors':>7} {'mismatch':>8} {'stable':>6}  batch (model: avg)"
)


def row(result: RunResult) -> str:
    server = result.server or {}
    compute = sum(server.get(k, 0.0) for k in ("compute_input", "compute_infer", "compute_output")) / 1e3
    batches = ", ".join(f"{m}: {v['avg_batch']:.2f}" for m, v in result.server_models.items())
    level = f"{result.rate_per_s:g}/s" if result.rate_per_s else str(result.concurrency)
    latencies = " ".join(f"{ms:9.1f}" for ms in (result.mean_ms, result.p50_ms, result.p90_ms, result.p95_ms))
    return (
        f"{level:>5} {result.throughput:9.2f} {latencies} {result.p99_ms:9.1f} "
        f"{server.get('queue', 0.0) / 1e3:9.1f} {compute:9.1f} "
        f"{result.error_count:7d} {result.mismatches:8d} {'yes' if result.stable else 'no':>6}  {batches}"
    )


def _sweep(target_kind: str, urls: list[str], images: list[bytes], args: argparse.Namespace, spec: LoadSpec,
           metrics: str | None, title: str) -> list[RunResult]:  # fmt: skip
    options = ClientOptions(timeout_s=args.timeout, retries=0)
    monitor = ServerMonitor(urls[0], metrics, options) if target_kind != "baseline" else None
    target = make_target(target_kind, urls if target_kind == "pipeline" else urls[0], images, options)
    print(f"\n{title}\n{HEADER}", flush=True)
    results: list[RunResult] = []

    def show(result: RunResult) -> None:
        results.append(result)
        print(row(result), flush=True)
        for cause, count in result.errors.items():
            print(f"      {count} x {cause}", flush=True)

    try:
        run_sweep(target, levels(args.concurrency), spec, monitor, on_result=show, cancel=threading.Event())
    finally:
        target.close()
        if monitor is not None:
            monitor.close()
    return results


def run(args: argparse.Namespace) -> int:
    spec = LoadSpec(
        duration_s=None if args.requests else args.duration, requests=args.requests, rate_per_s=args.rate,
        poisson=args.poisson, warmup_s=args.warmup, window_s=args.window, stability=args.stability,
    )  # fmt: skip
    levels(args.concurrency)  # fail before starting anything
    if args.baseline and args.target != "pipeline":
        raise SystemExit("scanner-app bench: --baseline compares the whole pipeline; use --target pipeline")
    images = _images(args)
    try:
        with servers(args) as (urls, metrics):
            where = ", ".join(urls)
            title = f"Triton {where}: {args.target}, {len(images)} inputs, {_describe(spec)}"
            results = _sweep(args.target, urls, images, args, spec, metrics, title)
        baseline: list[RunResult] = []
        if args.baseline:
            title = f"Baseline {args.baseline}: whole pipeline, same inputs and levels"
            baseline = _sweep("baseline", [args.baseline], images, args, spec, None, title)
            _print_speedup(results, baseline)
    except (ScannerError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    _write(args, results, baseline)
    bad = sum(r.mismatches for r in [*results, *baseline])
    if bad:
        print(f"{bad} responses differed from their golden result", file=sys.stderr)
    return 1 if bad or any(r.completed == 0 for r in [*results, *baseline]) else 0


def _describe(spec: LoadSpec) -> str:
    mode = (
        f"{spec.rate_per_s:g} requests/s{' (Poisson)' if spec.poisson else ''}"
        if spec.rate_per_s
        else "closed loop"
    )
    bound = f"{spec.requests} requests" if spec.requests else f"{spec.duration_s:g} s"
    if spec.stability:
        bound = f"until stable ({spec.window_s:g} s windows)"
    return f"{mode}, {bound} per level after {spec.warmup_s:g} s warm-up"


def _print_speedup(results: list[RunResult], baseline: list[RunResult]) -> None:
    print("\nspeed-up Triton / baseline (throughput)")
    for ours, theirs in zip(results, baseline, strict=False):
        ratio = speedup(ours, theirs)
        pair = f"{ours.throughput:8.2f} / {theirs.throughput:8.2f}"
        print(f"  concurrency {ours.concurrency:>3}: {pair} = {'n/a' if ratio is None else f'{ratio:.2f}x'}")


def _write(args: argparse.Namespace, results: list[RunResult], baseline: list[RunResult]) -> None:
    if args.csv:
        write_perf_csv(results, args.csv)
        written = [str(args.csv)]
        if baseline:
            other = args.csv.with_name(f"{args.csv.stem}-baseline{args.csv.suffix or '.csv'}")
            write_perf_csv(baseline, other)
            written.append(str(other))
        print(f"CSV (perf_analyzer layout, microseconds): {', '.join(written)}", file=sys.stderr)
    if args.json:
        data = {
            "target": args.target,
            "results": [r.to_json() for r in results],
            "baseline": [r.to_json() for r in baseline],
            "speedup": {
                str(o.concurrency): speedup(o, t)
                for o, t in zip(results, baseline, strict=False)
                if speedup(o, t) is not None
            },
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(data, indent=1), encoding="utf-8")
        print(f"JSON: {args.json}", file=sys.stderr)
