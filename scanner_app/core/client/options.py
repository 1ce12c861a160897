"""How the client talks to a server (deadlines, retries, backoff, TLS) and the one way to open a gRPC client.

Used by scanner_app.core.client.triton (OcrClient) and every other caller that opens a tritonclient client.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tritonclient.grpc as grpcclient

from scanner_app.core.client import tls as tlsmod


@dataclass(frozen=True)
class ClientOptions:
    """How the client talks to a server. TLS is on when `ssl` is set or any PEM file is given."""

    timeout_s: float = 60.0  # deadline of each call (each attempt)
    retries: int = 3  # extra attempts after UNAVAILABLE / DEADLINE_EXCEEDED
    backoff_base_s: float = 0.25  # first retry waits 0.5-1 x this, doubling up to backoff_max_s
    backoff_max_s: float = 2.0  # also caps gRPC's own reconnect backoff
    ssl: bool = False  # TLS with the system CAs when no root_certificates is given
    root_certificates: Path | None = None
    private_key: Path | None = None
    certificate_chain: Path | None = None
    ssl_target_name: str | None = None  # check the server certificate against this name

    def __post_init__(self) -> None:
        if self.timeout_s <= 0 or self.retries < 0 or self.backoff_base_s < 0:
            raise ValueError("timeout_s must be > 0, retries and backoff_base_s >= 0")
        if self.backoff_max_s < self.backoff_base_s:
            raise ValueError("backoff_max_s must be >= backoff_base_s")

    @property
    def tls(self) -> tlsmod.TlsSettings:
        files = (self.root_certificates, self.private_key, self.certificate_chain)
        return tlsmod.TlsSettings(
            enabled=self.ssl or any(f is not None for f in files),
            root_certificates=_path(self.root_certificates),
            private_key=_path(self.private_key),
            certificate_chain=_path(self.certificate_chain),
            target_name=self.ssl_target_name,
        )

    def grpc_client(self, url: str) -> grpcclient.InferenceServerClient:
        """The one way to open a tritonclient gRPC client: TLS files checked, name override, reconnects."""
        tls = self.tls
        if tls.enabled:
            tlsmod.check_files(tls)
        return grpcclient.InferenceServerClient(
            url=url,
            ssl=tls.enabled,
            root_certificates=_text(tls.root_certificates),
            private_key=_text(tls.private_key),
            certificate_chain=_text(tls.certificate_chain),
            channel_args=_channel_args(self),
        )

    def backoff(self, retry: int) -> float:
        """Seconds to wait before retry number `retry` (0-based): capped doubling, 50-100 % of it."""
        delay = min(self.backoff_max_s, self.backoff_base_s * 2.0**retry)
        return delay * random.uniform(0.5, 1.0)


def _path(value: Path | str | None) -> Path | None:
    return None if value is None else Path(value)


def _text(path: Path | None) -> str | None:
    return None if path is None else str(path)


def _channel_args(options: ClientOptions) -> list[tuple[str, Any]]:
    """tritonclient's default channel arguments, plus a short reconnect backoff and the name override."""
    keep = grpcclient.KeepAliveOptions()
    args: list[tuple[str, Any]] = [
        ("grpc.max_send_message_length", grpcclient.MAX_GRPC_MESSAGE_SIZE),
        ("grpc.max_receive_message_length", grpcclient.MAX_GRPC_MESSAGE_SIZE),
        ("grpc.keepalive_time_ms", keep.keepalive_time_ms),
        ("grpc.keepalive_timeout_ms", keep.keepalive_timeout_ms),
        ("grpc.keepalive_permit_without_calls", keep.keepalive_permit_without_calls),
        ("grpc.http2.max_pings_without_data", keep.http2_max_pings_without_data),
        # gRPC otherwise waits up to 120 s before reconnecting to a server that was down.
        ("grpc.initial_reconnect_backoff_ms", max(100, int(options.backoff_base_s * 1000))),
        ("grpc.max_reconnect_backoff_ms", max(100, int(options.backoff_max_s * 1000))),
    ]
    if options.ssl_target_name:
        args.append(("grpc.ssl_target_name_override", options.ssl_target_name))
    return args
