"""The embedded server's memory allocator, side by side in one run (issue 17, memory).

One embedded server per `--allocator` (a value of SCANNER_APP_ALLOCATOR: `glibc`, `auto`, or a
library's path; scanner_app/server/allocator.py) starts on loopback, and with `--env NAME=VALUE` one
more: the first allocator plus that environment (the stubs inherit it), e.g. `--env MALLOC_ARENA_MAX=2`.
The same mix goes to each (real receipts and the soak's hostile requests, `--clients` threads per
server); every 15 s each process's own memory (RSS less /dev/shm) is read, as the soak reads it (its
regions counted once in a row of their own). Prints, per server, the receipts served and per process
start / end / peak MB and the slope after `--warmup`. (glibc with and without its fixed mmap threshold
was compared by this script as of commit 2f098b2.)

    python benchmarks/malloc_ab.py --duration 1800 --warmup 300 --clients 3   # glibc against auto
    python benchmarks/malloc_ab.py --allocator glibc --allocator /usr/lib/x86_64-linux-gnu/libjemalloc.so.2
"""

from __future__ import annotations

import argparse
import signal
import threading
import time
from pathlib import Path

import soak
from proc_memory import slope

from scanner_app.server.allocator import ALLOCATOR_ENV
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.model_fetch import default_repository

DEFAULT_ALLOCATORS = ("glibc", "auto")
SAMPLE_S = 15.0


def variants(allocators: list[str], extra_env: dict[str, str]) -> dict[str, dict[str, str]]:
    """Server name -> its environment: one per allocator, and the first plus `extra_env`."""
    out = {f"{ALLOCATOR_ENV}={a}": {ALLOCATOR_ENV: a} for a in allocators}
    if extra_env:
        plus = " ".join(f"{k}={v}" for k, v in extra_env.items())
        out[f"{ALLOCATOR_ENV}={allocators[0]} + {plus}"] = {ALLOCATOR_ENV: allocators[0], **extra_env}
    return out


def start_servers(logs: Path, envs: dict[str, dict[str, str]]) -> dict[str, EmbeddedServer]:
    """The servers, started one after the other and then waited for (all ready)."""
    repository = default_repository()
    servers = {
        name: EmbeddedServer(repository, 0, 0, 0, log_path=logs / f"{i}.log", ready_timeout=300, env=env,
                             on_message=print)
        for i, (name, env) in enumerate(envs.items())
    }  # fmt: skip
    for server in servers.values():
        server.start()
    for server in servers.values():
        server.wait_ready()
    return servers


def env_pair(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not (sep and name):
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name, value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=660.0, help="seconds of load")
    parser.add_argument("--warmup", type=float, default=180.0, help="seconds left out of the slope")
    parser.add_argument("--clients", type=int, default=2, help="client threads per server")
    parser.add_argument("--hostile-share", type=float, default=0.3, help="share of hostile requests")
    parser.add_argument("--logs", type=Path, default=Path("/tmp/malloc_ab"), help="server logs")
    parser.add_argument("--allocator", action="append", default=[], metavar="VALUE",
                        help=f"one server per {ALLOCATOR_ENV} value (default glibc, auto)")  # fmt: skip
    parser.add_argument("--env", type=env_pair, action="append", default=[], metavar="NAME=VALUE",
                        help="one more server: the first allocator plus this (repeatable)")  # fmt: skip
    args = parser.parse_args()
    soak.HOSTILE_SHARE = args.hostile_share
    receipts, hostile = soak.load_receipts(), soak.hostile_requests()
    args.logs.mkdir(parents=True, exist_ok=True)
    servers = start_servers(args.logs, variants(args.allocator or list(DEFAULT_ALLOCATORS), dict(args.env)))
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())  # a stopped run still stops its servers
    tallies = {name: soak.Tally() for name in servers}
    threads = [threading.Thread(target=soak.worker, args=(server.grpc_url, receipts, hostile, tallies[name],
                                                          stop, k), daemon=True)
               for name, server in servers.items() for k in range(args.clients)]  # fmt: skip
    series: dict[str, dict[str, list[tuple[float, float]]]] = {name: {} for name in servers}
    for thread in threads:
        thread.start()
    start = time.monotonic()
    try:
        while (now := time.monotonic() - start) < args.duration and not stop.is_set():
            for name, server in servers.items():
                for proc, (_pid, mb) in soak.sample(server)["own"].items():  # the soak's own reading
                    series[name].setdefault(proc, []).append((now, mb))
            stop.wait(SAMPLE_S)
    finally:
        stop.set()
        for thread in threads:
            thread.join(30)
        for server in servers.values():
            server.stop()
    for name, procs in series.items():
        tally = tallies[name]
        print(f"== {name}: {tally.ok} receipts ok, {tally.lost} lost, errors {dict(tally.errors)}, "
              f"{sum(tally.hostile.values())} hostile refused")  # fmt: skip
        for proc, points in sorted(procs.items()):
            after = [(x, y) for x, y in points if x >= args.warmup]
            print(f"  {proc:26s} own MB start {points[0][1]:6.1f} end {points[-1][1]:6.1f} "
                  f"peak {max(y for _, y in points):6.1f}  after warm-up {slope(after):6.2f} MB/min")
    base, *others = servers
    for name in others:
        print(f"receipts served, {name} / {base}: {tallies[name].ok / max(tallies[base].ok, 1):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
