"""Several Triton servers behind one `recognize`: least outstanding requests, failover, health checks.

A request that fails because its server went away (ServerUnavailable) is sent again to another
server, so no request is lost while at least one server lives. The failed server is marked dead
and skipped until the background health check (is_ready every `health_interval_s`) sees it ready.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from scanner_app.core.client.triton import ClientOptions, OcrClient, PipelineInfo
from scanner_app.core.errors import ServerTimeout, ServerUnavailable
from scanner_app.core.results import PageResult


@dataclass(frozen=True)
class EndpointStats:
    """A snapshot of one endpoint's counters (sent = ok + failed + outstanding)."""

    url: str
    healthy: bool
    outstanding: int
    sent: int
    ok: int
    failed: int
    last_error: str


class _Endpoint:
    def __init__(self, url: str, options: ClientOptions) -> None:
        self.url = url
        self.client = OcrClient(url, options)
        self.healthy = True
        self.outstanding = self.sent = self.ok = self.failed = 0
        self.last_error = ""

    def snapshot(self) -> EndpointStats:
        return EndpointStats(
            self.url, self.healthy, self.outstanding, self.sent, self.ok, self.failed, self.last_error
        )


class EndpointPool:
    """One shared OcrClient per server URL; `recognize` as OcrClient's, safe to call from many threads.

    Each endpoint's client makes a single attempt per request (retries=0): the pool itself moves a
    failed request to another endpoint at once. When no endpoint is left it waits with the options'
    backoff, probes the dead endpoints, and tries again, `options.retries` times, before it gives
    up. A timeout (ServerTimeout) moves the request on without marking the endpoint dead; other
    errors (a refused image, a failure inside the pipeline) are raised as they are.
    """

    def __init__(
        self,
        urls: Sequence[str],
        options: ClientOptions | None = None,
        *,
        health_interval_s: float = 2.0,
        probe_timeout_s: float = 2.0,
    ) -> None:
        if not urls:
            raise ValueError("EndpointPool needs at least one URL")
        if len(set(urls)) != len(urls):
            raise ValueError(f"duplicate URLs in {list(urls)}")
        self.options = options or ClientOptions()
        self.health_interval_s = health_interval_s
        self.probe_timeout_s = probe_timeout_s
        single = replace(self.options, retries=0)
        self._endpoints = [_Endpoint(url, single) for url in urls]
        self._lock = threading.Lock()
        self._health_changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._health_loop, name="endpoint-health", daemon=True)
        self._thread.start()

    @property
    def urls(self) -> tuple[str, ...]:
        return tuple(e.url for e in self._endpoints)

    def stats(self) -> dict[str, EndpointStats]:
        """Counters and health of every endpoint, by URL."""
        with self._lock:
            return {e.url: e.snapshot() for e in self._endpoints}

    def close(self) -> None:
        """Stop the health checks and close every connection."""
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(self.probe_timeout_s * len(self._endpoints) + 1.0)
        for endpoint in self._endpoints:
            endpoint.client.close()

    def __enter__(self) -> EndpointPool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def connect(self) -> tuple[PipelineInfo, ...]:
        """connect() every endpoint; unreachable ones are marked dead. ServerUnavailable if none is up.

        A reachable server with the wrong pipeline raises ServerContractError: that is a setup
        mistake to report, not an outage to route around.
        """
        infos: list[PipelineInfo] = []
        errors: list[str] = []
        for endpoint in self._endpoints:
            try:
                infos.append(endpoint.client.connect())
            except ServerUnavailable as exc:
                self._set_health(endpoint, False, str(exc))
                errors.append(f"{endpoint.url}: {exc}")
            else:
                self._set_health(endpoint, True)
        if not infos:
            raise ServerUnavailable(f"none of the servers is available: {'; '.join(errors)}")
        return tuple(infos)

    def recognize(self, encoded: bytes, name: str = "") -> PageResult:
        """Recognise one image on the healthy endpoint with the fewest requests in flight."""
        tried: set[str] = set()
        errors: dict[str, str] = {}
        rounds = 0
        while True:
            endpoint = self._acquire(tried)
            if endpoint is None:
                if rounds >= self.options.retries or self._stop.is_set():
                    detail = "; ".join(f"{url}: {errors.get(url) or 'marked dead'}" for url in self.urls)
                    raise ServerUnavailable(
                        f"none of the servers {', '.join(self.urls)} is available ({detail})"
                    )
                time.sleep(self.options.backoff(rounds))
                rounds += 1
                self.check_health(include_healthy=False)
                tried.clear()
                continue
            try:
                page = endpoint.client.recognize(encoded, name)
            except ServerUnavailable as exc:
                # A timeout says "busy", not "gone": try elsewhere but keep the endpoint in use.
                self._release(endpoint, str(exc), dead=not isinstance(exc, ServerTimeout))
                tried.add(endpoint.url)
                errors[endpoint.url] = str(exc)
                continue
            except BaseException as exc:
                self._release(endpoint, str(exc) or type(exc).__name__, dead=False)
                raise
            self._release(endpoint, None, dead=False)
            return page

    def _acquire(self, tried: set[str]) -> _Endpoint | None:
        with self._lock:
            candidates = [e for e in self._endpoints if e.healthy and e.url not in tried]
            if not candidates:
                return None
            endpoint = min(candidates, key=lambda e: (e.outstanding, e.sent))
            endpoint.outstanding += 1
            endpoint.sent += 1
            return endpoint

    def _release(self, endpoint: _Endpoint, error: str | None, *, dead: bool) -> None:
        with self._lock:
            endpoint.outstanding -= 1
            if error is None:
                endpoint.ok += 1
                return
            endpoint.failed += 1
            endpoint.last_error = error
            if dead:
                endpoint.healthy = False

    def _set_health(self, endpoint: _Endpoint, healthy: bool, error: str = "") -> None:
        with self._lock:
            endpoint.healthy = healthy
            if error:
                endpoint.last_error = error
            self._health_changed.notify_all()

    def wait_for_health(self, url: str, healthy: bool = True, timeout_s: float | None = None) -> bool:
        """Block until the endpoint `url` is marked `healthy` (the health checks run meanwhile);
        False when `timeout_s` passed first."""
        endpoint = next(e for e in self._endpoints if e.url == url)
        with self._lock:
            return self._health_changed.wait_for(lambda: endpoint.healthy == healthy, timeout_s)

    def check_health(self, include_healthy: bool = False) -> None:
        """Probe the dead endpoints (all of them with `include_healthy`) and update their health."""
        for endpoint in self._endpoints:
            if self._stop.is_set():
                return
            if endpoint.healthy and not include_healthy:
                continue
            ready = endpoint.client.is_ready(timeout_s=self.probe_timeout_s)
            error = "" if ready else str(endpoint.client.last_error or "not ready")
            self._set_health(endpoint, ready, error)

    def _health_loop(self) -> None:
        while not self._stop.wait(self.health_interval_s):
            self.check_health(include_healthy=False)
