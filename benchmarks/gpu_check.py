"""The GPU claim in one command: the seeds' table for this pipeline on real receipts.

Usage (a fresh Linux x86-64 machine with an NVIDIA GPU and the package registries):
    python3 benchmarks/gpu_check.py                 # makes .gpu-venv, installs '.[gpu]', fetches models
    python3 benchmarks/gpu_check.py --cpu --no-venv --duration 1 --concurrency 1,2 --instances 1
                                                    # the whole path on a CPU, tiny (what CI runs)

It prints, and writes as Markdown and JSON under --out (default benchmarks/results/gpu_check/):
the serial Flask baseline, then the embedded Triton with dynamic batching off and on and 1/2/4
instances per ONNX model, each at concurrency 1, 8 and 32: images/s, p50/p99 latency, GPU
utilisation (mean) and memory (peak) from Triton's metrics, the average executed batch per model
from Triton's statistics, the speed-up over the baseline at the same concurrency; then
perf_analyzer's figure for the same load (ocr_pipeline, the same images, concurrency 8) beside
the app's own load generator; then the production config.pbtxt files through Triton's
onnxruntime backend when that backend is there (the NGC container), or says plainly that it is not.
Without --cpu it refuses to run unless the ONNX models really run on a GPU (exit 2).
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
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".gpu-venv"
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "gpu_check"
NGC_TRITON = Path("/opt/tritonserver")
_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpu_metrics import MetricsSampler, average_batches, model_counts  # noqa: E402  (sibling modules)
from gpu_report import Row, write_report  # noqa: E402


# -- set-up ---------------------------------------------------------------------------------------
def ensure_venv(cpu: bool) -> Path:
    """.gpu-venv with the app ('.[gpu]' unless --cpu) and the default models; its python."""
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    pip = [str(python), "-m", "pip", "install", "-q"]
    subprocess.run([*pip, "-e", f"{ROOT}[test]" if cpu else f"{ROOT}[test,gpu]"], check=True)
    if not cpu:
        # onnxruntime (CPU) and onnxruntime-gpu share the `onnxruntime` package folder: whichever was
        # installed last wins. Remove the CPU one and lay the GPU one down again.
        subprocess.run([str(python), "-m", "pip", "uninstall", "-q", "-y", "onnxruntime"], check=False)
        subprocess.run([*pip, "--force-reinstall", "--no-deps", "onnxruntime-gpu"], check=True)
    subprocess.run([str(VENV / "bin" / "scanner-app"), "models", "fetch"], check=True, cwd=ROOT)
    return python


def receipt_images(count: int) -> list[Path]:
    """Real receipts from ../shared/data (both sets), else the rendered sample receipts."""
    data = ROOT.parent / "shared" / "data"
    found = sorted((data / "sroie" / "img").glob("*.jpg")) + sorted(
        (data / "sroie-dev" / "img").glob("*.jpg")
    )
    if not found:
        found = sorted((ROOT / "resources" / "samples").glob("*.png"))
    if not found:
        raise SystemExit("no receipt images: neither ../shared/data nor resources/samples has any")
    return found[:count]


# -- measurement ----------------------------------------------------------------------------------
def bench(
    images: Path,
    concurrency: int,
    args: argparse.Namespace,
    *,
    server: str | None = None,
    baseline: str | None = None,
) -> dict:
    """One `scanner-app bench` level (the app's own load generator); its JSON result."""
    with tempfile.TemporaryDirectory(prefix="gpu-check-") as tmp:
        out = Path(tmp) / "bench.json"
        command = [
            sys.executable,
            "-m",
            "scanner_app.cli",
            "bench",
            "--concurrency",
            str(concurrency),
            *(["--requests", str(args.requests)] if args.requests else ["--duration", str(args.duration)]),
            "--warmup",
            str(args.warmup),
            "--window",
            str(args.window),
            "--images",
            str(images),
            "--json",
            str(out),
        ]
        if server:
            command += ["--server", server]
        if baseline:
            # bench always loads a Triton too: point it at the same server and keep only the baseline.
            command += ["--baseline", baseline]
        done = subprocess.run(command, capture_output=True, text=True, timeout=900)
        if done.returncode not in (0, 1) or not out.is_file():
            raise RuntimeError(
                f"bench failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
            )
        data = json.loads(out.read_text(encoding="utf-8"))
    return data["baseline"][0] if baseline else data["results"][0]


def to_row(result: dict, server: str, batching: bool | None, instances: int | None) -> Row:
    return Row(
        server=server,
        batching=batching,
        instances=instances,
        concurrency=int(result["concurrency"]),
        images_per_s=round(float(result["throughput"]), 3),
        p50_ms=round(float(result["p50_ms"]), 1),
        p99_ms=round(float(result["p99_ms"]), 1),
        completed=int(result["completed"]),
        errors=sum(int(v) for v in (result.get("errors") or {}).values()),
        mismatches=int(result.get("mismatches", 0)),
    )


def measure_triton(server, images: Path, args: argparse.Namespace, label: tuple[str, bool, int]) -> list[Row]:
    rows = []
    for concurrency in args.concurrency:
        before = model_counts(server.http_url)
        with MetricsSampler(server.metrics_url) as sampler:
            result = bench(images, concurrency, args, server=server.grpc_url)
        row = to_row(result, *label)
        row.gpu_util_pct, row.gpu_mem_mib = sampler.summary()
        row.avg_batch = average_batches(before, model_counts(server.http_url))
        print(
            f"  c={concurrency:<3} {row.images_per_s:8.2f} images/s  p50 {row.p50_ms:7.1f} ms  "
            f"p99 {row.p99_ms:7.1f} ms  batches {row.avg_batch}",
            flush=True,
        )
        rows.append(row)
    return rows


def perf_analyzer_figure(url: str, images: list[Path], concurrency: int) -> float | None:
    """perf_analyzer's infer/s on ocr_pipeline with the same encoded images; None when unavailable."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import numpy as np
    from loadgen_vs_perf_analyzer import library_folder, perf_analyzer_binary
    from tritonclient.utils import serialize_byte_tensor

    from scanner_app.contract import IMAGE_INPUT, PIPELINE_MODEL

    try:
        binary = perf_analyzer_binary()
    except (OSError, subprocess.CalledProcessError) as err:
        print(f"perf_analyzer is not available here ({err}): its figure is left out", flush=True)
        return None
    with tempfile.TemporaryDirectory(prefix="pa-") as tmp:
        folder = Path(tmp)
        entries = []
        for path in images:
            tensor = serialize_byte_tensor(np.array([path.read_bytes()], dtype=np.object_))
            entries.append({IMAGE_INPUT: {"b64": base64.b64encode(tensor.item()).decode(), "shape": [1]}})
        data = folder / "input.json"
        data.write_text(json.dumps({"data": entries}), encoding="utf-8")
        out = folder / "pa.csv"
        libs = library_folder(folder)
        env = dict(
            os.environ,
            LD_LIBRARY_PATH=os.pathsep.join(filter(None, [str(libs), os.environ.get("LD_LIBRARY_PATH")])),
        )
        command = [
            str(binary),
            "-m",
            PIPELINE_MODEL,
            "-i",
            "grpc",
            "-u",
            url,
            "--concurrency-range",
            str(concurrency),
            "--measurement-mode",
            "count_windows",
            "--measurement-request-count",
            str(max(8, 2 * concurrency)),
            "-s",
            "20",
            "-r",
            "6",
            "--input-data",
            str(data),
            "-f",
            str(out),
        ]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
        if done.returncode != 0 or not out.is_file():
            print(
                f"perf_analyzer found no stable figure ({done.returncode}): {done.stdout[-400:]}", flush=True
            )
            return None
        (row,) = list(csv.DictReader(out.open(encoding="utf-8")))
        return float(row["Inferences/Second"])


# -- main -----------------------------------------------------------------------------------------
def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu", action="store_true", help="run the whole path on the CPU (no GPU needed)")
    parser.add_argument("--no-venv", action="store_true", help="use this interpreter as it is")
    parser.add_argument("--concurrency", default="1,8,32", help="levels (default 1,8,32)")
    parser.add_argument("--instances", default="1,2,4", help="instances per ONNX model (default 1,2,4)")
    parser.add_argument("--duration", type=float, default=5.0, help="seconds measured per level")
    parser.add_argument(
        "--requests", type=int, default=0, help="measure N requests per level instead (a slow CPU)"
    )
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--window", type=float, default=1.0)
    parser.add_argument("--images", type=int, default=16, help="real receipts used (default 16)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument(
        "--no-perf-analyzer", action="store_true", help="leave out perf_analyzer (it is downloaded once)"
    )
    args = parser.parse_args(argv)
    args.concurrency = [int(c) for c in str(args.concurrency).split(",") if c]
    args.instances = [int(n) for n in str(args.instances).split(",") if n]
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.no_venv and Path(sys.prefix).resolve() != VENV.resolve():
        python = ensure_venv(args.cpu)
        return subprocess.call(
            [str(python), __file__, *(argv if argv is not None else sys.argv[1:]), "--no-venv"]
        )

    from scanner_app.baseline.launcher import BaselineProcess
    from scanner_app.server.embedded import EmbeddedServer
    from scanner_app.server.hardware import DeviceError, choose_device
    from scanner_app.server.model_configs import prepare_repository
    from scanner_app.server.model_fetch import default_repository
    from scanner_app.server.triton_install import default_cache_dir

    try:
        plan = choose_device("cpu" if args.cpu else "gpu")
    except DeviceError as err:
        print(f"GPU CHECK FAILED: {err}\n(use --cpu to run the path on a CPU)", file=sys.stderr)
        return 2
    print(f"Device: {plan.describe()}", flush=True)
    repository = default_repository()
    files = receipt_images(args.images)
    rows: list[Row] = []
    meta: dict = {
        "device": plan.describe(),
        "images": len(files),
        "duration_s": args.duration,
        "measure": f"{args.requests} requests" if args.requests else f"{args.duration:g} s",
        "warmup_s": args.warmup,
        "argv": " ".join(sys.argv[1:]),
        "date": time.strftime("%Y-%m-%d"),
        "pa_concurrency": 8 if 8 in args.concurrency else max(args.concurrency),
    }
    with tempfile.TemporaryDirectory(prefix="gpu-check-images-") as tmp:
        images = Path(tmp)
        for i, path in enumerate(files):
            (images / f"{i:03d}{path.suffix}").write_bytes(path.read_bytes())

        baseline_rows: dict[int, Row] = {}
        # The serial baseline on the same device as Triton (CUDA in-process when plan.kind is gpu).
        with BaselineProcess(port=0, device=plan.kind) as baseline:
            for batching in (False, True):
                for instances in args.instances:
                    prepared = prepare_repository(
                        repository,
                        default_cache_dir(),
                        plan=plan,
                        onnx_instances=instances,
                        dynamic_batching=batching,
                    )
                    print(
                        f"Triton, dynamic batching {'on' if batching else 'off'}, {instances} instance(s):",
                        flush=True,
                    )
                    with EmbeddedServer(
                        prepared.path,
                        0,
                        0,
                        0,
                        model_config_name=prepared.config_name,
                        device=None,
                        ready_timeout=600,
                    ) as server:
                        if plan.kind == "gpu":
                            _assert_on_gpu(server)
                        if not baseline_rows:
                            # bench measures the baseline after a Triton sweep of its own: its
                            # baseline half is kept; Triton is measured below with the metrics sampled.
                            print("Flask baseline (serial):", flush=True)
                            for concurrency in args.concurrency:
                                result = bench(
                                    images, concurrency, args, server=server.grpc_url, baseline=baseline.url
                                )
                                row = baseline_rows[concurrency] = to_row(result, "baseline", None, None)
                                print(
                                    f"  c={concurrency:<3} {row.images_per_s:8.2f} images/s  "
                                    f"p50 {row.p50_ms:7.1f} ms  p99 {row.p99_ms:7.1f} ms",
                                    flush=True,
                                )
                        measured = measure_triton(server, images, args, ("triton", batching, instances))
                        rows += measured
                        at_pa = [r for r in measured if r.concurrency == meta["pa_concurrency"]]
                        if at_pa and at_pa[0].images_per_s > meta.get("ours_at_pa", -1.0):
                            meta["best"] = {"batching": batching, "instances": instances}
                            meta["ours_at_pa"] = at_pa[0].images_per_s
                            if not args.no_perf_analyzer:
                                meta["perf_analyzer"] = perf_analyzer_figure(
                                    server.grpc_url, files, meta["pa_concurrency"]
                                )
        rows = list(baseline_rows.values()) + rows
        meta["production"] = production_configs(repository, images, args, rows)
    for row in rows:
        base = baseline_rows.get(row.concurrency)
        if row.server != "baseline" and base and base.images_per_s > 0:
            row.speedup = round(row.images_per_s / base.images_per_s, 2)
    return write_report(rows, meta, args)


def _assert_on_gpu(server) -> None:
    """Fail loudly unless the server's metrics show a GPU: no quiet CPU fallback."""
    with _NO_PROXY.open(server.metrics_url, timeout=5) as page:
        text = page.read().decode("utf-8", "replace")
    if "nv_gpu_memory_total_bytes" not in text:
        raise SystemExit(
            "GPU CHECK FAILED: Triton's metrics show no GPU, so the models would run on the CPU."
        )


def production_configs(repository: Path, images: Path, args: argparse.Namespace, rows: list[Row]) -> str:
    """Run config.pbtxt (onnxruntime backend) where the NGC tritonserver is installed; else say so."""
    binary, backend = NGC_TRITON / "bin" / "tritonserver", NGC_TRITON / "backends" / "onnxruntime"
    if not (binary.is_file() and backend.is_dir()):
        return (
            "not run: Triton's onnxruntime backend is not on this machine (the nvidia-pytriton server has "
            "only the Python backend); run this script inside the NGC tritonserver container "
            "(packaging/server/Dockerfile) to measure them."
        )
    from scanner_app.server.ports import free_port

    ports = [free_port(), free_port(), free_port()]
    command = [
        str(binary),
        f"--model-repository={repository}",
        "--grpc-address=127.0.0.1",
        f"--grpc-port={ports[0]}",
        "--http-address=127.0.0.1",
        f"--http-port={ports[1]}",
        "--metrics-address=127.0.0.1",
        f"--metrics-port={ports[2]}",
        "--model-control-mode=none",
    ]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{ports[1]}"
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with _NO_PROXY.open(url + "/v2/health/ready", timeout=2):
                    break
            except OSError:
                time.sleep(1)
        else:
            return f"the NGC tritonserver did not get ready with the production configs (exit {proc.poll()})"
        concurrency = 8 if 8 in args.concurrency else max(args.concurrency)
        result = bench(images, concurrency, args, server=f"127.0.0.1:{ports[0]}")
        row = to_row(result, "triton-production", True, 2)
        rows.append(row)
        return f"measured: {row.images_per_s:.2f} images/s at concurrency {concurrency} (row above)"
    finally:
        proc.terminate()
        proc.wait(30)


if __name__ == "__main__":
    sys.exit(main())
