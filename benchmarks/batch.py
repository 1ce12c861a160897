"""Batch throughput of `scanner-app scan` against the load generator, and the CLI's peak memory.

Usage: python benchmarks/batch.py [--images 200] [--memory-images 1000] [--jobs 8] [--server HOST:PORT]

1. The same N rendered receipts go through `scanner-app scan DIR --out OUT --jobs J` (files read,
   encoded, sent, stored in SQLite, exported) and through a bare load generator keeping J requests
   in flight with the already-encoded bytes (the ceiling for any client). Goal: CLI >= 0.90x.
2. Peak RSS of the CLI process over a folder of M small images. Goal: < 300 MB.
The server is started once (embedded) unless --server is given, so both measure the same server.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serving import pipeline_throughput

from scanner_app.commands.scan import server_url
from scanner_app.samples.documents import distinct_receipts, encode, render_text_lines


def make_folder(folder: Path, count: int, seed: int, small: bool = False) -> list[Path]:
    """`count` rendered receipts as JPEG files (20 templates, each file's bytes made unique).

    ``small``: one-line notes instead of receipts, for the memory run over many files."""
    folder.mkdir(parents=True, exist_ok=True)
    if small:
        docs = [render_text_lines([f"NOTE {seed}-{i:03d} PAID {i}.00"]) for i in range(20)]
    else:
        docs = distinct_receipts(min(count, 20), seed=seed)
    templates = [encode(doc.image, "JPEG") for doc in docs]
    paths = []
    for i in range(count):
        path = folder / f"receipt{i:04d}.jpg"
        # A distinct trailing comment keeps every file's content hash unique (no store dedupe).
        path.write_bytes(templates[i % len(templates)][:-2] + f"{i:08d}".encode() + b"\xff\xd9")
        paths.append(path)
    return paths


def run_cli(folder: Path, out: Path, url: str, jobs: int) -> tuple[float, int]:
    """Seconds for the CLI to finish the folder, and its exit code."""
    command = [sys.executable, "-m", "scanner_app.cli", "scan", str(folder), "--server", url]
    command += ["--out", str(out), "--jobs", str(jobs), "--format", "json,csv", "--quiet"]
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        print(result.stderr[-3000:], file=sys.stderr)
    return time.perf_counter() - started, result.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", help="a running Triton (default: start the embedded one)")
    parser.add_argument("--images", type=int, default=200)
    parser.add_argument("--memory-images", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=8)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp, server_url(args.server) as url:
        root = Path(tmp)
        paths = make_folder(root / "batch", args.images, seed=5)
        payloads = [p.read_bytes() for p in paths]
        # Warm the server first (ORT allocates per input shape on first use), so that neither
        # measurement pays for it: the same 20 templates go through once at full concurrency.
        pipeline_throughput(url, payloads[:20], args.jobs, 5.0)
        cli_seconds, code = run_cli(root / "batch", root / "out", url, args.jobs)
        cli_rate = len(paths) / cli_seconds
        window = max(10.0, cli_seconds)
        loadgen_rate = pipeline_throughput(url, payloads, args.jobs, window)

        make_folder(root / "many", args.memory_images, seed=9, small=True)
        mem_seconds, mem_code = run_cli(root / "many", root / "out-many", url, args.jobs)
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024

    rows = [
        (f"scan CLI, {args.images} images, --jobs {args.jobs} (images/s)", f"{cli_rate:.2f}  (exit {code})"),
        (f"load generator, {args.jobs} in flight (images/s)", f"{loadgen_rate:.2f}"),
        ("  ratio CLI / load generator (goal >= 0.90)", f"{cli_rate / loadgen_rate:.2f}"),
        (
            f"CLI peak RSS over {args.memory_images} images (MB, goal < 300)",
            f"{peak_mb:.0f}  (exit {mem_code})",
        ),
        ("  that run took (s)", f"{mem_seconds:.0f}"),
    ]
    for label, value in rows:
        print(f"{label:56s} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
