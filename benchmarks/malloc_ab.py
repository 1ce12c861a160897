"""glibc's mmap threshold in the embedded server, A/B side by side in one run (issue 17, memory).

Two embedded servers start on loopback: one as before (glibc's dynamic threshold everywhere), one as
now (tritonserver's threshold fixed by `steps.heap.server_malloc_env`, the stubs set back by
`stub_malloc`). The same mix goes to each (real receipts and the soak's hostile requests, `--clients`
threads per server); every 15 s each process's own memory (RSS less /dev/shm) is read, as the soak
reads it (its regions counted once in a row of their own). Prints, per
server, the receipts served and per process start / end / peak MB and the slope after `--warmup`.
With `--env NAME=VALUE` the two servers are instead "now" and "now plus that environment" (the stubs
inherit it), e.g. `--env MALLOC_ARENA_MAX=2`.

    python benchmarks/malloc_ab.py --duration 660 --warmup 180
"""

from __future__ import annotations

import argparse
import threading
import time
from pathlib import Path

import soak
from proc_memory import slope

import scanner_app.server.embedded as embedded
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.model_fetch import default_repository

VARIANTS = ("glibc default (before)", "server threshold fixed, stubs set back (now)")
SAMPLE_S = 15.0


def start_servers(logs: Path, extra_env: dict[str, str]) -> dict[str, EmbeddedServer]:
    """The two servers, ready: before / now, or (with `extra_env`) now / now plus `extra_env`."""
    if extra_env:
        plus = " ".join(f"{k}={v}" for k, v in extra_env.items())
        names, envs = ("now", f"now + {plus}"), (None, extra_env)
    else:
        names, envs = VARIANTS, (None, None)
    servers = {
        name: EmbeddedServer(
            default_repository(), 0, 0, 0, log_path=logs / f"{i}.log", ready_timeout=300, env=env
        )
        for i, (name, env) in enumerate(zip(names, envs, strict=True))
    }
    ours = embedded.server_malloc_env
    try:
        for i, server in enumerate(servers.values()):
            before = i == 0 and not extra_env
            embedded.server_malloc_env = (lambda environ: {}) if before else ours
            server.start()
    finally:
        embedded.server_malloc_env = ours
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
    parser.add_argument("--env", type=env_pair, action="append", default=[], metavar="NAME=VALUE",
                        help="compare now with now plus this environment (repeatable)")  # fmt: skip
    args = parser.parse_args()
    soak.HOSTILE_SHARE = args.hostile_share
    receipts, hostile = soak.load_receipts(), soak.hostile_requests()
    args.logs.mkdir(parents=True, exist_ok=True)
    servers = start_servers(args.logs, dict(args.env))
    stop = threading.Event()
    tallies = {name: soak.Tally() for name in servers}
    threads = [threading.Thread(target=soak.worker, args=(server.grpc_url, receipts, hostile, tallies[name],
                                                          stop, k), daemon=True)
               for name, server in servers.items() for k in range(args.clients)]  # fmt: skip
    series: dict[str, dict[str, list[tuple[float, float]]]] = {name: {} for name in servers}
    for thread in threads:
        thread.start()
    start = time.monotonic()
    try:
        while (now := time.monotonic() - start) < args.duration:
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
    first, second = (tallies[name].ok for name in servers)
    print(f"receipts served, {' / '.join(reversed(servers))}: {second / max(first, 1):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
