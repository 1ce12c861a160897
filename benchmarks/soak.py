"""Soak the embedded server: real receipts, hostile requests and a kill, at concurrency 16.

    python benchmarks/soak.py --duration 3600          # the hour-class soak
    python benchmarks/soak.py --short                  # CI: 45 s (tests/benchmarks/test_soak.py)

Workers each keep one request in flight: mostly real receipts (retried through errors until they
succeed: a receipt that never does is *lost*), the rest hostile (oversized tensors for the inner
models, a decompression-bomb header, junk bytes, a 1 ms deadline). Halfway through (--kill-at),
the server (or, with --kill stub, one recognition stub, as the OOM killer did) is SIGKILLed; the
supervisor must bring it back on the same ports. Prints RSS per process (start, end, peak, and the
slope after warm-up in MB/min of the process alive before the kill and of the last one), errors by
cause and the receipts lost; --csv keeps every sample (seconds, process, pid, RSS, PSS, own MB).
RSS counts a page of the stubs' /dev/shm regions in every process that maps it, and once per mapping
(the Python backend keeps a region's old mappings when it grows it); PSS splits each page among its
mappings, so the processes' PSS sum counts it once; the regions' own tmpfs pages are a row of their
own. Goal: 0 lost, slope < 1 MB/min.
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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import tritonclient.grpc as grpcclient
from tritonclient.utils import InferenceServerException

from scanner_app import contract
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.model_fetch import default_repository
from scanner_app.server.supervise import HealthEvent, Supervisor, stubs_of
from scanner_app.steps.heap import TRIM_AB_ENV
from scanner_app.steps.providers import ARENA_AB_ENV

sys.path.insert(0, str(Path(__file__).resolve().parent))
from proc_memory import own_mb, pss_mb, regions_mb, robust_slope, rss_mb, slope

RECEIPTS = Path(__file__).resolve().parents[2] / "shared" / "data" / "sroie" / "img"
HOSTILE_SHARE = 0.2
RETRIES = 20  # a receipt is lost only when it failed this many times
SAMPLE_S = 5.0
SHORT_S = 45.0  # CI: the server killed a third of the way in
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


SHM_ROW = "/dev/shm regions (once)"
Sample = dict[str, tuple[int, float]]
# measure -> (how one process is read, what the table says it is)
MEASURES: dict[str, tuple[Callable[[int], float | None], str]] = {
    "rss": (rss_mb, "RSS: a /dev/shm page counts in every process, and every mapping, that maps it"),
    "pss": (pss_mb, "PSS: a shared page split among its mappings (summed over processes: once)"),
    "own": (own_mb, "RSS less /dev/shm: each process's heap and file pages; the regions once, below"),
}


def sample(server: EmbeddedServer) -> dict[str, Sample]:
    """measure -> process name -> (pid, MB) for tritonserver and each stub by model instance, and
    SHM_ROW -> (server pid, MB of its regions' tmpfs pages, counted once) in every measure."""
    procs = {"tritonserver": server.pid or 0} if server.pid else {}
    procs.update({stub.instance: stub.info.pid for stub in stubs_of(server.pid or 0)})
    out: dict[str, Sample] = {}
    regions = regions_mb(list(procs.values())) if procs else None
    for measure, (read, _) in MEASURES.items():
        values = {name: (pid, value) for name, pid in procs.items() if (value := read(pid)) is not None}
        if regions is not None:
            values[SHM_ROW] = (server.pid or 0, regions)
        out[measure] = values
    return out


@dataclass
class SoakOptions:
    """One soak: `kill_at_s` None means half time; `csv` gets every RSS sample as it is taken."""

    duration_s: float = 3600.0
    concurrency: int = 16
    kill: str = "server"  # server | stub | none
    kill_at_s: float | None = None
    warmup_s: float | None = None  # default: a fifth of the run
    csv: Path | None = None
    arena_ab: bool = False  # ONNX instance 0 with ORT's CPU arena, the others without
    trim_ab_mib: int | None = None  # ONNX instance 0 trims glibc's free memory past this many MiB
    repository: Path | None = None  # default: the fetched default model set


@dataclass
class SoakResult:
    """What a soak saw: outcomes, RSS samples (seconds, name -> (pid, MB)), the kill time, and the
    samples of the other MEASURES."""

    seconds: float
    tally: Tally
    samples: list[tuple[float, Sample]]
    killed_at_s: float | None
    events: list[HealthEvent]
    others: dict[str, list[tuple[float, Sample]]] = field(default_factory=dict)  # "pss", "own"

    @property
    def accepted(self) -> int:
        """Hostile requests the server answered as if they were fine (must be 0)."""
        return sum(n for o, n in self.tally.hostile.items() if "ACCEPTED" in o)


@dataclass(frozen=True)
class ProcessRow:
    """RSS of one process name over the run; slopes of the process alive before and after the kill."""

    name: str
    start: float
    end: float
    peak: float
    slope_before: float | None
    slope_after: float | None
    minutes_after: float
    robust_after: float | None = None  # Theil-Sen slope of the last process


def _segment_slope(life: list[tuple[float, float]], warmup_s: float) -> tuple[float | None, float]:
    """Slope after warm-up of one process's (seconds, MB) life, and the minutes it was measured."""
    if not life:
        return None, 0.0
    tail = [(t, rss) for t, rss in life if t >= life[0][0] + warmup_s]
    if len(tail) < 3:
        return None, 0.0
    return slope(tail), (tail[-1][0] - tail[0][0]) / 60.0


def process_rows(result: SoakResult, warmup_s: float, measure: str = "rss") -> list[ProcessRow]:
    """One row per process name: the slope of the process alive just before the kill and of the last
    (of RSS, or of another of MEASURES)."""
    samples = result.samples if measure == "rss" else result.others.get(measure, [])
    names = sorted({n for _, s in samples for n in s}, key=lambda n: (n != "tritonserver", n))
    kill = result.killed_at_s
    rows = []
    for name in names:
        series = [(t, s[name]) for t, s in samples if name in s]
        last_pid = series[-1][1][0]
        after = [(t, rss) for t, (pid, rss) in series if pid == last_pid]
        before: list[tuple[float, float]] = []
        if kill is not None:
            pre = [(t, pid, rss) for t, (pid, rss) in series if t < kill]
            if pre and pre[-1][1] != last_pid:
                before = [(t, rss) for t, pid, rss in pre if pid == pre[-1][1]]
        slope_after, minutes = _segment_slope(after, warmup_s)
        tail = [(t, rss) for t, rss in after if t >= after[0][0] + warmup_s]
        robust = robust_slope(tail) if len(tail) >= 3 else None
        peak = max(r for _, (_, r) in series)
        slope_before = _segment_slope(before, warmup_s)[0]
        rows.append(ProcessRow(name, series[0][1][1], series[-1][1][1], peak, slope_before, slope_after,
                               minutes, robust))  # fmt: skip
    return rows


def report(result: SoakResult, warmup_s: float) -> None:
    def fmt(value: float | None) -> str:
        return "-" if value is None else f"{value:.2f}"

    for measure, (_, meaning) in MEASURES.items():
        print(f"\n{meaning}; {SHM_ROW}: the tmpfs pages of the regions")
        print(f"slopes: MB/min after {warmup_s:.0f} s of a process's life, least squares and Theil-Sen")
        _table(process_rows(result, warmup_s, measure), fmt)


def _table(rows: list[ProcessRow], fmt: Callable[[float | None], str]) -> None:
    print(f"{'process':28} {'start MB':>9} {'end MB':>9} {'peak MB':>9} {'slope pre-kill':>15} "
          f"{'slope last':>11} {'Theil-Sen':>10} {'min':>5}")  # fmt: skip
    for row in rows:
        print(f"{row.name:28} {row.start:9.0f} {row.end:9.0f} {row.peak:9.0f} {fmt(row.slope_before):>15} "
              f"{fmt(row.slope_after):>11} {fmt(row.robust_after):>10} {row.minutes_after:5.1f}")  # fmt: skip


def _victim(server: EmbeddedServer, kill: str) -> int:
    if kill == "server":
        return server.pid or 0
    return next(s.info.pid for s in stubs_of(server.pid or 0)
                if s.instance.startswith(contract.RECOGNITION_MODEL))  # fmt: skip


def run_soak(options: SoakOptions, receipts: list[bytes]) -> SoakResult:
    """Start the embedded server under its supervisor, load it, kill it once, sample RSS."""
    events: list[HealthEvent] = []
    kill_at = options.duration_s / 2 if options.kill_at_s is None else options.kill_at_s
    out = options.csv.open("w", buffering=1) if options.csv else None
    env = {ARENA_AB_ENV: "1"} if options.arena_ab else {}
    if options.trim_ab_mib is not None:
        env[TRIM_AB_ENV] = str(options.trim_ab_mib)
    repository = options.repository or default_repository()
    with EmbeddedServer(repository, 0, 0, 0, ready_timeout=600, env=env) as server:
        begun = time.monotonic()

        def on_event(event: HealthEvent) -> None:  # printed as it happens, and again in the report
            events.append(event)
            print(f"[{time.monotonic() - begun:6.0f} s] {event.kind}: {event.message}", flush=True)

        supervisor = Supervisor(server, interval_s=2.0, probe_every=5, on_event=on_event)
        supervisor.start()
        tally, stop = Tally(), threading.Event()
        hostile = hostile_requests()
        threads = [threading.Thread(target=worker, daemon=True,
                                    args=(server.grpc_url, receipts, hostile, tally, stop, i))
                   for i in range(options.concurrency)]  # fmt: skip
        started = time.monotonic()
        for thread in threads:
            thread.start()
        samples: list[tuple[float, Sample]] = []
        others: dict[str, list[tuple[float, Sample]]] = {m: [] for m in MEASURES if m != "rss"}
        killed_at: float | None = None

        def take(now: float) -> None:
            taken = sample(server)
            samples.append((now, taken["rss"]))
            for measure, series in others.items():
                series.append((now, taken[measure]))
            if out is not None:
                for name, (pid, value) in taken["rss"].items():
                    rest = ",".join(f"{taken[m].get(name, (0, 0.0))[1]:.1f}" for m in others)
                    out.write(f"{now:.1f},{name},{pid},{value:.1f},{rest}\n")
                with tally.lock:
                    out.write(f"{now:.1f},#tally,ok={tally.ok},lost={tally.lost},retried={tally.retried}\n")

        while (now := time.monotonic() - started) < options.duration_s:
            take(now)
            if killed_at is None and options.kill != "none" and now >= kill_at:
                victim = _victim(server, options.kill)
                print(f"[{now:6.0f} s] SIGKILL {options.kill} pid {victim}", flush=True)
                os.kill(victim, signal.SIGKILL)
                killed_at = now
            stop.wait(SAMPLE_S)
        stop.set()
        for thread in threads:
            thread.join(330)
        take(time.monotonic() - started)
        supervisor.stop()
    if out is not None:
        out.close()
    return SoakResult(time.monotonic() - started, tally, samples, killed_at, events, others)


def short_options(repository: Path | None = None) -> SoakOptions:
    """The CI soak: 45 s at concurrency 16, the server SIGKILLed at 15 s."""
    return SoakOptions(duration_s=SHORT_S, kill_at_s=SHORT_S / 3, warmup_s=SHORT_S / 5, repository=repository)


def load_receipts() -> list[bytes]:
    """The real receipts the soak sends."""
    return [p.read_bytes() for p in sorted(RECEIPTS.glob("*.jpg"))]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--duration", type=float, default=3600.0, help="seconds (default 3600)")
    parser.add_argument("--short", action="store_true", help=f"CI: {SHORT_S:.0f} s")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--kill", choices=("server", "stub", "none"), default="server")
    parser.add_argument("--kill-at", type=float, default=None, help="seconds into the run (default: half)")
    parser.add_argument("--warmup", type=float, default=None, help="seconds (default: a fifth of the run)")
    parser.add_argument("--csv", type=Path, default=None, help="write every RSS sample here as it is taken")
    parser.add_argument("--arena-ab", action="store_true",
                        help="A/B: each ONNX model's instance 0 keeps ORT's CPU arena")  # fmt: skip
    parser.add_argument("--trim-ab", type=int, default=None, metavar="MIB",
                        help="A/B: ONNX instance 0 trims glibc's free memory past MIB")  # fmt: skip
    args = parser.parse_args()
    duration = SHORT_S if args.short else args.duration
    warmup = duration / 5 if args.warmup is None else args.warmup
    kill_at = SHORT_S / 3 if args.short and args.kill_at is None else args.kill_at
    receipts = load_receipts()
    if not receipts:
        print(f"no receipts in {RECEIPTS}", file=sys.stderr)
        return 2
    options = SoakOptions(
        duration, args.concurrency, args.kill, kill_at, warmup, args.csv, args.arena_ab, args.trim_ab
    )
    result = run_soak(options, receipts)
    tally, seconds = result.tally, result.seconds
    killed = "never" if result.killed_at_s is None else f"at {result.killed_at_s:.0f} s"
    print(f"\nsoak: {seconds:.0f} s at concurrency {args.concurrency}, kill: {args.kill} {killed}")
    report(result, warmup)
    print(f"\nreceipts: {tally.ok} ok ({tally.ok / seconds * 60:.1f}/min), {tally.retried} needed a retry, "
          f"LOST {tally.lost}")  # fmt: skip
    print("receipt errors by cause (each retried):")
    for cause, n in tally.errors.most_common():
        print(f"  {n:5}  {cause}")
    print("hostile requests:")
    for outcome, n in sorted(tally.hostile.items()):
        print(f"  {n:5}  {outcome}")
    print("supervisor:")
    for event in result.events:
        print(f"  {event.kind}: {event.message}")
    return 1 if tally.lost or result.accepted else 0


if __name__ == "__main__":
    sys.exit(main())
