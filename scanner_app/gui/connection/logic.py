"""Qt-free parts of the server connection: URL parsing, what to start, probes and state messages.

Everything here is plain Python so that it can be tested without a display; the Qt wrapper in
``connection.py`` only runs these functions off the GUI thread and emits their results.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Literal

from scanner_app.core.client.triton import ClientOptions, OcrClient, PipelineInfo
from scanner_app.core.errors import (
    ScannerError,
    ServerUnavailable,
    TlsError,
)


class ConnectionStatus(str, Enum):
    """Where the connection stands; compares equal to its value ("ready" == ConnectionStatus.READY)."""

    IDLE = "idle"
    STARTING = "starting"
    READY = "ready"
    DOWN = "down"  # an outage: a later check may find the server again
    ERROR = "error"  # a setup mistake (bad TLS files, wrong server)

    def __str__(self) -> str:
        return self.value


PROBE_TIMEOUT_S = 3.0  # deadline of a liveness/readiness probe or a connect() call
_SCHEME = re.compile(r"^(grpcs?|https?)://", re.IGNORECASE)


@dataclass(frozen=True)
class ConnectionState:
    """Where the app's server connection stands."""

    urls: tuple[str, ...]  # gRPC endpoints in use ("127.0.0.1:8001")
    status: ConnectionStatus  # a plain value ("ready") is converted
    message: str  # human text for the status bar
    embedded: bool = False  # the app started its own server
    server_version: str = ""
    http_url: str = ""  # embedded server's HTTP URL when known
    metrics_url: str = ""  # embedded server's metrics URL when known

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", ConnectionStatus(self.status))  # ValueError when unknown


def parse_urls(value: str | Sequence[str] | None) -> tuple[str, ...]:
    """Endpoints from text (one per line, or separated by commas/spaces) or a list; deduplicated.

    A ``grpc://`` (or http) scheme and a trailing slash are dropped: tritonclient wants host:port.
    """
    if value is None:
        return ()
    parts = re.split(r"[\s,;]+", value) if isinstance(value, str) else [str(v) for v in value]
    urls: list[str] = []
    for part in parts:
        url = _SCHEME.sub("", part.strip()).rstrip("/")
        if url and url not in urls:
            urls.append(url)
    return tuple(urls)


def url_problem(url: str) -> str | None:
    """Why ``url`` is not a usable host:port, or None when it is."""
    host, sep, port = url.rpartition(":")
    if not sep or not host:
        return f"{url!r} needs a port, like 127.0.0.1:8001"
    if host.startswith("[") != host.endswith("]"):
        return f"{url!r} has an unbalanced IPv6 bracket"
    if not port.isdigit() or not 0 < int(port) < 65536:
        return f"{url!r} has no valid port (1-65535)"
    return None


StartPlan = Literal["connect", "embedded", "idle"]


def plan_start(urls: Sequence[str], start_embedded_if_unconfigured: bool) -> StartPlan:
    """What start() does: "connect" to configured endpoints, start the "embedded" server, or stay "idle"."""
    if urls:
        return "connect"
    return "embedded" if start_embedded_if_unconfigured else "idle"


def options_from_settings(
    ca: object, cert: object, key: object, base: ClientOptions | None = None
) -> ClientOptions:
    """ClientOptions with the TLS files kept in settings (QSettings values or field texts; None and
    empty strings mean none)."""

    def path(value: object) -> Path | None:
        text = "" if value is None else str(value)
        return Path(text) if text.strip() else None

    return replace(
        base or ClientOptions(),
        root_certificates=path(ca),
        certificate_chain=path(cert),
        private_key=path(key),
    )


def probe_options(options: ClientOptions) -> ClientOptions:
    """The same TLS settings with a short deadline and no retries, for probes and connect()."""
    return replace(options, timeout_s=min(options.timeout_s, PROBE_TIMEOUT_S), retries=0,
                   backoff_base_s=0.0, backoff_max_s=max(0.1, options.backoff_base_s))  # fmt: skip


def status_of_error(exc: BaseException) -> ConnectionStatus:
    """Status "down" for an outage (a later check may find the server again), "error" for a setup mistake."""
    if isinstance(exc, ServerUnavailable) and not isinstance(exc, TlsError):
        return ConnectionStatus.DOWN
    return ConnectionStatus.ERROR


def cause_text(exc: BaseException | str) -> str:
    """The cause as people read it: the exception's message, or its type when it has none."""
    return exc if isinstance(exc, str) else (str(exc) or type(exc).__name__)


@dataclass(frozen=True)
class EndpointReport:
    """What one endpoint answered to a probe."""

    url: str
    live: bool
    ready: bool
    info: PipelineInfo | None = None  # version and model configs when the pipeline checked out
    error: str = ""


def probe_endpoint(url: str, options: ClientOptions) -> EndpointReport:
    """Blocking: live? ready? then connect() for the version and model configs. Never raises."""
    try:
        client = OcrClient(url, probe_options(options))
    except ScannerError as exc:
        return EndpointReport(url, False, False, error=str(exc))
    try:
        live = client.is_live()
        ready = live and client.is_ready()
        if not live:
            return EndpointReport(url, False, False, error=cause_text(client.last_error or "no answer"))
        try:
            return EndpointReport(url, live, ready, info=client.connect())
        except ScannerError as exc:
            return EndpointReport(url, live, ready, error=cause_text(exc))
    finally:
        client.close()


def probe_endpoints(urls: Sequence[str], options: ClientOptions) -> tuple[EndpointReport, ...]:
    """probe_endpoint for each URL, in order (blocking)."""
    return tuple(probe_endpoint(url, options) for url in urls)


def unhealthy_status(urls: Sequence[str], unhealthy: dict[str, str]) -> ConnectionStatus:
    """Status "ready" while at least one endpoint answers, "down" when none of them does."""
    return ConnectionStatus.DOWN if urls and len(unhealthy) >= len(urls) else ConnectionStatus.READY
