"""Issue 17: a client that hammered a dead port reconnects soon after the server is back (gRPC's own
reconnect backoff would otherwise grow to 2 minutes), against the real server started on that port."""

from __future__ import annotations

import threading
from pathlib import Path

from scanner_app.core.client.triton import ClientOptions, OcrClient, _channel_args
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.ports import free_port


def test_channel_caps_the_reconnect_backoff() -> None:
    args = dict(_channel_args(ClientOptions(backoff_base_s=0.5, backoff_max_s=3.0)))
    assert args["grpc.initial_reconnect_backoff_ms"] == 500
    assert args["grpc.max_reconnect_backoff_ms"] == 3000


def test_client_that_hammered_a_dead_port_reconnects_once_the_server_is_up(
    model_repository: Path, tmp_path: Path
) -> None:
    port = free_port()
    # Eight retries cover the 2 s reconnect backoff with room; gRPC's default (after the ~30-60 s a
    # start takes here, 10-30 s) they would not.
    options = ClientOptions(retries=8, backoff_base_s=0.25, backoff_max_s=2.0)
    with OcrClient(f"127.0.0.1:{port}", options) as client:
        assert not client.is_live(timeout_s=1.0)  # nothing listens yet
        server = EmbeddedServer(model_repository, port, 0, 0, log_path=tmp_path / "server.log",
                                ready_timeout=300)  # fmt: skip
        ready, failed = threading.Event(), []

        def wait_ready() -> None:
            try:
                server.wait_ready()
            except Exception as exc:  # reported below
                failed.append(exc)
            ready.set()

        try:
            server.start()
            threading.Thread(target=wait_ready, daemon=True).start()
            misses = 1
            while not ready.is_set():  # the client keeps trying while the server starts
                misses += not client.is_live(timeout_s=1.0)
                ready.wait(0.25)
            assert not failed, failed
            assert misses > 1
            info = client.connect()  # within its retries: the channel is not stuck in a long backoff
            assert info.server_version
        finally:
            server.stop()
