"""Scale-out on one machine: two real embedded servers behind the client's endpoint list, under load.

tests/test_client.py covers the EndpointPool itself (spreading, failover, taking a server back).
Here the app's load engine (scanner_app.load) drives the pool the way the Stress tab does, with
distinct receipts checked against their golden responses, and the spread is counted by the servers.
"""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
from collections.abc import Callable

from scanner_app.contract import PIPELINE_MODEL
from scanner_app.load.engine import LoadRun, LoadSpec
from scanner_app.load.report import RunResult
from scanner_app.load.targets import Target, make_target, sample_images
from scanner_app.server.embedded import EmbeddedServer

CONCURRENCY = 4
REQUESTS = 24
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def served(server: EmbeddedServer) -> int:
    """Pipeline requests the server has answered successfully (Triton's statistics extension)."""
    url = f"{server.http_url}/v2/models/{PIPELINE_MODEL}/stats"
    with _DIRECT.open(url, timeout=10) as response:
        stats = json.load(response)["model_stats"][0]["inference_stats"]
    return int(stats["success"]["count"])


def run(target: Target, requests: int, on_progress: Callable[[int], None] | None = None) -> RunResult:
    """A request-bounded closed-loop run; `on_progress(completed)` is polled while it runs."""
    load = LoadRun(target, LoadSpec(concurrency=CONCURRENCY, duration_s=None, requests=requests, warmup_s=0))
    load.start()
    while not load.done:
        if on_progress is not None:
            on_progress(load.live().completed)
        time.sleep(0.05)
    return load.wait(5)


def test_load_spreads_over_both_and_survives_a_killed_server(two_servers: list[EmbeddedServer]) -> None:
    servers = two_servers
    target = make_target("pipeline", [s.grpc_url for s in servers], sample_images(4))
    try:
        target.take_golden()
        before = [served(s) for s in servers]
        spread = run(target, REQUESTS)
        share = [served(s) - b for s, b in zip(servers, before, strict=True)]
        print(
            f"\n{REQUESTS} requests at concurrency {CONCURRENCY}: served {share}, {spread.throughput:.2f}/s"
        )
        assert spread.completed == REQUESTS and not spread.errors and spread.mismatches == 0, spread
        total = sum(share)  # the measured requests + one warm-up request per worker at most
        assert REQUESTS <= total <= REQUESTS + CONCURRENCY, share
        assert all(0.3 <= n / total <= 0.7 for n in share), share

        victim = servers[1]
        assert victim.pid is not None
        killed_at: list[int] = []

        def kill_once(completed: int) -> None:
            if completed >= REQUESTS // 4 and not killed_at:
                os.kill(victim.pid, signal.SIGKILL)  # mid-run, requests in flight on both servers
                killed_at.append(completed)

        survived = run(target, REQUESTS, kill_once)
        print(f"killed after {killed_at} responses: {survived.completed} completed, errors {survived.errors}")
        assert killed_at and not victim.is_running()
        assert survived.completed == REQUESTS and not survived.errors and survived.mismatches == 0, survived
    finally:
        target.close()
