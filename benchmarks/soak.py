"""Soak the embedded server: real receipts, hostile requests and a kill, at concurrency 16.

    python benchmarks/soak.py --duration 3600          # the hour-class soak
    python benchmarks/soak.py --short                  # CI: 90 s

Workers each keep one request in flight: mostly real receipts (retried through errors until they
succeed: a receipt that never does is *lost*), the rest hostile (oversized tensors for the inner
models, a decompression-bomb header, junk bytes, a 1 ms deadline). Halfway through, the server
(or, with --kill stub, one recognition stub, as the OOM killer did) is SIGKILLed; the supervisor
must bring it back on the same ports. Prints RSS per process (start, end, peak, slope after
warm-up in MB/min), errors by cause and the receipts lost. Goal: 0 lost, slope < 1 MB/min.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import struct
import sys
import threading
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import tritonclient.grpc as grpcclient
from tritonclient.utils import InferenceServerException

from scanner_app import contract
from scanner_app.server import shm
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.model_fetch import default_repository
from scanner_app.server.supervise import HealthEvent, Supervisor, stubs_of

RECEIPTS = Path(__file__).resolve().parents[2] / "shared" / "data" / "sroie" / "img"
HOSTILE_SHARE = 0.2
RETRIES = 20  # a receipt is lost only when it failed this many times
SAMPLE_S = 5.0
Hostile = dict[str, tuple[str, list[grpcclient.InferInput], dict[str, float]]]


def _tensor(name: str, array: np.ndarray, dtype: str) -> grpcclient.InferInput:
    tensor = grpcclient.InferInput(name, list(array.shape), dtype)
    tensor.set_data_from_numpy(array)
    return tensor


def _image(data: bytes) -> list[grpcclient.InferInput]:
    return [_tensor(contract.IMAGE_INPUT, np.array([[data]], dtype=np.object_), "BYTES")]


def _bomb() -> bytes:
    """A few dozen bytes of PNG whose header says 10000 x 9000 (over MAX_IMAGE_PIXELS)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 10_000, 9_000, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0" * 64))
        + chunk(b"IEND", b"")
    )


def hostile_requests() -> Hostile:
    """name -> (model, inputs, infer options): each must be refused, none may hurt the server."""
    return {
        "rec-too-wide": (contract.RECOGNITION_MODEL,
                         [_tensor(contract.REC_INPUT, np.zeros((1, 3, 48, 20000), np.float32), "FP32")], {}),
        "det-too-large": (contract.DETECTION_MODEL,
                          [_tensor(contract.DET_INPUT, np.zeros((3, 2048, 2048, 3), np.uint8), "UINT8")], {}),
        "bomb-header": (contract.PIPELINE_MODEL, _image(_bomb()), {}),
        "junk-bytes": (contract.PIPELINE_MODEL, _image(os.urandom(4096)), {}),
        "deadline-1ms": (contract.PIPELINE_MODEL, _image((RECEIPTS / "000.jpg").read_bytes()),
                         {"client_timeout": 0.001, "timeout": 1000}),
    }  # fmt: skip


@dataclass
class Tally:
    """Outcomes, shared by the workers (under `lock`)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    ok: int = 0
    lost: int = 0
    retried: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    hostile: Counter[str] = field(default_factory=Counter)


def _cause(exc: InferenceServerException) -> str:
    message = (exc.message() or "").split(":")[0][:60]
    return f"{exc.status()}: {message}"


def worker(
    url: str, receipts: list[bytes], hostile: Hostile, tally: Tally, stop: threading.Event, seed: int
) -> None:
    rng = random.Random(seed)
    # Reconnect soon after a restart (gRPC's default backoff grows to 2 minutes).
    backoff = [("grpc.initial_reconnect_backoff_ms", 500), ("grpc.max_reconnect_backoff_ms", 2000)]
    with grpcclient.InferenceServerClient(url, channel_args=backoff) as client:
        while not stop.is_set():
            if rng.random() < HOSTILE_SHARE:
                name = rng.choice(sorted(hostile))
                model, inputs, options = hostile[name]
                try:
                    client.infer(model, inputs, client_timeout=options.get("client_timeout", 120),
                                 timeout=int(options.get("timeout", 0)) or None)  # fmt: skip
                    outcome = "ACCEPTED (should not be)"
                except InferenceServerException as exc:
                    outcome = str(exc.status())
                with tally.lock:
                    tally.hostile[f"{name} -> {outcome}"] += 1
                continue
            data = rng.choice(receipts)
            for attempt in range(RETRIES):
                try:
                    client.infer(contract.PIPELINE_MODEL, _image(data), client_timeout=300)
                    with tally.lock:
                        tally.ok += 1
                        tally.retried += attempt > 0
                    break
                except InferenceServerException as exc:
                    with tally.lock:
                        tally.errors[_cause(exc)] += 1
                    if stop.wait(min(2.0 * (attempt + 1), 10.0)):
                        break  # the run ended while this receipt waited: not lost, not done
            else:
                with tally.lock:
                    tally.lost += 1


def rss_mb(pid: int) -> float | None:
    try:
        for line in (shm.PROC / str(pid) / "status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def sample(server: EmbeddedServer) -> dict[str, tuple[int, float]]:
    """process name -> (pid, RSS MB): tritonserver and each stub by model instance."""
    out = {}
    if server.pid and (rss := rss_mb(server.pid)) is not None:
        out["tritonserver"] = (server.pid, rss)
    for stub in stubs_of(server.pid or 0):
        if (rss := rss_mb(stub.info.pid)) is not None:
            out[stub.instance] = (stub.info.pid, rss)
    return out


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares MB per minute of (seconds, MB) points; 0 with fewer than 3."""
    if len(points) < 3:
        return 0.0
    t = np.array([p[0] for p in points]) / 60.0
    y = np.array([p[1] for p in points])
    return float(np.polyfit(t, y, 1)[0])


