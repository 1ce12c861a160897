"""`scanner-app serve --listen`: the TLS rule, and real TLS servers on loopback (nothing binds elsewhere)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import tritonclient.grpc as grpcclient
from tritonclient.utils import InferenceServerException

from scanner_app.commands import serve
from scanner_app.contract import PIPELINE_MODEL
from scanner_app.core.client.triton import ClientOptions, OcrClient
from scanner_app.core.errors import ServerUnavailable, TlsError
from scanner_app.samples.documents import encode, render_text_lines
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.listen import ListenRefused, ServerTls, is_loopback, plan_listen
from scanner_app.server.ports import free_port, resolve_ports
from tests.helpers.tls_certs import TlsFiles, make_tls_files

ONCE = {"retries": 0, "timeout_s": 30.0}
TEXT = "TLS 2026 OK"


@pytest.fixture(scope="module")
def tls_files(tmp_path_factory: pytest.TempPathFactory) -> TlsFiles:
    return make_tls_files(tmp_path_factory.mktemp("tls"))


def server_tls(files: TlsFiles, verify_client: bool = False) -> ServerTls:
    return ServerTls(files.server_cert, files.server_key, files.ca_cert, verify_client)


# The rule, as a function ----------------------------------------------------------------------
def test_loopback_needs_no_tls_and_keeps_everything_on_loopback() -> None:
    for address in ("127.0.0.1", "localhost", "127.0.0.2"):
        plan = plan_listen(address)
        assert set(plan.hosts.values()) == {"127.0.0.1" if address == "localhost" else address}
        assert plan.tls is None and not plan.warnings and not plan.exposed
    assert is_loopback("127.9.9.9") and not is_loopback("0.0.0.0") and not is_loopback("192.168.1.20")


@pytest.mark.parametrize("address", ["0.0.0.0", "192.168.1.20", "10.0.0.5"])
def test_non_loopback_without_tls_is_refused(address: str) -> None:
    with pytest.raises(ListenRefused, match="without TLS") as info:
        plan_listen(address)
    message = str(info.value)
    assert "--tls-cert" in message and "--tls-key" in message and "--insecure" in message, message


def test_non_loopback_with_tls_keeps_http_and_metrics_on_loopback(tls_files: TlsFiles) -> None:
    plan = plan_listen("0.0.0.0", server_tls(tls_files, verify_client=True))
    assert dict(plan.hosts) == {"gRPC": "0.0.0.0", "HTTP": "127.0.0.1", "metrics": "127.0.0.1"}
    assert plan.exposed and plan.connect_host("gRPC") == "127.0.0.1"
    assert "HTTP and metrics stay on 127.0.0.1" in plan.warnings[0]
    args = plan.triton_args({"gRPC": 8001, "HTTP": 8000, "metrics": 8002})
    assert args[:6] == [
        "--grpc-address=0.0.0.0",
        "--grpc-port=8001",
        "--http-address=127.0.0.1",
        "--http-port=8000",
        "--metrics-address=127.0.0.1",
        "--metrics-port=8002",
    ]
    assert args[6:] == [
        "--grpc-use-ssl=true",
        f"--grpc-server-cert={tls_files.server_cert}",
        f"--grpc-server-key={tls_files.server_key}",
        f"--grpc-root-cert={tls_files.ca_cert}",
        "--grpc-use-ssl-mutual=true",
    ]


def test_insecure_exposes_everything_and_warns(tls_files: TlsFiles) -> None:
    plan = plan_listen("192.168.1.20", insecure=True)
    assert set(plan.hosts.values()) == {"192.168.1.20"} and plan.tls is None
    assert plan.warnings[0].startswith("WARNING: --insecure: gRPC, HTTP and metrics listen on 192.168.1.20")
    with_tls = plan_listen("0.0.0.0", server_tls(tls_files), insecure=True)
    assert set(with_tls.hosts.values()) == {"0.0.0.0"} and with_tls.tls is not None
    assert "HTTP and metrics listen on every network interface WITHOUT TLS" in with_tls.warnings[0]


def test_bad_addresses_and_tls_files_are_refused(tls_files: TlsFiles, tmp_path: Path) -> None:
    with pytest.raises(ListenRefused, match="not an IP address"):
        plan_listen("my-gpu-box")
    with pytest.raises(ListenRefused, match="only IPv4"):
        plan_listen("::")
    with pytest.raises(ListenRefused, match="--tls-verify-client needs --tls-ca"):
        plan_listen("0.0.0.0", ServerTls(tls_files.server_cert, tls_files.server_key, None, True))
    (tmp_path / "key.txt").write_text("not a key")
    with pytest.raises(ListenRefused, match=r"--tls-key .*key\.txt is not a PEM file"):
        plan_listen("0.0.0.0", ServerTls(tls_files.server_cert, tmp_path / "key.txt"))
    with pytest.raises(ListenRefused, match=r"--tls-cert .*missing\.pem: cannot read it"):
        plan_listen("127.0.0.1", ServerTls(tmp_path / "missing.pem", tls_files.server_key))


def test_each_service_port_is_checked_on_its_own_address() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        messages: list[str] = []
        hosts = {"gRPC": "127.0.0.2", "HTTP": "127.0.0.1", "metrics": "127.0.0.1"}
        ports = resolve_ports({"gRPC": port, "HTTP": 0, "metrics": 0}, messages.append, hosts)
        assert ports["gRPC"] == port and not messages  # free on 127.0.0.2
        again = resolve_ports({"HTTP": port}, messages.append, {"HTTP": "127.0.0.1"})
    assert again["HTTP"] != port
    assert messages == [
        f"HTTP port {port} on 127.0.0.1 is already in use; using port {again['HTTP']} instead."
    ]


# The command refuses before it starts anything ------------------------------------------------
def run_serve(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "scanner_app.cli", "serve", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


def test_serve_refuses_a_network_address_without_tls(tmp_path: Path) -> None:
    # A repository that does not exist: had the command tried to start a server, it would say so.
    missing = tmp_path / "no-repository"
    result = run_serve("--listen", "0.0.0.0", "--repository", str(missing), "--log", str(tmp_path / "log"))
    assert result.returncode == 2, result
    assert "Refusing to listen on every network interface without TLS" in result.stderr
    assert "--insecure" in result.stderr and "repository" not in result.stderr
    assert not (tmp_path / "log").exists()
    half = run_serve("--listen", "0.0.0.0", "--tls-cert", str(missing))
    assert half.returncode == 2 and "TLS needs both --tls-cert and --tls-key" in half.stderr


def test_serve_insecure_warns_and_goes_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--insecure passes the rule (loudly); the missing repository then stops it before any bind."""
    parser = serve.argparse.ArgumentParser()
    serve._add_arguments(parser)
    args = parser.parse_args(["--listen", "0.0.0.0", "--insecure", "--repository", str(tmp_path / "none")])
    assert serve.run(args) == 1
    err = capsys.readouterr().err
    assert "WARNING: --insecure: gRPC, HTTP and metrics listen on every network interface WITHOUT TLS" in err
    assert f"The model repository {tmp_path / 'none'} does not exist" in err


