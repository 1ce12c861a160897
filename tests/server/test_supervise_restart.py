"""Issue 17, points 1 and 3 against the real server: a stub that died is brought back by the
supervisor; a server SIGKILLed under load is restarted on the same ports and keeps serving."""

from __future__ import annotations

import os
import select
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import tritonclient.grpc as grpcclient
from tritonclient.utils import InferenceServerException

from scanner_app import contract
from scanner_app.server import shm
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.supervise import (
    KIND_RESTARTED,
    KIND_STUB_DIED,
    HealthEvent,
    Supervisor,
    probe,
    probe_image,
    stubs_of,
)

READY_S = 300.0


def _wait_exit(pid: int, timeout_s: float, what: str) -> None:
    """Wait for another process's exit on its pidfd (readable once it has exited, zombie or not)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return  # exited and reaped already
    try:
        ready, _, _ = select.select([fd], [], [], timeout_s)
    finally:
        os.close(fd)
    assert ready, f"not within {timeout_s:.0f} s: {what}"


class Load:
    """`workers` threads sending the probe image to `url` until stopped; counts outcomes."""

    def __init__(self, url: str, workers: int = 4) -> None:
        self.url = url
        self.ok = 0
        self.errors: dict[str, int] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._progress = threading.Condition(self._lock)
        self._threads = [threading.Thread(target=self._work, daemon=True) for _ in range(workers)]
        for thread in self._threads:
            thread.start()

    def _work(self) -> None:
        data = probe_image()
        while not self._stop.is_set():
            try:
                with grpcclient.InferenceServerClient(self.url) as client:
                    image = grpcclient.InferInput(contract.IMAGE_INPUT, [1, 1], "BYTES")
                    image.set_data_from_numpy(np.array([[data]], dtype=np.object_))
                    client.infer(contract.PIPELINE_MODEL, [image], client_timeout=60)
                key = None
            except InferenceServerException as exc:
                key = exc.status() or "error"
            with self._progress:
                if key is None:
                    self.ok += 1
                else:
                    self.errors[key] = self.errors.get(key, 0) + 1
                self._progress.notify_all()
            if key is not None:
                self._stop.wait(0.2)  # the server is down: do not spin

    def wait_ok(self, count: int, timeout_s: float) -> None:
        """Block until `count` more requests succeeded."""
        with self._progress:
            target = self.ok + count
            assert self._progress.wait_for(lambda: self.ok >= target, timeout_s), (self.ok, self.errors)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(90)


@pytest.fixture
def server(model_repository: Path, tmp_path: Path) -> Iterator[EmbeddedServer]:
    with EmbeddedServer(model_repository, 0, 0, 0, log_path=tmp_path / "a.log", ready_timeout=READY_S) as s:
        yield s


def test_restart_on_the_same_ports_after_sigkill_under_load(
    server: EmbeddedServer, model_repository: Path, tmp_path: Path
) -> None:
    load = Load(server.grpc_url)
    try:
        load.wait_ok(4, 300)
        old_stubs = stubs_of(server.pid or 0)
        old_regions = set().union(*(shm.regions_used_by(s.info.pid) for s in old_stubs))
        assert old_stubs and old_regions
        os.kill(server.pid or 0, signal.SIGKILL)  # not reaped: a zombie, as under a busy parent
        dead = shm.proc_info(server.pid or 0)
        assert dead is not None
        _wait_exit(dead.pid, 30, "the server is dead")
        assert (shm.proc_info(dead.pid) or dead).state == "Z"  # not reaped: a zombie
        assert f"pid {dead.pid} was killed by signal 9 (SIGKILL)" in server.exit_description()
        ports = dict(server.ports)
        restarted = EmbeddedServer(
            model_repository, ports["gRPC"], ports["HTTP"], ports["metrics"],
            log_path=tmp_path / "b.log", ready_timeout=READY_S,
        )  # fmt: skip
        messages: list[str] = []
        restarted.on_message = messages.append
        with restarted:
            assert restarted.ports == ports
            # The killed server's stubs were stopped and their regions removed before the new start.
            assert not [s for s in old_stubs if shm.still_running(s.info)]
            assert not [r for r in old_regions if (shm.SHM_DIR / r).exists()]
            assert any("left by a tritonserver that died" in m for m in messages), messages
            load.wait_ok(30, 600)  # keeps serving under load (the old abort came ~30 s after ready)
            assert restarted.is_running()
            assert probe(restarted.grpc_url) is None
    finally:
        load.stop()


def test_supervisor_brings_back_a_server_whose_stub_died(server: EmbeddedServer) -> None:
    events: list[HealthEvent] = []
    supervisor = Supervisor(server, on_event=events.append)
    supervisor.start()
    supervisor.stop()  # stubs recorded; the checks below run here, one at a time
    url = server.grpc_url
    assert supervisor.check(probe_now=True) is None and supervisor.healthy
    victim = next(s for s in stubs_of(server.pid or 0) if s.instance.startswith(contract.RECOGNITION_MODEL))
    os.kill(victim.info.pid, signal.SIGKILL)  # as the OOM killer did
    _wait_exit(victim.info.pid, 30, "the stub is gone")
    assert not shm.still_running(victim.info)
    assert probe(url) is not None  # the pipeline is broken now, whatever /v2/health/ready says
    event = supervisor.check()
    assert event is not None and event.kind == KIND_STUB_DIED and victim.instance in event.message
    assert [e.kind for e in events] == [KIND_STUB_DIED, KIND_RESTARTED]
    assert supervisor.restarts == 1 and supervisor.healthy
    assert server.grpc_url == url  # same ports: clients keep their address
    assert probe(url) is None
    # The log of the server before the restart is kept beside the new one, and the event says where.
    kept = server.previous_log
    assert kept is not None and kept != server.log_path and str(kept) in events[-1].message
    assert "Started GRPCInferenceService" in kept.read_text(errors="replace")
