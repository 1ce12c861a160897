"""Health that means health: an end-to-end probe of the embedded server, and a supervisor that
brings a broken one back.

Triton's own readiness (`/v2/health/ready`) stays 200 after a model's stub process died (the OOM
killer, a crash); every pipeline request then fails. `probe` sends a small real request through
the pipeline and one to each ONNX model; `Supervisor` watches the stub processes and the probe
and, when a stub died or the probe fails twice in a row, restarts the server on the same ports
(Triton cannot restart one model's stubs in the mode we run it in), logging the event and
handing it to `on_event` (the app's status bar). A deliberate reload runs inside
`Supervisor.paused()`: no check sees the model between its old stubs and its new ones. A model
whose shared-memory region grew past what the contract's largest request needs (only a refused
request gets it there: scanner_app.server.region_bounds) is reloaded that way, at most once per
`recycle_interval_s`, so its new stubs start with small regions and the server unmaps the old ones.
"""

from __future__ import annotations

import io
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
import tritonclient.grpc as grpcclient
from PIL import Image, ImageDraw
from tritonclient.utils import InferenceServerException

from scanner_app import contract
from scanner_app.server import shm
from scanner_app.server.log_files import signal_words
from scanner_app.server.model_control import ModelControl
from scanner_app.server.region_bounds import RecycleLimiter, oversized
from scanner_app.server.shm import Stub, model_of, stubs_of  # re-exported: their home was here

log = logging.getLogger(__name__)
PROBE_TIMEOUT_S = 60.0
FRESH_CHANNEL = [("grpc.use_local_subchannel_pool", 1)]


class Supervised(Protocol):
    """What the supervisor needs of a server (EmbeddedServer)."""

    ports: dict[str, int]
    requested_ports: dict[str, int]

    admin_key: str
    previous_log: Path | None  # the log of the process before this start (log_files.rotate)

    @property
    def grpc_url(self) -> str: ...
    @property
    def http_url(self) -> str: ...
    @property
    def pid(self) -> int | None: ...
    def is_running(self) -> bool: ...
    def start(self) -> None: ...
    def wait_ready(self, timeout: float | None = None) -> None: ...
    def stop(self, timeout: float = 20.0) -> None: ...
    def log_tail(self, lines: int = 40) -> str: ...
    def protect_regions(self) -> None: ...
    def exit_description(self) -> str: ...


@dataclass(frozen=True)
class HealthEvent:
    """Something the supervisor saw or did; `kind` is one of the KIND_* names."""

    kind: str
    message: str
    at: float  # time.time()


KIND_STUB_DIED = "stub-died"
KIND_PROBE_FAILED = "probe-failed"
KIND_SERVER_EXITED = "server-exited"
KIND_RESTARTED = "restarted"
KIND_RESTART_FAILED = "restart-failed"
KIND_RECYCLED = "recycled"  # a model reloaded on purpose: the server serves on (not unhealthy)
KIND_RECYCLE_FAILED = "recycle-failed"
RECYCLE_INTERVAL_S = 300.0  # a model's region regrows on the next refused request: no reload loop


def probe_image() -> bytes:
    """A small PNG with a line of text: it goes through every step, recognition included."""
    image = Image.new("L", (320, 96), 255)
    ImageDraw.Draw(image).text((16, 24), "TOTAL 12.50", fill=0, font_size=40)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def probe(url: str, timeout_s: float = PROBE_TIMEOUT_S) -> str | None:
    """None when the pipeline and each ONNX model answer a real request; else what failed."""
    try:
        # Its own subchannel: not one that other clients' failed connects left in reconnect backoff.
        with grpcclient.InferenceServerClient(url, channel_args=FRESH_CHANNEL) as client:
            image = grpcclient.InferInput(contract.IMAGE_INPUT, [1, 1], "BYTES")
            image.set_data_from_numpy(np.array([[probe_image()]], dtype=np.object_))
            client.infer(contract.PIPELINE_MODEL, [image], client_timeout=timeout_s)
            crops = grpcclient.InferInput(contract.REC_INPUT, [1, 3, 48, 160], "FP32")
            crops.set_data_from_numpy(np.zeros((1, 3, 48, 160), np.float32))
            client.infer(contract.RECOGNITION_MODEL, [crops], client_timeout=timeout_s)
    except InferenceServerException as exc:
        if exc.status() == "StatusCode.DEADLINE_EXCEEDED":
            return None  # busy is not broken: a loaded server is never restarted for being slow
        return f"end-to-end probe failed: {exc.message() or exc}"
    return None


