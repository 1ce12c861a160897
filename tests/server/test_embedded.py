"""The embedded Triton launcher, run against a tiny self-made Python-backend repository."""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from scanner_app.contract import DETECTION_MODEL, ONNX_MODELS, RECOGNITION_MODEL
from scanner_app.server import shm, triton_install
from scanner_app.server.embedded import EmbeddedServer, ServerStartError, check_repository

READY_S = 120.0


def _triton_available() -> bool:
    try:
        triton_install.find_triton()
    except ServerStartError:
        return False
    return True


needs_triton = pytest.mark.skipif(not _triton_available(), reason="no bundled tritonserver here")

LOCAL_CONFIG = """\
backend: "python"
max_batch_size: 0
input [{ name: "INPUT" data_type: TYPE_FP32 dims: [-1] }]
output [{ name: "OUTPUT" data_type: TYPE_FP32 dims: [-1] }]
instance_group [{ kind: KIND_CPU count: 1 }]
"""
# The production config names a backend this machine lacks: loading it would fail the server,
# so a ready server proves that --model-config-name=local picked configs/local.pbtxt.
PRODUCTION_CONFIG = 'platform: "onnxruntime_onnx"\nmax_batch_size: 0\n'
ECHO_MODEL = """\
import numpy as np
import triton_python_backend_utils as pb_utils

import scanner_app.contract  # the app's package must be importable by the server's Python


class TritonPythonModel:
    def initialize(self, args):
        {init}

    def execute(self, requests):
        responses = []
        for request in requests:
            x = pb_utils.get_input_tensor_by_name(request, "INPUT").as_numpy()
            out = pb_utils.Tensor("OUTPUT", np.ascontiguousarray(x, dtype=np.float32))
            responses.append(pb_utils.InferenceResponse([out]))
        return responses
"""


def make_repository(root: Path, *, with_onnx: bool = True, init: str = "pass") -> Path:
    """Echo models named like the ONNX models, each with a (dummy) model.onnx beside model.py."""
    for name in ONNX_MODELS:
        model = root / name
        (model / "1").mkdir(parents=True)
        (model / "configs").mkdir()
        (model / "config.pbtxt").write_text(PRODUCTION_CONFIG)
        (model / "configs" / "local.pbtxt").write_text(LOCAL_CONFIG)
        (model / "1" / "model.py").write_text(ECHO_MODEL.replace("{init}", init))
        if with_onnx:
            (model / "1" / "model.onnx").write_bytes(b"not used by the echo model")
    return root


def stubs_of(pid: int) -> list[shm.ProcInfo]:
    """The Python backend stub processes below `pid` (comm is cut to 15 characters)."""
    return [p for p in shm.descendants(pid) if p.comm.startswith("triton_python")]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repository(tmp_path_factory.mktemp("repo"))


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


def new_server(repo: Path, cache_dir: Path, log: Path, **kwargs: object) -> EmbeddedServer:
    kwargs = {"grpc_port": 0, "http_port": 0, "metrics_port": 0, **kwargs}
    return EmbeddedServer(repo, log_path=log, cache_dir=cache_dir, ready_timeout=READY_S, **kwargs)


@pytest.fixture(scope="module")
def busy_server(
    repo: Path, cache_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[EmbeddedServer, list[str], int]]:
    """A running server whose requested gRPC port was taken by a listening socket."""
    messages: list[str] = []
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        busy_port = busy.getsockname()[1]
        log = tmp_path_factory.mktemp("logs") / "busy.log"
        started = time.monotonic()
        with new_server(repo, cache_dir, log, grpc_port=busy_port, on_message=messages.append) as server:
            print(f"ready after {time.monotonic() - started:.1f} s")
            yield server, messages, busy_port


@needs_triton
def test_ready_on_loopback_with_models(busy_server: tuple[EmbeddedServer, list[str], int]) -> None:
    server, _, _ = busy_server
    assert server.is_running() and server.pid
    assert server.ready_models() == sorted(ONNX_MODELS)
    assert server.grpc_url == f"127.0.0.1:{server.ports['gRPC']}"
    assert server.http_url == f"http://127.0.0.1:{server.ports['HTTP']}"
    assert server.metrics_url == f"http://127.0.0.1:{server.ports['metrics']}/metrics"
    args = Path(f"/proc/{server.pid}/cmdline").read_bytes().decode().split("\0")
    for flag in ("--grpc-address=127.0.0.1", "--http-address=127.0.0.1", "--metrics-address=127.0.0.1"):
        assert flag in args
    env = dict(
        item.split("=", 1)
        for item in Path(f"/proc/{server.pid}/environ").read_text().split("\0")
        if "=" in item
    )
    assert env["PATH"].split(os.pathsep)[0] == str(Path(sys.executable).absolute().parent)
    assert "Started GRPCInferenceService" in server.log_path.read_text()
    assert len(stubs_of(server.pid)) == len(ONNX_MODELS)


