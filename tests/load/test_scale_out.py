"""Scale-out on one machine: two real embedded servers behind the client's endpoint list, under load.

tests/core/client/test_triton.py covers the EndpointPool itself (spreading, failover, taking a server back).
Here the app's load engine (scanner_app.load) drives the pool the way the Stress tab does, with
distinct receipts checked against their golden responses, and the spread is counted by the servers.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import urllib.request
from collections.abc import Callable
from typing import Any

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


class _AfterResponses:
    """Wraps a Target: once `count` responses came back, `action()` runs (on that worker's thread), once."""

    def __init__(self, target: Target, count: int, action: Callable[[int], None]) -> None:
        self.target, self.count, self.action = target, count, action
        self.name, self.url, self.model = target.name, target.url, getattr(target, "model", "")
        self.has_golden = True
        self._seen = 0
        self._lock = threading.Lock()

    def send(self, index: int) -> Any:
        response = self.target.send(index)
        with self._lock:
            self._seen += 1
            fire = self._seen == self.count
        if fire:
            self.action(self._seen)
        return response

    def check(self, index: int, response: Any) -> bool:
        return self.target.check(index, response)

    def take_golden(self) -> None: ...

    def close(self) -> None: ...


def run(target: Target, requests: int) -> RunResult:
    """A request-bounded closed-loop run."""
    load = LoadRun(target, LoadSpec(concurrency=CONCURRENCY, duration_s=None, requests=requests, warmup_s=0))
    load.start()
    return load.wait(600)


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

        def kill(completed: int) -> None:
            os.kill(victim.pid, signal.SIGKILL)  # mid-run, requests in flight on both servers
            killed_at.append(completed)

        survived = run(_AfterResponses(target, REQUESTS // 4, kill), REQUESTS)
        print(f"killed after {killed_at} responses: {survived.completed} completed, errors {survived.errors}")
        assert killed_at and not victim.is_running()
        assert survived.completed == REQUESTS and not survived.errors and survived.mismatches == 0, survived
    finally:
        target.close()