class Supervisor:
    """Watch one embedded server on a daemon thread; restart it when a stub died or the probe fails."""

    def __init__(
        self,
        server: Supervised,
        *,
        interval_s: float = 5.0,
        probe_every: int = 6,
        failures_before_restart: int = 2,
        on_event: Callable[[HealthEvent], object] | None = None,
        probe_fn: Callable[[str], str | None] = probe,
        reload_fn: Callable[[str], None] | None = None,
        recycle_interval_s: float = RECYCLE_INTERVAL_S,
    ) -> None:
        """Stubs are checked every `interval_s`; the end-to-end probe every `probe_every` checks.
        `reload_fn(model)` reloads a model whose region grew past its bound (default: Triton's
        repository API with the server's admin key, for a server that says its region sizes)."""
        self.server = server
        self.interval_s = interval_s
        self.probe_every = probe_every
        self.failures_before_restart = failures_before_restart
        self.on_event = on_event
        self.probe_fn = probe_fn
        self.restarts = 0
        self.healthy = True
        self._stubs: dict[str, shm.ProcInfo] = {}
        self._failures = 0
        self._checks = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()  # one check (and restart) at a time
        self._reload = reload_fn or _repository_reload(server)
        self._limiter = RecycleLimiter(recycle_interval_s)

    def start(self) -> None:
        """Record the stubs of the (ready) server and start watching."""
        self._record_stubs()
        self._thread = threading.Thread(target=self._run, name="triton-supervisor", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop watching (the server keeps running)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(PROBE_TIMEOUT_S + 5)
            self._thread = None

    @contextmanager
    def paused(self) -> Iterator[None]:
        """No check runs while the body does (a deliberate model load or unload); then the stubs of
        the server as it is now are the ones to watch."""
        with self._lock:
            try:
                yield
            finally:
                if self.server.is_running():
                    self.server.protect_regions()  # the new stubs' regions: owner-only, as at start
                    current = stubs_of(self.server.pid or 0)
                    self._adopt_reloaded(current)
                    present = {model_of(s.instance) for s in current}  # a model unloaded for good
                    self._stubs = {i: info for i, info in self._stubs.items() if model_of(i) in present}

    def _record_stubs(self) -> None:
        pid = self.server.pid
        self._stubs = {s.instance: s.info for s in stubs_of(pid)} if pid else {}

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            if self.check() is None:
                self.recycle_oversized()

    def recycle_oversized(self) -> list[HealthEvent]:
        """Reload each model with a region past its bound (not within `recycle_interval_s` of the last
        time): Triton loads the new stubs first and the in-flight requests finish on the old ones."""
        sizes = getattr(self.server, "shm_sizes", None)  # (start, growth) bytes of the backend's regions
        if sizes is None or not self.server.is_running():
            return []
        regions = {s.instance: shm.region_bytes(s.info.pid) for s in stubs_of(self.server.pid or 0)}
        events = []
        for item in oversized(regions, *sizes):
            if not self._limiter.allow(item.model, time.monotonic()):
                continue
            started = time.monotonic()
            try:
                with self.paused():
                    self._reload(item.model)
            except Exception as exc:  # reported; the model serves on as it was
                events.append(self._emit(KIND_RECYCLE_FAILED, f"{item.model}: reload failed: {exc}"))
                continue
            seconds = time.monotonic() - started
            events.append(self._emit(KIND_RECYCLED, f"{item.describe()} ({seconds:.0f} s)"))
        return events

    def check(self, probe_now: bool = False) -> HealthEvent | None:
        """One round: stubs, then (every `probe_every` rounds, or now) the probe; restarts if needed."""
        with self._lock:
            self._checks += 1
            problem = self._problem(probe_now or self._checks % self.probe_every == 0)
            if problem is None:
                self.healthy = True
                return None
            kind, message = problem
            self.healthy = False
            event = self._emit(kind, message)
            if kind != KIND_PROBE_FAILED or self._failures >= self.failures_before_restart:
                self._restart(message)
            return event

    def _problem(self, with_probe: bool) -> tuple[str, str] | None:
        if not self.server.is_running():
            return KIND_SERVER_EXITED, f"the embedded Triton server exited: {self.server.exit_description()}"
        current = stubs_of(self.server.pid or 0)
        self._adopt_reloaded(current)
        live = {s.instance for s in current}
        dead = sorted(i for i, info in self._stubs.items() if i not in live or not shm.still_running(info))
        if dead:
            received = signal_received(self.server.log_tail())
            if received is not None:  # Triton unloads every model on a signal: the server is going
                return KIND_SERVER_EXITED, f"the embedded Triton server got {received} and is shutting down"
            return KIND_STUB_DIED, f"model instance process died: {', '.join(dead)}"
        if with_probe:
            failure = self.probe_fn(self.server.grpc_url)
            if failure is not None:
                self._failures += 1
                return KIND_PROBE_FAILED, failure
            self._failures = 0
        return None

    def _adopt_reloaded(self, current: list[Stub]) -> None:
        """A model that has a stub we never saw was (re)loaded on purpose (model control, or Triton
        replacing a stub): its new stubs are the ones to watch, fewer or more than before. Its old
        stubs are not: Triton loads the new version first and lets the old one's processes exit
        after, so one still there now is gone at the next check, and is no dead model."""
        known = {info.pid for info in self._stubs.values()}
        reloaded = {model_of(s.instance) for s in current if s.info.pid not in known}
        if reloaded:
            kept = {i: info for i, info in self._stubs.items() if model_of(i) not in reloaded}
            fresh = [s for s in current if model_of(s.instance) in reloaded and s.info.pid not in known]
            self._stubs = kept | {s.instance: s.info for s in fresh}

    def _restart(self, cause: str) -> None:
        started = time.monotonic()
        self.server.requested_ports = dict(self.server.ports)  # clients keep their address
        try:
            self.server.stop()
            self.server.start()
            self.server.wait_ready()
        except Exception as exc:  # a restart that fails is reported, and tried again next round
            self._emit(KIND_RESTART_FAILED, f"restart after '{cause}' failed: {exc}")
            return
        self.restarts += 1
        self._failures = 0
        self._record_stubs()
        self.healthy = True
        seconds = time.monotonic() - started
        kept = self.server.previous_log
        where = f"; the log before the restart is {kept}" if kept else ""
        self._emit(KIND_RESTARTED, f"embedded Triton restarted after: {cause} ({seconds:.0f} s){where}")

    def _emit(self, kind: str, message: str) -> HealthEvent:
        event = HealthEvent(kind, message, time.time())
        log.warning("%s: %s", kind, message)
        if self.on_event is not None:
            self.on_event(event)
        return event


def signal_received(log_tail: str) -> str | None:
    """The signal the server's log says it was sent ("signal 15 (SIGTERM)"); its log is new each start."""
    found = re.search(r"Signal \((\d+)\) received", log_tail)
    if found is None:
        return None
    return signal_words(int(found.group(1)))


def _repository_reload(server: Supervised) -> Callable[[str], None]:
    """Reload a model through the server's repository API (its address and admin key as they are at
    the time: a restart changes both)."""

    def reload(model: str) -> None:
        ModelControl(server.http_url, server.admin_key, server.pid).reload(model)

    return reload