def report(samples: list[tuple[float, dict[str, tuple[int, float]]]], warmup_s: float) -> None:
    names = sorted({n for _, s in samples for n in s}, key=lambda n: (n != "tritonserver", n))
    print(
        f"\n{'process':28} {'start MB':>9} {'end MB':>9} {'peak MB':>9} {'slope MB/min':>13}"
        "  (slope: the last process of that name, after its first warm-up seconds)"
    )
    for name in names:
        series = [(t, s[name]) for t, s in samples if name in s]
        last_pid = series[-1][1][0]
        life = [(t, rss) for t, (pid, rss) in series if pid == last_pid]  # since its (re)start
        tail = [(t, rss) for t, rss in life if t >= life[0][0] + warmup_s]
        peak = max(r for _, (_, r) in series)
        print(f"{name:28} {series[0][1][1]:9.0f} {series[-1][1][1]:9.0f} {peak:9.0f} {slope(tail):13.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--duration", type=float, default=3600.0, help="seconds (default 3600)")
    parser.add_argument("--short", action="store_true", help="CI: 90 s")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--kill", choices=("server", "stub", "none"), default="server")
    parser.add_argument("--warmup", type=float, default=None, help="seconds (default: a fifth of the run)")
    args = parser.parse_args()
    duration = 90.0 if args.short else args.duration
    warmup = duration / 5 if args.warmup is None else args.warmup
    receipts = [p.read_bytes() for p in sorted(RECEIPTS.glob("*.jpg"))]
    if not receipts:
        print(f"no receipts in {RECEIPTS}", file=sys.stderr)
        return 2
    events: list[HealthEvent] = []
    with EmbeddedServer(default_repository(), 0, 0, 0, ready_timeout=600) as server:
        supervisor = Supervisor(server, interval_s=2.0, probe_every=5, on_event=events.append)
        supervisor.start()
        tally, stop = Tally(), threading.Event()
        hostile = hostile_requests()
        threads = [threading.Thread(target=worker, daemon=True,
                                    args=(server.grpc_url, receipts, hostile, tally, stop, i))
                   for i in range(args.concurrency)]  # fmt: skip
        started = time.monotonic()
        for thread in threads:
            thread.start()
        samples: list[tuple[float, dict[str, tuple[int, float]]]] = []
        killed = False
        while (now := time.monotonic() - started) < duration:
            samples.append((now, sample(server)))
            if not killed and args.kill != "none" and now >= duration / 2:
                victim = server.pid if args.kill == "server" else next(
                    s.info.pid for s in stubs_of(server.pid or 0)
                    if s.instance.startswith(contract.RECOGNITION_MODEL))  # fmt: skip
                print(f"[{now:6.0f} s] SIGKILL {args.kill} pid {victim}", flush=True)
                os.kill(victim or 0, signal.SIGKILL)
                killed = True
            time.sleep(SAMPLE_S)
        stop.set()
        for thread in threads:
            thread.join(330)
        samples.append((time.monotonic() - started, sample(server)))
        supervisor.stop()
    seconds = time.monotonic() - started
    print(f"\nsoak: {seconds:.0f} s at concurrency {args.concurrency}, kill: {args.kill}")
    report(samples, warmup)
    print(f"\nreceipts: {tally.ok} ok ({tally.ok / seconds * 60:.1f}/min), {tally.retried} needed a retry, "
          f"LOST {tally.lost}")  # fmt: skip
    print("receipt errors by cause (each retried):")
    for cause, n in tally.errors.most_common():
        print(f"  {n:5}  {cause}")
    print("hostile requests:")
    for outcome, n in sorted(tally.hostile.items()):
        print(f"  {n:5}  {outcome}")
    print("supervisor:")
    for event in events:
        print(f"  {event.kind}: {event.message}")
    accepted = sum(n for o, n in tally.hostile.items() if "ACCEPTED" in o)
    return 1 if tally.lost or accepted else 0


if __name__ == "__main__":
    sys.exit(main())
