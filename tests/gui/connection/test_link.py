"""ServerConnection against the real embedded Triton: ready, down, back, embedded start and stop."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from scanner_app.core.client.triton import ClientOptions
from scanner_app.core.errors import ServerTimeout, ServerUnavailable, TlsError
from scanner_app.gui.connection.link import ConnectionState, ServerConnection
from scanner_app.gui.connection.logic import (
    options_from_settings,
    parse_urls,
    plan_start,
    status_of_error,
    unhealthy_status,
    url_problem,
)
from scanner_app.samples.documents import distinct_receipts, encode
from scanner_app.server.ports import free_port
from tests.helpers.tcp_relay import TcpRelay

# Qt-free logic ----------------------------------------------------------------------------------


def test_parse_urls_accepts_lines_commas_and_schemes() -> None:
    text = "grpc://127.0.0.1:8001/\n 127.0.0.1:8003, 127.0.0.1:8001\n\n"
    assert parse_urls(text) == ("127.0.0.1:8001", "127.0.0.1:8003")
    assert parse_urls(["a:1", " b:2 ", ""]) == ("a:1", "b:2")
    assert parse_urls(None) == ()


def test_url_problem_names_the_fault() -> None:
    assert url_problem("127.0.0.1:8001") is None
    assert url_problem("[::1]:8001") is None
    assert "port" in (url_problem("localhost") or "")
    assert "1-65535" in (url_problem("host:99999") or "")


def test_plan_start_and_statuses() -> None:
    assert plan_start(("a:1",), True) == "connect"
    assert plan_start((), True) == "embedded"
    assert plan_start((), False) == "idle"
    assert status_of_error(ServerUnavailable("x")) == "down"
    assert status_of_error(ServerTimeout("x")) == "down"
    assert status_of_error(TlsError("x")) == "error"
    assert unhealthy_status(("a:1", "b:2"), {"a:1": "gone"}) == "ready"
    assert unhealthy_status(("a:1", "b:2"), {"a:1": "gone", "b:2": "gone"}) == "down"
    with pytest.raises(ValueError):
        ConnectionState((), "sleepy", "")


def test_options_from_settings_keeps_tls_files(tmp_path: Path) -> None:
    options = options_from_settings(str(tmp_path / "ca.pem"), "", None, ClientOptions(timeout_s=7))
    assert options.root_certificates == tmp_path / "ca.pem"
    assert options.certificate_chain is None and options.private_key is None
    assert options.timeout_s == 7 and options.tls.enabled


# Against the real server ------------------------------------------------------------------------


def wait_status(qtbot, connection: ServerConnection, status: str, timeout_ms: int = 60_000) -> None:
    qtbot.waitUntil(lambda: connection.state.status == status, timeout=timeout_ms)


def test_ready_with_version_models_and_a_working_recognizer(qtbot, triton) -> None:
    connection = ServerConnection(urls=[triton.grpc_url])
    seen: list[ConnectionState] = []
    connection.state_changed.connect(seen.append)
    try:
        with qtbot.waitSignal(connection.info_changed, timeout=60_000) as info:
            connection.start()
        state = connection.state
        assert state.status == "ready" and state.urls == (triton.grpc_url,)
        assert state.server_version and triton.grpc_url in state.message and not state.embedded
        assert [s.status for s in seen][:2] == ["starting", "ready"]
        names = {m.name for m in info.args[0][0].models}
        assert {"text_detection", "text_recognition"} <= names
        recognizer = connection.recognizer()
        assert recognizer is not None
        pages = []
        worker = threading.Thread(target=lambda: pages.append(
            recognizer.recognize(encode(distinct_receipts(1, seed=3)[0].image), "r.png")))  # fmt: skip
        worker.start()
        qtbot.waitUntil(lambda: not worker.is_alive(), timeout=60_000)
        assert pages and len(pages[0].lines) >= 5
    finally:
        connection.shutdown()
    assert connection.recognizer() is None


def test_down_names_the_url_and_the_gui_thread_keeps_running(qtbot) -> None:
    url = f"127.0.0.1:{free_port()}"  # nothing listens there
    connection = ServerConnection(urls=[url], start_embedded_if_unconfigured=False, health_interval_ms=200)
    try:
        connection.start()
        assert connection.state.status == "starting"  # start() returned at once
        wait_status(qtbot, connection, "down", 30_000)
        with qtbot.assertNotEmitted(connection.state_changed, wait=600):
            pass  # a few liveness checks while down change nothing
        assert url in connection.state.message and "down" in connection.state.message
        assert connection.recognizer() is None
        assert connection.embedded_pid is None  # nothing started on its own
    finally:
        connection.shutdown()


def test_goes_down_and_comes_back(qtbot, triton) -> None:
    relay = TcpRelay(triton.grpc_url)  # not started: the server is "down"
    connection = ServerConnection(
        urls=[relay.url], start_embedded_if_unconfigured=False, health_interval_ms=300
    )
    try:
        connection.start()
        wait_status(qtbot, connection, "down", 30_000)
        relay.start()
        wait_status(qtbot, connection, "ready", 30_000)
        assert connection.state.server_version
        recognizer = connection.recognizer()
        relay.stop()
        wait_status(qtbot, connection, "down", 30_000)
        assert relay.url in connection.state.message
        relay.start()
        wait_status(qtbot, connection, "ready", 30_000)
        assert connection.recognizer() is recognizer  # the same object follows reconnects
    finally:
        connection.shutdown()
        relay.stop()


def test_set_endpoints_saves_settings_and_reconnects(qtbot, triton, tmp_path: Path) -> None:
    connection = ServerConnection(urls=[f"127.0.0.1:{free_port()}"], start_embedded_if_unconfigured=False)
    try:
        connection.start()
        wait_status(qtbot, connection, "down", 30_000)
        connection.set_endpoints([triton.grpc_url])
        wait_status(qtbot, connection, "ready")
        assert parse_urls(QSettings().value("server/urls")) == (triton.grpc_url,)
        assert QSettings().value("server/tls_ca") == ""
        missing = tmp_path / "missing-ca.pem"
        connection.set_endpoints([triton.grpc_url], ClientOptions(root_certificates=missing))
        wait_status(qtbot, connection, "error")
        assert str(missing) in connection.state.message
        assert QSettings().value("server/tls_ca") == str(missing)
    finally:
        connection.shutdown()


def test_endpoints_saved_are_read_back_by_a_new_connection(qtbot, tmp_path: Path) -> None:
    ca = tmp_path / "ca.pem"
    first = ServerConnection(urls=[], start_embedded_if_unconfigured=False)
    first.set_endpoints(["127.0.0.1:1", "127.0.0.1:2"], ClientOptions(root_certificates=ca))
    first.shutdown()
    second = ServerConnection(start_embedded_if_unconfigured=False)  # urls=None: from QSettings
    try:
        assert second.configured_urls == ("127.0.0.1:1", "127.0.0.1:2")
        assert second.options.root_certificates == ca and second.options.private_key is None
    finally:
        second.shutdown()


def test_unconfigured_starts_the_embedded_server_and_shutdown_stops_it(qtbot, model_repository) -> None:
    connection = ServerConnection(health_interval_ms=500)  # empty settings: nothing configured
    lines: list[str] = []
    connection.log_line.connect(lines.append)
    try:
        connection.start()
        assert connection.state.status == "starting" and "embedded" in connection.state.message.lower()
        wait_status(qtbot, connection, "ready", 180_000)
        state, first = connection.state, connection.embedded_pid
        assert state.embedded and first and "Embedded Triton started on" in state.message
        assert state.http_url.startswith("http://127.0.0.1:") and state.metrics_url.endswith("/metrics")
        qtbot.waitUntil(lambda: any("Started GRPCInferenceService" in line for line in lines), timeout=10_000)
        recognizer = connection.recognizer()

        connection.stop_embedded()  # the Stop button
        wait_status(qtbot, connection, "idle", 60_000)
        assert connection.embedded_pid is None and not os.path.exists(f"/proc/{first}")
        assert "stopped" in connection.state.message and connection.recognizer() is None
        with qtbot.assertNotEmitted(connection.state_changed, wait=1200):
            pass  # liveness checks while idle start nothing
        assert connection.state.status == "idle"

        connection.start_embedded()  # the Start button
        wait_status(qtbot, connection, "ready", 180_000)
        second = connection.embedded_pid
        assert second and second != first and connection.recognizer() is recognizer
    finally:
        connection.shutdown()
    assert not os.path.exists(f"/proc/{second}"), "the embedded server outlived shutdown()"
