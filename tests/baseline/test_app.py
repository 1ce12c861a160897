"""The serial Flask baseline: same models and math as Triton, real processes, real HTTP."""

from __future__ import annotations

import http.client
import json
import os
import select
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from scanner_app.baseline.app import READY_PREFIX
from scanner_app.baseline.ceiling import Layout, measure_layout
from scanner_app.baseline.launcher import BaselineProcess, BaselineStartError
from scanner_app.contract import MAX_IMAGE_BYTES
from scanner_app.core.client.triton import OcrClient
from scanner_app.core.errors import InvalidImage
from scanner_app.load.baseline_target import BaselineTarget
from scanner_app.samples.documents import distinct_receipts, encode, render_text_lines
from scanner_app.server import shm
from scanner_app.server.embedded import EmbeddedServer


@pytest.fixture(scope="module")
def baseline(model_repository: Path) -> Iterator[BaselineProcess]:
    with BaselineProcess(repository=model_repository) as process:
        yield process


@pytest.fixture(scope="module")
def receipts() -> list[bytes]:
    docs = distinct_receipts(2, seed=11)
    return [encode(docs[0].image, "JPEG"), encode(docs[1].image, "PNG")]


def _post(url: str, body: bytes, method: str = "POST", path: str = "/ocr") -> tuple[int, dict]:
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=300)
    try:
        connection.request(method, path, body=body)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def _alive(pid: int) -> bool:
    info = shm.proc_info(pid)
    return info is not None and info.state != "Z"  # a zombie has exited; only its reaping is left


def test_baseline_reads_what_triton_reads(
    baseline: BaselineProcess, triton: EmbeddedServer, receipts: list[bytes]
) -> None:
    target = BaselineTarget(baseline.url, receipts)
    with OcrClient(triton.grpc_url, timeout_s=300) as client:
        for index, data in enumerate(receipts):
            ours = target.send(index).value
            theirs = client.recognize(data)
            assert len(ours.lines) >= 5
            assert [line.text for line in ours.lines] == [line.text for line in theirs.lines]
            assert (ours.width, ours.height) == (theirs.width, theirs.height)
            for a, b in zip(ours.lines, theirs.lines, strict=True):
                corners = zip(a.box, b.box, strict=True)
                assert max(abs(x - y) for p, q in corners for x, y in zip(p, q, strict=True)) < 1.0
                assert a.score == pytest.approx(b.score, abs=1e-3)
    target.close()


def test_target_golden_and_check(baseline: BaselineProcess, receipts: list[bytes]) -> None:
    target = BaselineTarget(baseline.url, receipts)
    target.take_golden()
    first, second = target.send(0), target.send(3)  # 3 % 2: the second image
    assert target.check(0, first) and target.check(3, second)
    assert not target.check(0, second)  # another image's lines do not match the golden
    target.close()


@pytest.mark.parametrize(
    ("body", "cause"),
    [
        (b"", "empty input"),
        (b"this is not an image", "not a recognised image format"),
        (encode(render_text_lines(["TRUNCATED"]).image, "PNG")[:300], "corrupt or truncated"),
    ],
    ids=["empty", "text", "truncated"],
)
def test_bad_input_is_400_naming_the_cause_and_serving_goes_on(
    baseline: BaselineProcess, receipts: list[bytes], body: bytes, cause: str
) -> None:
    status, answer = _post(baseline.url, body)
    assert status == 400
    assert cause in answer["error"]
    with pytest.raises(InvalidImage, match=cause):
        BaselineTarget(baseline.url, [body]).send(0)
    assert len(BaselineTarget(baseline.url, receipts).send(0).value.lines) >= 5


def test_oversized_body_is_413_and_wrong_method_is_405(baseline: BaselineProcess) -> None:
    status, answer = _post(baseline.url, b"\0" * (MAX_IMAGE_BYTES + 1))
    assert status == 413
    assert str(MAX_IMAGE_BYTES) in answer["error"]
    status, answer = _post(baseline.url, b"", method="GET")
    assert status == 405 and "Method Not Allowed" in answer["error"]
    assert _post(baseline.url, b"", method="GET", path="/health")[0] == 200


def test_process_starts_and_stops_by_pid(model_repository: Path) -> None:
    process = BaselineProcess(repository=model_repository)
    with process:
        pid = process.pid
        assert pid is not None and _alive(pid)
        assert process.url.startswith("http://127.0.0.1:")
    assert process.pid is None
    assert not _alive(pid)


def test_process_dies_with_its_parent(model_repository: Path, tmp_path: Path) -> None:
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from scanner_app.baseline.launcher import BaselineProcess\n"
        "process = BaselineProcess(repository=Path(sys.argv[1]))\n"
        "process.start()\n"
        "print(process.pid, flush=True)\n"
        "time.sleep(600)\n"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", script, str(model_repository)], stdout=subprocess.PIPE, text=True
    )
    try:
        child = int(parent.stdout.readline())
        exited = os.pidfd_open(child)  # readable once the child has exited: an event, not a poll
        assert _alive(child)
    finally:
        parent.kill()
        parent.wait(10)
    try:
        readable, _, _ = select.select([exited], [], [], 30)
    finally:
        os.close(exited)
    assert readable and not _alive(child)


def test_start_failure_names_the_cause_with_the_log(tmp_path: Path) -> None:
    with pytest.raises(BaselineStartError) as caught, BaselineProcess(repository=tmp_path):
        pass
    message = str(caught.value)
    assert "exited with code 1" in message
    assert "text_detection/1/model.onnx" in message and "models fetch" in message


def test_cli_with_port_0_prints_its_url_and_stops_on_sigterm(model_repository: Path) -> None:
    command = [sys.executable, "-m", "scanner_app.cli", "serve", "--baseline", "--port", "0"]
    env = {**os.environ, "SCANNER_APP_MODEL_REPOSITORY": str(model_repository)}
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        line = ""
        while READY_PREFIX not in line:
            line = server.stdout.readline()
            assert line, "the baseline exited before printing its URL"
        url = line.split(READY_PREFIX, 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:") and not url.endswith(":0")
        assert _post(url, b"", method="GET", path="/health")[0] == 200
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)


def test_cli_names_a_taken_port(model_repository: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = [sys.executable, "-m", "scanner_app.cli", "serve", "--baseline", "--port", str(port)]
        env = {**os.environ, "SCANNER_APP_MODEL_REPOSITORY": str(model_repository)}
        done = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr and "--port 0" in done.stderr


def test_cli_refuses_a_non_loopback_listen_address() -> None:
    command = [sys.executable, "-m", "scanner_app.cli", "serve", "--baseline", "--listen", "0.0.0.0"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "127.0.0.1 only" in done.stderr


@pytest.mark.parametrize("processes", [False, True], ids=["threads", "processes"])
def test_ceiling_layouts_measure_the_same_work(model_repository: Path, processes: bool) -> None:
    image = encode(render_text_lines(["CEILING 12.50", "TOTAL 3"]).image, "PNG")
    result = measure_layout(model_repository, [image], Layout("2 x 1", 2, 1, processes), seconds=2.0)
    assert result.completed >= 2  # every worker finished at least one image
    assert result.images_per_s > 0