@needs_triton
def test_busy_port_replaced_and_reported(busy_server: tuple[EmbeddedServer, list[str], int]) -> None:
    server, messages, busy_port = busy_server
    assert server.ports["gRPC"] != busy_port
    assert any(str(busy_port) in m and str(server.ports["gRPC"]) in m for m in messages), messages


@needs_triton
def test_http_and_grpc_inference(busy_server: tuple[EmbeddedServer, list[str], int]) -> None:
    import tritonclient.grpc as grpcclient
    import tritonclient.http as httpclient

    server, _, _ = busy_server
    data = np.arange(5, dtype=np.float32)
    http = httpclient.InferenceServerClient(url=server.http_url.removeprefix("http://"))
    inp = httpclient.InferInput("INPUT", list(data.shape), "FP32")
    inp.set_data_from_numpy(data)
    result = http.infer(DETECTION_MODEL, [inp], outputs=[httpclient.InferRequestedOutput("OUTPUT")])
    np.testing.assert_array_equal(result.as_numpy("OUTPUT"), data)
    http.close()
    grpc = grpcclient.InferenceServerClient(url=server.grpc_url)
    ginp = grpcclient.InferInput("INPUT", list(data.shape), "FP32")
    ginp.set_data_from_numpy(data * 2)
    np.testing.assert_array_equal(grpc.infer(RECOGNITION_MODEL, [ginp]).as_numpy("OUTPUT"), data * 2)
    grpc.close()


def _assert_nothing_left(stubs: list[shm.ProcInfo], regions: set[Path]) -> None:
    assert stubs and regions  # the test saw something to clean up
    assert not [p for p in stubs if shm.still_running(p)]
    assert not [r for r in regions if r.exists()]


@needs_triton
def test_stop_leaves_no_stub_and_no_shm(repo: Path, cache_dir: Path, tmp_path: Path) -> None:
    server = new_server(repo, cache_dir, tmp_path / "stop.log")
    with server:
        stubs = stubs_of(server.pid)
        regions = {
            shm.SHM_DIR / n for p in [server.pid, *(s.pid for s in stubs)] for n in shm.regions_used_by(p)
        }
        started = time.monotonic()
    print(f"stopped in {time.monotonic() - started:.1f} s")
    assert server.pid is None and not server.is_running()
    _assert_nothing_left(stubs, regions)
    server.stop()  # again: a no-op


@needs_triton
def test_stop_after_server_was_killed(repo: Path, cache_dir: Path, tmp_path: Path) -> None:
    """SIGKILL leaves stubs and shm regions behind: stop() must still clear them."""
    server = new_server(repo, cache_dir, tmp_path / "killed.log")
    with server:
        stubs = stubs_of(server.pid)
        regions = {shm.SHM_DIR / n for s in stubs for n in shm.regions_used_by(s.pid)}
        os.kill(server.pid, signal.SIGKILL)
        server.wait(30)
    _assert_nothing_left(stubs, regions)


@needs_triton
def test_failing_model_reports_log_tail(cache_dir: Path, tmp_path: Path) -> None:
    bad = make_repository(tmp_path / "bad", init="raise RuntimeError('broken model xyzzy')")
    server = new_server(bad, cache_dir, tmp_path / "bad.log")
    with pytest.raises(ServerStartError, match="exited with code") as err:
        server.__enter__()
    assert "xyzzy" in str(err.value)
    assert server.pid is None


