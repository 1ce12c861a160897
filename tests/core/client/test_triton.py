"""OcrClient and EndpointPool against real tritonserver processes: retries, contract, TLS, failover."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from scanner_app.contract import (
    ALL_MODELS,
    DETECTION_MODEL,
    PIPELINE_MODEL,
    POSTPROCESS_MODEL,
    PREPROCESS_MODEL,
)
from scanner_app.core.client.endpoints import EndpointPool
from scanner_app.core.client.triton import ClientOptions, OcrClient, TensorSpec, contract_problems
from scanner_app.core.errors import (
    ClientConfigError,
    InvalidImage,
    ServerContractError,
    ServerTimeout,
    ServerUnavailable,
    TlsError,
)
from scanner_app.load.targets import DetectionTarget
from scanner_app.samples.documents import encode, render_text_lines
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.model_fetch import default_repository
from tests.helpers.tls_certs import TlsFiles, make_tls_files, server_tls_args

FAKE_CONFIG = """\
backend: "python"
max_batch_size: 1
input [{ name: "IMAGE", data_type: TYPE_STRING, dims: [ 1 ] }]
output [
  { name: "BOXES", data_type: TYPE_FP32, dims: [ -1, 4, 2 ] },
  { name: "TEXTS", data_type: TYPE_STRING, dims: [ -1 ] },
  { name: "SCORES", data_type: %s, dims: [ -1 ] }%s
]
instance_group [{ kind: KIND_CPU, count: %d }]
"""
FAKE_MODEL = """\
import time

import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        time.sleep(DELAY_S)
        responses = []
        for request in requests:
            data = pb_utils.get_input_tensor_by_name(request, "IMAGE").as_numpy().reshape(-1)[0]
            box = np.array([[[[0, 0], [9, 0], [9, 4], [0, 4]]]], dtype=np.float32)
            responses.append(pb_utils.InferenceResponse([
                pb_utils.Tensor("BOXES", box),
                pb_utils.Tensor("TEXTS", np.array([[b"FAKE %d" % len(data)]], dtype=np.object_)),
                pb_utils.Tensor("SCORES", np.array([[0.5]], dtype=np.float32)),
                pb_utils.Tensor("IMAGE_SIZE", np.array([[5, 10]], dtype=np.int32)),
            ]))
        return responses
