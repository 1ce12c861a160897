"""Serving speed of the pipeline against the in-process peer and the raw ONNX Runtime ceiling.

Usage: python benchmarks/serving.py [--server HOST:PORT] [--data ../shared/data/sroie]
       [--concurrency 16] [--duration 30] [--set NAME]

Measured side by side in one run, on the same images:
1. concurrency 1: p50 latency of `ocr_pipeline` (client round trip, decode included) against the
   peer (PaddleOCR's pipeline in-process through rapidocr 1.4.4, same model set, `engine(path)`).
   Goal: ratio <= 1.10.
2. concurrency N: pipeline images/s against the raw ORT ceiling: the same det + rec tensors run
   straight through ONNX Runtime sessions with no server, no decode and no Python post-processing,
   in the best of two layouts (one 2-thread session; two 1-thread sessions on two threads).
   Goal: ratio >= 0.90.
With no --server the embedded server is started. Without ../shared/data the rendered invoices of
scanner_app.samples.documents are used and the peer row is left out.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import onnxruntime as ort

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scanner_app.commands.scan import server_url
from scanner_app.contract import DET_INPUT, DETECTION_MODEL, KEYS_FILE, REC_INPUT, RECOGNITION_MODEL
from scanner_app.core.client.triton import OcrClient
from scanner_app.ocr.decode import decode_image
from scanner_app.ocr.engine import plan_recognition
from scanner_app.ocr.in_process import InProcessEngine
from scanner_app.server.model_fetch import default_repository, placed_model_set

ROOT = Path(__file__).resolve().parents[1]


def load_images(data: Path) -> tuple[list[Path], bool]:
    """The receipts of ../shared/data/sroie, or rendered invoices when that folder is absent."""
    images = sorted((data / "img").glob("*.jpg"))
    if images:
        return images, True
    from scanner_app.samples.documents import encode, render_invoice

    folder = Path(tempfile.mkdtemp(prefix="serving-"))
    for seed in range(8):
        (folder / f"invoice{seed}.jpg").write_bytes(encode(render_invoice(seed).image, "JPEG"))
    return sorted(folder.glob("*.jpg")), False


def onnx_path(repository: Path, model: str) -> Path:
    return repository / model / "1" / "model.onnx"


def model_tensors(images: list[Path], repository: Path) -> list[tuple[np.ndarray, list[np.ndarray]]]:
    """Per image: the det input and the rec batches the pipeline would send (via the same math)."""
    keys = json.loads((repository / RECOGNITION_MODEL / KEYS_FILE).read_text(encoding="utf-8"))
    engine = InProcessEngine(
        str(repository / "text_detection/1/model.onnx"),
        str(repository / "text_recognition/1/model.onnx"),
        keys,
    )
    from scanner_app.ocr.detect import preprocess_for_detection

    out = []
    for path in images:
        image = decode_image(path.read_bytes())
        tensor, _ = preprocess_for_detection(image, engine.det_params)
        plan = plan_recognition(image, engine.detect(image), engine.rec_params)
        out.append((tensor[None], plan.batches))
    return out


def ort_ceiling(repository: Path, tensors: list, seconds: float) -> dict[str, float]:
    """Images/s of det + rec compute alone, for each session layout."""
    results = {}
    for name, sessions, threads in (("1 session x 2 threads", 1, 2), ("2 sessions x 1 thread", 2, 1)):
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        pairs = [
            (
                ort.InferenceSession(str(onnx_path(repository, DETECTION_MODEL)), options),
                ort.InferenceSession(str(onnx_path(repository, RECOGNITION_MODEL)), options),
            )
            for _ in range(sessions)
        ]
        for det, rec in pairs:  # warm-up: every shape once per session, not timed
            for det_input, batches in tensors:
                det.run(None, {DET_INPUT: det_input})
                for batch in batches:
                    rec.run(None, {REC_INPUT: batch})
        done = [0] * sessions
        stop = time.perf_counter() + seconds

        def work(
            k: int, pairs: list = pairs, done: list = done, stop: float = stop, step: int = sessions
        ) -> None:
            det, rec = pairs[k]
            i = k
            while time.perf_counter() < stop:
                det_input, batches = tensors[i % len(tensors)]
                det.run(None, {DET_INPUT: det_input})
                for batch in batches:
                    rec.run(None, {REC_INPUT: batch})
                done[k] += 1
                i += step

        started = time.perf_counter()
        threads_ = [threading.Thread(target=work, args=(k,)) for k in range(sessions)]
        for t in threads_:
            t.start()
        for t in threads_:
            t.join()
        results[name] = sum(done) / (time.perf_counter() - started)
    return results


def pipeline_latencies(url: str, payloads: list[bytes], rounds: int) -> list[float]:
    with OcrClient(url, timeout_s=600) as client:
        client.recognize(payloads[0])  # warm-up
        latencies = []
        for _ in range(rounds):
            for payload in payloads:
                started = time.perf_counter()
                client.recognize(payload)
                latencies.append(time.perf_counter() - started)
    return latencies


def pipeline_throughput(url: str, payloads: list[bytes], concurrency: int, seconds: float) -> float:
    """Images/s with ``concurrency`` clients each keeping one request in flight (after a warm-up)."""
    barrier = threading.Barrier(concurrency + 1)
    counts = [0] * concurrency
    window: list[float] = []

    def worker(k: int) -> None:
        with OcrClient(url, timeout_s=600) as client:
            client.recognize(payloads[k % len(payloads)])  # warm-up, not counted
            barrier.wait()
            i = k
            while time.perf_counter() < window[0]:
                client.recognize(payloads[i % len(payloads)])
                counts[k] += 1
                i += 1

    with ThreadPoolExecutor(concurrency) as pool:
        futures = [pool.submit(worker, k) for k in range(concurrency)]
        started = time.perf_counter()
        window.append(started + seconds)
        barrier.wait()
        started = time.perf_counter()
        window[0] = started + seconds
        for future in futures:
            future.result()
    return sum(counts) / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", help="a running Triton (default: start the embedded one)")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "sroie")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=2, help="passes over the images at concurrency 1")
    args = parser.parse_args(argv)

    repository = default_repository()
    set_name = (placed_model_set(repository) or {}).get("set", "?")
    images, real = load_images(args.data)
    payloads = [p.read_bytes() for p in images]
    print(f"model set {set_name}; {len(images)} images ({'SROIE receipts' if real else 'rendered invoices'})")

    peer_p50 = None
    if real:
        from peer import run_peer

        with tempfile.TemporaryDirectory() as out:
            seconds = run_peer(set_name, images, Path(out), quiet=True)
        peer_p50 = statistics.median(seconds.values())

    with server_url(args.server) as url:
        latencies = pipeline_latencies(url, payloads, args.rounds)
        # Warm-up at full concurrency first: ORT allocates per input shape and per batch size on
        # first use, and the ceiling below runs on sessions that have seen every shape.
        pipeline_throughput(url, payloads, args.concurrency, 8.0)
        throughput = pipeline_throughput(url, payloads, args.concurrency, args.duration)
    p50 = statistics.median(latencies)

    ceiling = ort_ceiling(repository, model_tensors(images, repository), args.duration)
    best_layout, best = max(ceiling.items(), key=lambda kv: kv[1])

    print()
    print(f"{'measure':44s} {'value':>10s}")
    print(f"{'pipeline p50 latency, concurrency 1 (ms)':44s} {p50 * 1000:10.0f}")
    if peer_p50 is not None:
        print(f"{'peer (rapidocr in-process) p50 latency (ms)':44s} {peer_p50 * 1000:10.0f}")
        print(f"{'  ratio pipeline / peer (goal <= 1.10)':44s} {p50 / peer_p50:10.2f}")
    print(f"{f'pipeline images/s, concurrency {args.concurrency}':44s} {throughput:10.2f}")
    for layout, value in ceiling.items():
        print(f"{f'raw ORT det+rec images/s, {layout}':44s} {value:10.2f}")
    print(f"{'  ratio pipeline / best ORT (goal >= 0.90)':44s} {throughput / best:10.2f}   ({best_layout})")
    print(f"cpu count {os.cpu_count()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