def test_cleanup_stale_shm_removes_only_unused_regions() -> None:
    stale = shm.SHM_DIR / f"{shm.REGION_PREFIX}test_{uuid.uuid4()}"
    held = shm.SHM_DIR / f"{shm.REGION_PREFIX}test_{uuid.uuid4()}"
    stale.write_bytes(b"\0" * 64)
    held.write_bytes(b"\0" * 64)
    try:
        with open(held, "rb"):  # a live process (this one) has it open
            removed = shm.cleanup_stale_shm()
            assert stale in removed and not stale.exists()
            assert held.exists() and held not in removed
        assert shm.cleanup_stale_shm([held]) == [held]
    finally:
        stale.unlink(missing_ok=True)
        held.unlink(missing_ok=True)


def test_missing_models_error(tmp_path: Path) -> None:
    repo = make_repository(tmp_path / "repo", with_onnx=False)
    with pytest.raises(ServerStartError, match="scanner-app models fetch") as err:
        check_repository(repo)
    assert f"{DETECTION_MODEL}/1/model.onnx" in str(err.value)
    with pytest.raises(ServerStartError, match="does not exist"):
        check_repository(tmp_path / "nowhere")
    if _triton_available():
        with pytest.raises(ServerStartError, match="scanner-app models fetch"):
            EmbeddedServer(repo, 0, 0, 0, log_path=tmp_path / "x.log").start()


def test_no_bundled_server_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(triton_install.platform, "machine", lambda: "arm64")
    with pytest.raises(ServerStartError, match="--server HOST:PORT"):
        triton_install.find_triton()
    monkeypatch.undo()
    monkeypatch.setattr(triton_install.importlib.util, "find_spec", lambda name: None)
    if sys.platform.startswith("linux"):
        with pytest.raises(ServerStartError, match="nvidia-pytriton"):
            triton_install.find_triton()


@needs_triton
def test_backend_dir_is_reused(cache_dir: Path) -> None:
    install = triton_install.find_triton()
    first = triton_install.prepare_backend_dir(install, cache_dir)
    stub = first / "python" / install.stub.name
    inode = stub.stat().st_ino
    assert triton_install.prepare_backend_dir(install, cache_dir) == first
    assert stub.stat().st_ino == inode and os.access(stub, os.X_OK)


@needs_triton
def test_serve_command_stops_on_sigterm(repo: Path, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "scanner_app.commands.serve", "--repository", str(repo)]
    command += [
        "--grpc-port",
        "0",
        "--http-port",
        "0",
        "--metrics-port",
        "0",
        "--log",
        str(tmp_path / "s.log"),
    ]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()
    try:
        output = ""
        deadline = time.monotonic() + READY_S
        while "Press Ctrl-C" not in output:
            try:
                output += lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                pytest.fail(
                    f"serve did not become ready:\n{output}\n{proc.stderr.read() if proc.poll() else ''}"
                )
        pid = int(output.split("(pid ")[1].split(")")[0])
        stubs = stubs_of(pid)
        assert stubs and "127.0.0.1:" in output and ", ".join(sorted(ONNX_MODELS)) in output
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert not [p for p in stubs if shm.still_running(p)]
    assert shm.proc_info(pid) is None


DIES_WITH_APP = """
import sys, threading, time
from pathlib import Path
from scanner_app.server.embedded import EmbeddedServer

def start():
    server = EmbeddedServer(Path(sys.argv[1]), grpc_port=0, http_port=0, metrics_port=0,
                            log_path=Path(sys.argv[3]), cache_dir=Path(sys.argv[2]))
    server.start()
    server.wait_ready(float(sys.argv[4]))
    print(server.pid, flush=True)

worker = threading.Thread(target=start)  # as the desktop app does: off the main thread
worker.start()
worker.join()
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    info = shm.proc_info(pid)
    return info is not None and info.state not in ("Z", "X")


@needs_triton
def test_server_started_off_the_main_thread_outlives_the_thread_and_dies_with_the_app(
    repo: Path, cache_dir: Path, tmp_path: Path
) -> None:
    args = [str(repo), str(cache_dir), str(tmp_path / "app.log"), str(READY_S)]
    app = subprocess.Popen([sys.executable, "-c", DIES_WITH_APP, *args], stdout=subprocess.PIPE, text=True)
    try:
        assert app.stdout is not None
        server_pid = int(app.stdout.readline())
        time.sleep(1.0)  # the starting thread has ended: the server must still run
        assert _alive(server_pid)
        app.kill()  # the app dies without any clean-up
        app.wait(10)
        deadline = time.monotonic() + 30
        while _alive(server_pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _alive(server_pid), "the embedded server outlived the app that started it"
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(10)