"""
IMAGE_SIZE_OUT = ',\n  { name: "IMAGE_SIZE", data_type: TYPE_INT32, dims: [ 2 ] }'


def fake_repository(root: Path, *, right: bool = True, delay_s: float = 0.0, instances: int = 1) -> Path:
    """A one-model repository whose ocr_pipeline is a Python model with the right (or wrong) tensors."""
    model = root / PIPELINE_MODEL
    (model / "1").mkdir(parents=True)
    config = FAKE_CONFIG % (*(("TYPE_FP32", IMAGE_SIZE_OUT) if right else ("TYPE_FP64", "")), instances)
    (model / "config.pbtxt").write_text(config)
    (model / "1" / "model.py").write_text(FAKE_MODEL.replace("DELAY_S", repr(delay_s)))
    return root


def start(repository: Path, log: Path, **kwargs: object) -> EmbeddedServer:
    server = EmbeddedServer(
        repository, grpc_port=0, http_port=0, metrics_port=0, log_path=log, onnx_models=(), **kwargs
    )
    return server.__enter__()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


FAST = ClientOptions(timeout_s=10.0, retries=3, backoff_base_s=0.2, backoff_max_s=1.0)
# The real pipeline on two servers at once: a request may wait long on a shared 2-core machine.
REAL = replace(FAST, timeout_s=120.0)


# Retries -----------------------------------------------------------------------------------
def test_backoff_doubles_with_jitter_up_to_the_cap() -> None:
    for retry, full in enumerate([0.2, 0.4, 0.8, 1.0, 1.0]):
        delays = [FAST.backoff(retry) for _ in range(50)]
        assert all(0.5 * full <= d <= full for d in delays)


def test_unavailable_is_retried_with_backoff() -> None:
    with OcrClient(f"127.0.0.1:{closed_port()}", FAST) as client:
        with pytest.raises(ServerUnavailable, match="after 4 attempts") as info:
            client.recognize(b"x", "x")
        assert client.attempts == 4  # the waits between them: test_backoff_doubles_with_jitter_up_to_the_cap
        assert not client.is_live() and not client.is_ready()
    assert not isinstance(info.value, TlsError)


def test_invalid_argument_is_not_retried(triton: EmbeddedServer, monkeypatch: pytest.MonkeyPatch) -> None:
    with OcrClient(triton.grpc_url, FAST) as client:
        calls = []
        real_infer = client._client.infer
        monkeypatch.setattr(client._client, "infer", lambda *a, **k: calls.append(1) or real_infer(*a, **k))
        with pytest.raises(InvalidImage, match="empty"):
            client.recognize(b"", "empty.png")
    assert len(calls) == 1 and client.attempts == 1


def test_deadline_exceeded_is_retried(triton: EmbeddedServer) -> None:
    options = ClientOptions(timeout_s=0.001, retries=2, backoff_base_s=0.05, backoff_max_s=0.1)
    with OcrClient(triton.grpc_url, options) as client, pytest.raises(ServerTimeout, match="3 attempts"):
        client.recognize(encode(render_text_lines(["DEADLINE"]).image), "d.png")
    assert client.attempts == 3


# Contract ----------------------------------------------------------------------------------
def test_connect_describes_the_real_pipeline(triton: EmbeddedServer) -> None:
    with OcrClient(triton.grpc_url, timeout_s=30) as client:
        assert client.is_live() and client.is_ready()
        info = client.connect()
    assert info.url == triton.grpc_url and info.server_version and not info.tls
    assert [t.name for t in info.inputs] == ["IMAGE"]
    assert info.pipeline.backend == "ensemble" and info.pipeline.max_batch_size == 1
    names = [m.name for m in info.models]  # the ensemble's steps in order, then the models they call
    assert sorted(names) == sorted(m for m in ALL_MODELS if m != PIPELINE_MODEL)
    assert names.index(PREPROCESS_MODEL) < names.index(DETECTION_MODEL) < names.index(POSTPROCESS_MODEL)
    for model in info.models:
        assert model.instance_groups and all(g.count >= 1 for g in model.instance_groups), model
    print(info)


def test_contract_problems_name_each_difference() -> None:
    inputs = [TensorSpec("IMAGE", "BYTES", (-1, 1)), TensorSpec("EXTRA", "FP32", (-1,))]
    outputs = [
        TensorSpec("BOXES", "FP32", (-1, -1, 4)),
        TensorSpec("TEXTS", "BYTES", (-1, -1)),
        TensorSpec("SCORES", "FP16", (-1, -1)),
    ]
    assert contract_problems(inputs, outputs) == [
        "output BOXES has shape [-1, -1, 4], expected [1, -1, 4, 2]",
        "output SCORES is FP16, expected FP32",
        "no output IMAGE_SIZE",
        "extra inputs ['EXTRA'] that this client does not send",
    ]


def test_missing_or_different_pipeline_is_a_contract_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    server = start(empty, tmp_path / "log-empty")
    try:
        # The model list is a restricted API of our server (scanner_app.server.listen): not named.
        missing = pytest.raises(ServerContractError, match=r"does not serve ocr_pipeline\. Start it")
        with OcrClient(server.grpc_url, FAST) as client, missing:
            client.connect()
    finally:
        server.stop()
    server = start(fake_repository(tmp_path / "repo", right=False), tmp_path / "log")
    try:
        with OcrClient(server.grpc_url, FAST) as client, pytest.raises(ServerContractError) as info:
            client.connect()
    finally:
        server.stop()
    message = str(info.value)
    assert "output SCORES is FP64, expected FP32" in message and "no output IMAGE_SIZE" in message


# TLS ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tls_files(tmp_path_factory: pytest.TempPathFactory) -> TlsFiles:
    return make_tls_files(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module")
def fake_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fake_repository(tmp_path_factory.mktemp("fake"))


@pytest.mark.parametrize("mutual", [False, True], ids=["tls", "mutual-tls"])
def test_tls(tls_files: TlsFiles, fake_repo: Path, tmp_path: Path, mutual: bool) -> None:
    server = start(fake_repo, tmp_path / "log", extra_args=server_tls_args(tls_files, mutual))
    url, once = server.grpc_url, {"retries": 0, "timeout_s": 10.0}
    with_ca = ClientOptions(root_certificates=tls_files.ca_cert, **once)
    with_cert = ClientOptions(
        root_certificates=tls_files.ca_cert,
        private_key=tls_files.client_key,
        certificate_chain=tls_files.client_cert,
        **once,
    )
    try:
        with OcrClient(url, with_cert) as client:
            assert client.connect().tls
            assert client.recognize(b"12345", "fake").text == "FAKE 5"
        with (
            OcrClient(url, ClientOptions(**once)) as plain,
            pytest.raises(ServerUnavailable, match="requires TLS"),
        ):
            plain.connect()
        other = ClientOptions(root_certificates=tls_files.other_ca_cert, **once)
        with OcrClient(url, other) as wrong_ca, pytest.raises(TlsError, match="not signed by the CA") as info:
            wrong_ca.connect()
        print(f"\nwrong CA: {info.value}")
        with OcrClient(url, ClientOptions(ssl=True, **once)) as system, pytest.raises(TlsError):
            system.connect()
        renamed = ClientOptions(root_certificates=tls_files.ca_cert, ssl_target_name="example.com", **once)
        with (
            OcrClient(url, renamed) as client,
            pytest.raises(TlsError, match=r"not issued for 'example\.com'"),
        ):
            client.connect()
        # A TLS failure is a setup mistake, not an outage: no caller has to tell it from ServerUnavailable.
        assert not issubclass(TlsError, ServerUnavailable)
        # The load engine's clients come from the same factory (ClientOptions.grpc_client): the name
        # override and the client certificate reach them, and their errors name the model they called.
        image = [encode(render_text_lines(["TLS 1"]).image, "PNG")]
        with pytest.raises(TlsError, match=r"not issued for 'example\.com'"):
            _send_once(DetectionTarget(url, image, renamed))
        with pytest.raises(ServerContractError, match="has no model text_detection"):
            _send_once(DetectionTarget(url, image, with_cert))
        with OcrClient(url, with_ca) as no_cert:
            if mutual:
                with pytest.raises(ServerUnavailable, match="requires a client certificate") as info:
                    no_cert.connect()
                print(f"no client certificate: {info.value}")
            else:
                assert no_cert.connect().tls
    finally:
        server.stop()


def _send_once(target: DetectionTarget) -> None:
    try:
        target.send(0)
    finally:
        target.close()


def test_unreadable_tls_files_are_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ClientConfigError, match="Cannot read the CA certificate"):
        OcrClient("127.0.0.1:1", ClientOptions(root_certificates=tmp_path / "missing.pem"))
    (tmp_path / "key.pem").write_text("not a key")
    with pytest.raises(ClientConfigError, match="needs both files"):
        OcrClient("127.0.0.1:1", ClientOptions(private_key=tmp_path / "key.pem"))


# EndpointPool ------------------------------------------------------------------------------
PAYLOAD = encode(render_text_lines(["POOL TEST 4711"]).image)


def run_requests(
    pool: EndpointPool,
    count: int,
    threads: int,
    after: int = 0,
    then: Callable[[], object] | None = None,
    payload: bytes = PAYLOAD,
) -> list[str]:
    """`count` requests from `threads` threads; calls `then()` once `after` of them have returned."""
    done = 0
    lock = threading.Lock()

    def one(_: int) -> str:
        nonlocal done
        text = pool.recognize(payload, "pool.png").text
        with lock:
            done += 1
            if done == after and then is not None:
                then()
        return text

    with ThreadPoolExecutor(max_workers=threads) as executor:
        return list(executor.map(one, range(count)))


def test_pool_rejects_bad_url_lists() -> None:
    with pytest.raises(ValueError):
        EndpointPool([])
    with pytest.raises(ValueError):
        EndpointPool(["a:1", "a:1"])


def test_pool_with_no_live_server_names_every_url() -> None:
    urls = [f"127.0.0.1:{closed_port()}", f"127.0.0.1:{closed_port()}"]
    with EndpointPool(urls, ClientOptions(retries=1, backoff_base_s=0.05)) as pool:
        with pytest.raises(ServerUnavailable) as info:
            pool.recognize(b"x")
        assert all(not s.healthy and s.failed == 1 for s in pool.stats().values())
    assert all(url in str(info.value) for url in urls)


def test_pool_loses_no_request_when_a_server_stops_gracefully(tmp_path: Path) -> None:
    """While Triton shuts down it answers NOT_FOUND 'no available versions': that must fail over too."""
    repository = fake_repository(tmp_path / "repo", delay_s=0.2, instances=4)
    servers = [start(repository, tmp_path / f"{i}.log") for i in range(2)]
    try:
        with EndpointPool([s.grpc_url for s in servers], FAST) as pool:
            stopper = threading.Thread(target=servers[1].stop)
            texts = run_requests(pool, 60, 8, after=10, then=stopper.start, payload=b"abc")
            stopper.join()
            stats = pool.stats()
    finally:
        for server in servers:
            server.stop()
    print(f"\n{stats}")
    assert texts == ["FAKE 3"] * 60
    assert not stats[servers[1].grpc_url].healthy


def test_pool_spreads_the_load(two_servers: list[EmbeddedServer]) -> None:
    with EndpointPool([s.grpc_url for s in two_servers], REAL) as pool:
        assert len(pool.connect()) == 2
        started = time.monotonic()
        texts = run_requests(pool, 40, 8)
        stats = pool.stats()
    print(f"\n40 requests on 2 servers: {time.monotonic() - started:.1f} s, {stats}")
    assert texts == ["POOL TEST 4711"] * 40
    for s in stats.values():
        assert 12 <= s.sent <= 28 and s.ok == s.sent and s.outstanding == 0, s


def test_pool_loses_no_request_when_a_server_dies_and_takes_it_back(
    two_servers: list[EmbeddedServer], tmp_path: Path
) -> None:
    alive, victim = two_servers
    url = victim.grpc_url
    assert victim.pid is not None
    with EndpointPool([alive.grpc_url, url], REAL, health_interval_s=1.0) as pool:
        texts = run_requests(pool, 40, 8, after=8, then=lambda: os.killpg(victim.pid, signal.SIGKILL))
        assert texts == ["POOL TEST 4711"] * 40
        victim.stop()
        dead = pool.stats()[url]
        print(f"\nafter the kill: {pool.stats()}")
        assert not dead.healthy and dead.sent < 40 and dead.ok + dead.failed == dead.sent
        run_requests(pool, 6, 2)
        assert pool.stats()[url].sent == dead.sent  # skipped while dead
        port = int(url.rsplit(":", 1)[1])
        restarted = EmbeddedServer(
            default_repository(), grpc_port=port, http_port=0, metrics_port=0, log_path=tmp_path / "again.log"
        )
        with restarted:
            assert restarted.grpc_url == url, "the old port was taken meanwhile"
            # The pool's own health checks (every second) take it back; waits on a condition, not a poll.
            assert pool.wait_for_health(url, timeout_s=60), pool.stats()[url]
            back = pool.stats()[url]
            run_requests(pool, 8, 4)
            assert pool.stats()[url].ok > back.ok
