"""Our load engine against NVIDIA's perf_analyzer: same model, same inputs, same concurrency, one run.

Usage: python benchmarks/loadgen_vs_perf_analyzer.py [--server HOST:PORT] [--concurrency 2]
       [--window-requests 20 | --window-requests 0 --interval 10] [--rounds 3] [--stability-percentage 10]

Both sides load text_detection (the detection model alone) with the same real det_input tensors (the
app's own preprocessing of rendered receipts; perf_analyzer reads them from an --input-data JSON
file, base64), in the same measurement mode: count windows of --window-requests responses
(perf_analyzer's count_windows; on a slow CPU server a 10 s time window holds ~15 responses, so
counting them alone moves the figure by 7 %) or time windows of --interval seconds; stable when
the last 3 windows agree within the stability percentage in throughput and latency, at most 10.
The two alternate for --rounds rounds on the same warm server; the mean throughputs are compared.
Exit status 1 when they differ by more than 5 %.

perf_analyzer is the binary inside the tritonclient==2.41.0 manylinux wheel: downloaded once with
`pip download --no-deps` into ~/.cache/scanner-app/perf_analyzer and extracted there. It needs
libb64.so.0d and libcudart.so.12, which the nvidia-pytriton wheel bundles under other names in
nvidia_pytriton.libs: symlinked under their plain names in a temporary folder on LD_LIBRARY_PATH.
With no --server the embedded server is started.
"""

from __future__ import annotations

import argparse
import base64
import csv
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from scanner_app.commands.scan import server_url
from scanner_app.contract import DET_INPUT, DETECTION_MODEL
from scanner_app.load.engine import LoadRun, LoadSpec
from scanner_app.load.targets import DetectionTarget, sample_images

WHEEL = "tritonclient==2.41.0"
MEMBER = "tritonclient-2.41.0.data/data/bin/perf_analyzer"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "scanner-app" / "perf_analyzer"
LIBS = {"libb64.so.0d": "libb64-*.so.0d", "libcudart.so.12": "libcudart-*.so.12*"}
TOLERANCE = 0.05


def perf_analyzer_binary() -> Path:
    """The perf_analyzer of the tritonclient 2.41.0 wheel (downloaded and extracted once)."""
    binary = CACHE / "perf_analyzer"
    if binary.is_file():
        return binary
    CACHE.mkdir(parents=True, exist_ok=True)
    wheels = sorted(CACHE.glob("tritonclient-2.41.0-*manylinux*.whl"))
    if not wheels:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
             "--platform", "manylinux1_x86_64", WHEEL, "-d", str(CACHE)],
            check=True,
        )  # fmt: skip
        wheels = sorted(CACHE.glob("tritonclient-2.41.0-*manylinux*.whl"))
    with zipfile.ZipFile(wheels[0]) as wheel:
        binary.write_bytes(wheel.read(MEMBER))
    binary.chmod(0o755)
    return binary


def library_folder(folder: Path) -> Path:
    """`folder` holding libb64.so.0d and libcudart.so.12, linked from nvidia-pytriton's bundled copies."""
    import pytriton

    bundled = Path(pytriton.__file__).resolve().parent.parent / "nvidia_pytriton.libs"
    for name, pattern in LIBS.items():
        found = sorted(bundled.glob(pattern))
        if not found:
            raise SystemExit(f"{pattern} not found in {bundled}: is nvidia-pytriton installed?")
        (folder / name).symlink_to(found[0])
    return folder


def input_data(target: DetectionTarget, path: Path) -> Path:
    """The target's det_input tensors as perf_analyzer's --input-data JSON (one entry per tensor)."""
    entries = [
        {DET_INPUT: {"b64": base64.b64encode(t[0].tobytes()).decode("ascii"), "shape": list(t.shape[1:])}}
        for t in target.tensors
    ]
    path.write_text(json.dumps({"data": entries}), encoding="utf-8")
    return path


