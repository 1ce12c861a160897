"""Launch the `tritonserver` bundled in the `nvidia-pytriton` wheel (loopback unless told otherwise).

`with EmbeddedServer(repository) as server:` starts it and waits until every model is ready;
`server.grpc_url` is then the address for tritonclient.grpc. `listen=plan_listen(...)`
(scanner_app.server.listen) puts gRPC on another address, with TLS unless explicitly insecure.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import secrets
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO

import scanner_app
from scanner_app.contract import ONNX_MODELS
from scanner_app.server import log_files, process, shm
from scanner_app.server.allocator import GLIBC, Allocator, AllocatorError, choose_allocator
from scanner_app.server.hardware import DeviceError, DeviceRequest
from scanner_app.server.listen import ADMIN_HEADER, LOOPBACK_PLAN, ListenPlan, restricted_api_args
from scanner_app.server.model_configs import BASE_CONFIG_NAME, PreparedRepository, prepare_repository
from scanner_app.server.ports import resolve_ports
from scanner_app.server.triton_install import (
    ServerStartError,
    TritonInstall,
    default_cache_dir,
    find_triton,
    prepare_backend_dir,
)

cleanup_stale_shm = shm.cleanup_stale_shm
log = logging.getLogger(__name__)
_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback never via a proxy
EXIT_TIMEOUT_S = 10  # Triton's default is 30 s
# The Python backend starts each stub's shared-memory region at 1 MiB (fallocated: real memory) and
# grows it by whole steps past the allocation that did not fit, mapping it anew in the server and the
# stub and keeping every old mapping: a region grown in 1 MiB steps is counted several times over in
# RSS, and the server's RSS kept rising as it touched the same pages through each new mapping. Started
# at about what a step needs at concurrency 16 (3-23 MiB each in a soak), a region grows once or twice
# at most, for requests larger than any receipt's (and keeps that size: the backend never shrinks one).
SHM_DEFAULT_BYTES = 16 * 1024 * 1024
SHM_GROWTH_BYTES = 8 * 1024 * 1024
SHM_ROOM_FOR = 32  # regions of SHM_DEFAULT_BYTES /dev/shm must have free; else the backend's own sizes
BACKEND_SHM_BYTES = (1024 * 1024, 1024 * 1024)  # the backend's own start and growth step


def python_shm_args(free_bytes: int | None) -> list[str]:
    """Pre-sized Python-backend regions where /dev/shm has room for them; a small /dev/shm (a
    container's 64 MB default) keeps the backend's 1 MiB start, which fits where this would not."""
    if free_bytes is None or free_bytes < SHM_ROOM_FOR * SHM_DEFAULT_BYTES:
        return []
    return [f"--backend-config=python,shm-default-byte-size={SHM_DEFAULT_BYTES}",
            f"--backend-config=python,shm-growth-byte-size={SHM_GROWTH_BYTES}"]  # fmt: skip


def python_shm_sizes(args: Sequence[str]) -> tuple[int, int]:
    """(start, growth) bytes of the regions a server started with `python_shm_args`'s `args` gets."""
    return (SHM_DEFAULT_BYTES, SHM_GROWTH_BYTES) if args else BACKEND_SHM_BYTES


def shm_free_bytes(directory: Path = shm.SHM_DIR) -> int | None:
    """Bytes free in /dev/shm (None where it cannot be read)."""
    try:
        stat = os.statvfs(directory)
    except OSError:
        return None
    return stat.f_bavail * stat.f_frsize


def check_repository(repository: Path, onnx_models: Sequence[str] = ONNX_MODELS) -> None:
    """Raise ServerStartError unless the repository exists and holds every ONNX model file."""
    if not repository.is_dir():
        raise ServerStartError(f"The model repository {repository} does not exist.")
    missing = [m for m in onnx_models if not (repository / m / "1" / "model.onnx").is_file()]
    if missing:
        files = ", ".join(f"{m}/1/model.onnx" for m in missing)
        raise ServerStartError(
            f"The model repository {repository} lacks {files}. Run `scanner-app models fetch` first."
        )


class EmbeddedServer:
    """One `tritonserver` process of ours: start, wait until ready, stop without leftovers."""

    def __init__(
        self,
        repository: Path,
        grpc_port: int = 8001,
        http_port: int = 8000,
        metrics_port: int = 8002,
        *,
        model_config_name: str = "local",
        log_path: Path | None = None,
        extra_args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        echo: bool = False,
        on_message: Callable[[str], object] | None = None,
        onnx_models: Sequence[str] = ONNX_MODELS,
        ready_timeout: float = 120.0,
        cache_dir: Path | None = None,
        device: DeviceRequest | None = "auto",
        listen: ListenPlan = LOOPBACK_PLAN,
        model_control: bool = False,
    ) -> None:
        """`*_port` 0 picks a free port; `onnx_models` are the models whose model.onnx must exist.

        `listen` (scanner_app.server.listen.plan_listen) says where each endpoint listens and
        whether gRPC uses TLS; the default is 127.0.0.1 for all three, no TLS.
        """
        self.repository = Path(repository).absolute()
        self.requested_ports = {"gRPC": grpc_port, "HTTP": http_port, "metrics": metrics_port}
        self.ports = dict(self.requested_ports)
        self.model_config_name = model_config_name
        # Sized configs (scanner_app.server.model_configs) only over the base configs: a test's own
        # config name or device=None runs the repository exactly as it is.
        self.device = device if model_config_name == BASE_CONFIG_NAME else None
        self.prepared: PreparedRepository | None = None
        self._log_path = Path(log_path).absolute() if log_path else None
        self.extra_args = list(extra_args)
        self.env_overrides = dict(env or {})
        self.echo = echo
        self.on_message = on_message or log.warning
        self.onnx_models = tuple(onnx_models)
        self.ready_timeout = ready_timeout
        self.cache_dir = cache_dir or default_cache_dir()
        self.listen = listen
        # The demo's live model control (ModelControl.for_server: load with a config override) for a
        # loopback server only; every server runs in explicit mode (the supervisor reloads a model
        # whose region grew too large), and the repository API needs this start's admin key.
        self.model_control = model_control and not listen.exposed
        self._proc: subprocess.Popen[bytes] | None = None
        self._log_file: IO[bytes] | None = None
        self._echo_thread: threading.Thread | None = None
        self._regions_before: set[Path] = set()
        self._shm_args: list[str] = []
        # (start, growth) bytes of the Python backend's regions in the running server: the supervisor
        # reloads a model whose region grew past what the contract allows (server.region_bounds).
        self.shm_sizes: tuple[int, int] | None = None
        self._leader = shm.ProcInfo(0, "", "", 0, 0, 0)
        self.allocator: Allocator = GLIBC  # the running server's (scanner_app.server.allocator)
        self.previous_log: Path | None = None  # the last process's log, kept by log_files.rotate
        # Opens Triton's restricted APIs (scanner_app.server.listen.RESTRICTED_APIS); new each start.
        self.admin_key = secrets.token_urlsafe(24)

    # Endpoints -----------------------------------------------------------------------------
    @property
    def host(self) -> str:
        """The address this machine reaches the gRPC endpoint on (127.0.0.1 for 0.0.0.0)."""
        return self.listen.connect_host("gRPC")

    @property
    def grpc_url(self) -> str:
        """host:port for tritonclient.grpc (TLS when self.listen.tls is set)."""
        return f"{self.host}:{self.ports['gRPC']}"

    @property
    def http_url(self) -> str:
        """http://host:port."""
        return f"http://{self.listen.connect_host('HTTP')}:{self.ports['HTTP']}"

    @property
    def metrics_url(self) -> str:
        """The Prometheus metrics page."""
        return f"http://{self.listen.connect_host('metrics')}:{self.ports['metrics']}/metrics"

    @property
    def pid(self) -> int | None:
        """PID of the server process while one was started and not stopped."""
        return self._proc.pid if self._proc else None

    @property
    def log_path(self) -> Path:
        """The server's log file (stdout and stderr)."""
        return self._log_path or self.cache_dir / "logs" / f"tritonserver-{self.ports['gRPC']}.log"

    # Lifecycle -----------------------------------------------------------------------------
    def __enter__(self) -> EmbeddedServer:
        return process.start_ready(self)

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def is_running(self) -> bool:
        """True while our server process lives."""
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> None:
        """Check the setup, prepare the backend directory and start the process (not waiting)."""
        if self.is_running():
            raise RuntimeError(f"tritonserver already running (pid {self.pid})")
        self.stop()  # a previous run that ended by itself: clear its leftovers first
        install = find_triton()
        check_repository(self.repository, self.onnx_models)
        try:
            self.allocator = choose_allocator({**os.environ, **self.env_overrides})
        except AllocatorError as err:
            raise ServerStartError(str(err)) from err
        if self.device is not None:
            try:
                self.prepared = prepare_repository(self.repository, self.cache_dir, self.device)
            except DeviceError as err:
                raise ServerStartError(str(err)) from err
            self.on_message(f"Embedded Triton runs on {self.prepared.describe()}; "
                            f"memory allocator {self.allocator.describe()}.")  # fmt: skip
        backends = prepare_backend_dir(install, self.cache_dir)
        # A server killed before (SIGKILL, OOM) may have left stubs running on its regions: stop them
        # first, then remove what no process uses (a restart on the same port starts clean).
        shm.stop_orphaned_stubs(on_message=self.on_message)
        shm.cleanup_stale_shm(on_message=self.on_message)
        self._regions_before = set(shm.list_regions())
        self.ports = resolve_ports(self.requested_ports, self.on_message, self.listen.hosts)
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        # The log of a process that died by itself stays readable after the supervisor restarted it.
        self.previous_log = log_files.rotate(self.log_path)
        log_files.prune(self.log_path.parent)  # the logs of long-gone starts on other ports
        self._log_file = open(self.log_path, "wb")  # noqa: SIM115 (closed in stop)
        os.chmod(self.log_path, 0o600)  # the log can hold receipt text and paths
        self.admin_key = secrets.token_urlsafe(24)
        out = subprocess.PIPE if self.echo else self._log_file
        self._shm_args = python_shm_args(shm_free_bytes())
        self.shm_sizes = python_shm_sizes(self._shm_args)
        command = self._command(install, backends)
        try:
            # Dies with us (SIGTERM, so its stubs and shared memory go too), whichever thread starts it.
            # Own process group (stop() reaches the stubs too); SIGTERM when we die, so its stubs
            # and shared memory go too.
            self._proc = process.spawn(
                command, env=self._environment(install), stdout=out, stderr=subprocess.STDOUT,
                cwd=self.repository, umask=0o077,  # /dev/shm regions and files: owner-only
            )  # fmt: skip
        except OSError as err:
            self._close_log()
            raise ServerStartError(f"Could not run {install.binary}: {err}") from err
        self._leader = shm.proc_info(self._proc.pid) or shm.ProcInfo(self._proc.pid, "", "", 0, 0, 0)
        if self.echo:
            self._echo_thread = threading.Thread(target=self._echo, name="tritonserver-log", daemon=True)
            self._echo_thread.start()
        atexit.register(self.stop)

    def _command(self, install: TritonInstall, backends: Path) -> list[str]:
        return [
            str(install.binary),
            f"--model-repository={self.prepared.path if self.prepared else self.repository}",
            f"--backend-directory={backends}",
            f"--model-config-name={self.prepared.config_name if self.prepared else self.model_config_name}",
            *self.listen.triton_args(self.ports),
            "--log-verbose=0",
            "--exit-on-error=true",
            # SIGTERM (stop(), or our death through PDEATHSIG) waits this long for in-flight work: a
            # server orphaned by a terminated app is gone within it, and stop() never needs SIGKILL.
            f"--exit-timeout-secs={EXIT_TIMEOUT_S}",
            *self._shm_args,
            # The gRPC frontend keeps up to 8 request states for reuse, each holding the largest
            # message it ever parsed: a rejected 200 MB request left +200 MB each time. None kept.
            "--grpc-infer-allocation-pool-size=0",
            "--strict-readiness=true",
            # Explicit: the supervisor can reload one model (Supervisor.recycle_oversized), and so can
            # the demo's model control; the repository API answers only this start's admin key.
            "--model-control-mode=explicit",
            "--load-model=*",
            *restricted_api_args(self.listen, self.admin_key),
            *self.extra_args,
        ]

    def _environment(self, install: TritonInstall) -> dict[str, str]:
        env = dict(os.environ)
        # The Python backend stub finds its interpreter through PATH: ours first, so that
        # model.py sees this environment's packages; the checkout goes on PYTHONPATH.
        env["PATH"] = os.pathsep.join([str(Path(sys.executable).absolute().parent), env.get("PATH", "")])
        package_root = str(Path(scanner_app.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
        libs = [env.get("LD_LIBRARY_PATH"), str(install.libs)]
        env["LD_LIBRARY_PATH"] = os.pathsep.join(filter(None, libs))
        env.update(self.env_overrides)
        # Its memory goes back to the system (server/allocator.py); an override's LD_PRELOAD comes after.
        env.update(self.allocator.environment(env))
        return env

    def _echo(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None and self._log_file is not None
        for line in iter(self._proc.stdout.readline, b""):
            self._log_file.write(line)
            self._log_file.flush()
            sys.stderr.write(line.decode("utf-8", errors="replace"))
        self._proc.stdout.close()

    def wait_ready(self, timeout: float | None = None, cancel: threading.Event | None = None) -> None:
        """Poll /v2/health/ready (all models ready) until it answers 200; ServerStartError otherwise."""
        if self._proc is None:
            raise RuntimeError("start() the server first")
        process.wait_ready(
            self._proc, lambda: self._get("/v2/health/ready") is not None, name="tritonserver",
            timeout=self.ready_timeout if timeout is None else timeout, tail=self._tail_text,
            error=ServerStartError, cancel=cancel,
        )  # fmt: skip
        self.protect_regions()

    def protect_regions(self) -> None:
        """Owner-only modes for the shared-memory regions of our server and its stubs."""
        if self._proc is not None:
            shm.protect_regions([self._proc.pid, *(p.pid for p in shm.descendants(self._proc.pid))])

    def ready_models(self) -> list[str]:
        """Names of the models the server reports READY."""
        raw = self._get("/v2/repository/index", post=b"{}")
        models = json.loads(raw) if raw else []
        return sorted({m["name"] for m in models if m.get("state") == "READY"})

    def exit_description(self) -> str:
        """How the process ended, in words, with the errors its log ends with ("pid 4028 was killed
        by signal 6 (SIGABRT): terminate called after ..."); "is running" while it runs."""
        if self._proc is None or self._proc.poll() is None:
            return "is running" if self._proc is not None else "was not started"
        errors = log_files.last_errors(self.log_tail(200))
        said = f": {' | '.join(errors)}" if errors else ""
        return f"pid {self._proc.pid} {log_files.describe_exit(self._proc.returncode)}{said}"

    def wait(self, timeout: float | None = None) -> int:
        """Wait until the server process exits by itself; its exit code."""
        if self._proc is None:
            raise RuntimeError("the server was not started")
        return self._proc.wait(timeout)

    def stop(self, timeout: float = 20.0) -> None:
        """SIGTERM, wait, then SIGKILL; leave no stub process and no shm region of ours."""
        proc = self._proc
        if proc is None:
            return
        atexit.unregister(self.stop)
        leader = self._leader  # start_new_session: the server leads its own process group
        procs = shm.all_procs()
        tree = [*shm.descendants(proc.pid, procs), *shm.group_members(leader, procs)]
        ours: set[Path] = set().union(*(self._regions_of(p.pid) for p in tree))
        try:
            process.stop(proc, timeout, name="tritonserver", on_message=self.on_message)
            shm.kill_leftovers(leader, tree)
        finally:
            if self._echo_thread is not None:
                self._echo_thread.join(5)
                self._echo_thread = None
            self._close_log()
            self._proc = None
        new = set(shm.list_regions()) - self._regions_before
        shm.cleanup_stale_shm(ours | new)

    @staticmethod
    def _regions_of(pid: int) -> set[Path]:
        try:
            return {shm.SHM_DIR / name for name in shm.regions_used_by(pid)}
        except OSError:
            return set()

    # Helpers --------------------------------------------------------------------------------
    def _get(self, path: str, post: bytes | None = None) -> bytes | None:
        """Body of a 200 answer from our HTTP endpoint, None on any other outcome."""
        headers = {ADMIN_HEADER: self.admin_key}  # the repository index is a restricted API
        request = urllib.request.Request(self.http_url + path, data=post, headers=headers)
        try:
            with _NO_PROXY.open(request, timeout=2.0) as response:
                return response.read() if response.status == 200 else None
        except (urllib.error.URLError, OSError):
            return None

    def log_tail(self, lines: int = 40) -> str:
        """The last lines of the server log."""
        try:
            data = self.log_path.read_bytes()[-65536:]
        except OSError:
            return ""
        return "\n".join(data.decode("utf-8", errors="replace").splitlines()[-lines:])

    def _tail_text(self) -> str:
        if self._echo_thread is not None:
            self._echo_thread.join(1.0)
        return f"Last lines of {self.log_path}:\n{self.log_tail()}"

    def _close_log(self) -> None:
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