# Real TLS servers on loopback ----------------------------------------------------------------
PAYLOAD = encode(render_text_lines([TEXT]).image)


@pytest.fixture()
def tls_server(model_repository: Path, tls_files: TlsFiles, tmp_path: Path) -> Iterator[EmbeddedServer]:
    plan = plan_listen("127.0.0.1", server_tls(tls_files))
    server = EmbeddedServer(
        model_repository, 0, 0, 0, log_path=tmp_path / "tls.log", listen=plan, ready_timeout=300
    )
    with server:
        yield server


def test_tls_server_serves_clients_with_the_ca_only(tls_server: EmbeddedServer, tls_files: TlsFiles) -> None:
    url = tls_server.grpc_url
    with OcrClient(url, ClientOptions(root_certificates=tls_files.ca_cert, **ONCE)) as client:
        assert client.connect().tls
        assert client.recognize(PAYLOAD, "tls.png").text == TEXT
    with (
        OcrClient(url, ClientOptions(**ONCE)) as plain,
        pytest.raises(ServerUnavailable, match="requires TLS"),
    ):
        plain.connect()
    other = ClientOptions(root_certificates=tls_files.other_ca_cert, **ONCE)
    with OcrClient(url, other) as wrong_ca, pytest.raises(TlsError, match="not signed by the CA"):
        wrong_ca.connect()
    # The repository API is restricted: not even a client holding the CA can unload or load a model.
    admin = grpcclient.InferenceServerClient(url, ssl=True, root_certificates=str(tls_files.ca_cert))
    with admin:
        for call in (admin.unload_model, admin.load_model):
            with pytest.raises(InferenceServerException, match="This protocol is restricted"):
                call(PIPELINE_MODEL, client_timeout=30)
        assert admin.is_model_ready(PIPELINE_MODEL, client_timeout=30)


def test_serve_command_with_client_verification(
    model_repository: Path, tls_files: TlsFiles, tmp_path: Path
) -> None:
    """The real command: TLS with client certificates demanded, on loopback, stopped by SIGTERM."""
    port = free_port()
    flags = ["--listen", "127.0.0.1", "--grpc-port", str(port), "--http-port", "0", "--metrics-port", "0"]
    tls = ["--tls-cert", str(tls_files.server_cert), "--tls-key", str(tls_files.server_key)]
    tls += ["--tls-ca", str(tls_files.ca_cert), "--tls-verify-client"]
    command = [sys.executable, "-m", "scanner_app.cli", "serve", *flags, *tls]
    command += ["--repository", str(model_repository), "--log", str(tmp_path / "serve.log")]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        lines = []
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and not any("Press Ctrl-C" in line for line in lines):
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
        summary = "".join(lines)
        assert f"gRPC     127.0.0.1:{port} (TLS, client certificate required)" in summary, summary
        url = f"127.0.0.1:{port}"
        with_ca = ClientOptions(root_certificates=tls_files.ca_cert, **ONCE)
        with OcrClient(url, with_ca) as no_cert, pytest.raises(ServerUnavailable, match="client certificate"):
            no_cert.connect()
        with_cert = ClientOptions(
            root_certificates=tls_files.ca_cert,
            private_key=tls_files.client_key,
            certificate_chain=tls_files.client_cert,
            **ONCE,
        )
        with OcrClient(url, with_cert) as client:
            assert client.connect().tls
            assert client.recognize(PAYLOAD, "mtls.png").text == TEXT
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "Stopping tritonserver" in err