def run_perf_analyzer(
    binary: Path, libs: Path, url: str, data: Path, args: argparse.Namespace, out: Path
) -> float | None:
    """perf_analyzer's Inferences/Second at the concurrency; None when it found no stable measurement."""
    env = dict(
        os.environ,
        LD_LIBRARY_PATH=os.pathsep.join(filter(None, [str(libs), os.environ.get("LD_LIBRARY_PATH")])),
    )
    command = [
        str(binary), "-m", DETECTION_MODEL, "-i", "grpc", "-u", url,
        "--concurrency-range", str(args.concurrency),
        *window_options(args),
        "-s", str(args.stability_percentage), "-r", "10", "--input-data", str(data), "-f", str(out),
    ]  # fmt: skip
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
    if "Failed to obtain stable measurement" in done.stdout + done.stderr:
        return None
    if done.returncode != 0 or not out.is_file():
        raise RuntimeError(
            f"perf_analyzer failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )
    (row,) = list(csv.DictReader(out.open(encoding="utf-8")))
    return float(row["Inferences/Second"])


def window_options(args: argparse.Namespace) -> list[str]:
    """perf_analyzer's measurement-mode options for the chosen windows."""
    if args.window_requests:
        return [
            "--measurement-mode",
            "count_windows",
            "--measurement-request-count",
            str(args.window_requests),
        ]
    return ["--measurement-mode", "time_windows", "-p", str(int(args.interval * 1000))]


def run_engine(target: DetectionTarget, args: argparse.Namespace) -> tuple[float, bool, int]:
    """Our engine's throughput, whether it was stable, and its mismatches (the same measurement mode)."""
    spec = LoadSpec(
        concurrency=args.concurrency, duration_s=None, warmup_s=0.0, window_s=args.interval,
        stability=True, stability_tolerance=args.stability_percentage / 100.0,
        window_requests=args.window_requests or None,
    )  # fmt: skip
    run = LoadRun(target, spec)
    run.start()
    result = run.wait(900)
    if result.errors:
        raise RuntimeError(f"our engine saw errors: {result.errors}")
    return result.throughput, result.stable, result.mismatches


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", help="a running Triton (default: start the embedded one)")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--interval", type=float, default=10.0, help="time windows of this many seconds")
    parser.add_argument(
        "--window-requests",
        type=int,
        default=20,
        help="count windows of N responses (default 20; 0: time windows)",
    )
    parser.add_argument("--stability-percentage", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the two (default 3)")
    parser.add_argument("--images", type=int, default=4, help="rendered receipts used as inputs")
    args = parser.parse_args(argv)

    binary = perf_analyzer_binary()
    with tempfile.TemporaryDirectory(prefix="pa-") as tmp, server_url(args.server) as url:
        folder = Path(tmp)
        libs = library_folder(folder)
        target = DetectionTarget(url, sample_images(args.images))
        try:
            data = input_data(target, folder / "input.json")
            target.take_golden()  # also warms the server: every input once
            rounds, mismatches = [], 0
            for k in range(args.rounds):
                throughput, stable, bad = run_engine(target, args)
                mismatches += bad
                note = "" if stable else " (not stable in 10 windows)"
                print(f"round {k + 1}: load engine   {throughput:8.3f} infer/s{note}", flush=True)
                theirs = run_perf_analyzer(binary, libs, url, data, args, folder / f"pa{k}.csv")
                shown = (
                    f"{theirs:8.3f} infer/s" if theirs is not None else "no stable measurement in 10 windows"
                )
                print(f"round {k + 1}: perf_analyzer {shown}", flush=True)
                rounds.append((throughput, stable, theirs))
        finally:
            target.close()
    return report(rounds, mismatches, len(target.tensors), args)


def report(
    rounds: list[tuple[float, bool, float | None]], mismatches: int, inputs: int, args: argparse.Namespace
) -> int:
    """Compare the rounds in which both sides found a stable measurement; 1 when outside 5 %."""
    both = [(ours, theirs) for ours, stable, theirs in rounds if stable and theirs is not None]
    windows = f"{args.window_requests}-response" if args.window_requests else f"{args.interval:g} s"
    print(
        f"\n{DETECTION_MODEL}, concurrency {args.concurrency}, {inputs} inputs, {windows} windows, "
        f"stability {args.stability_percentage:g} %, {len(both)} of {len(rounds)} rounds stable on both sides"
    )
    if not both:
        print("no round was stable on both sides: rerun with longer windows on a quieter machine")
        return 1
    mean_ours = sum(o for o, _ in both) / len(both)
    mean_theirs = sum(t for _, t in both) / len(both)
    ratio = mean_ours / mean_theirs
    print(f"load engine    {mean_ours:8.3f} infer/s   (mismatches: {mismatches})")
    print(f"perf_analyzer  {mean_theirs:8.3f} infer/s")
    print(f"ratio          {ratio:8.3f}   (goal: within {TOLERANCE:.0%} of 1)")
    return 0 if abs(ratio - 1.0) <= TOLERANCE and mismatches == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
