"""BaselineProcess: `scanner-app serve --baseline` as a child process, started and stopped by PID.

Started, waited for and stopped by scanner_app.server.process, as the embedded Triton is: the
child dies with its parent, whichever thread of the parent started it.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO

import scanner_app
from scanner_app.baseline.app import LOOPBACK, READY_PREFIX
from scanner_app.server import process

_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))
_READY = re.compile(re.escape(READY_PREFIX) + r"(http://\S+)")


class BaselineStartError(RuntimeError):
    """The baseline did not become ready; the message holds the cause and the log's last lines."""


class BaselineProcess:
    """`with BaselineProcess() as baseline:` runs the serial Flask baseline; `.url` is its HTTP root."""

    def __init__(
        self,
        port: int = 0,
        repository: Path | None = None,
        *,
        log_path: Path | None = None,
        ready_timeout: float = 120.0,
        device: str = "cpu",
    ) -> None:
        """`port` 0 lets the child pick a free port (read back from its first output line).

        `device` "gpu" runs the baseline's models with CUDA (serve --baseline --device gpu).
        """
        self.device = device
        self.port = port
        self.repository = Path(repository).absolute() if repository else None
        self.ready_timeout = ready_timeout
        self._own_log = log_path is None
        self.log_path = Path(log_path) if log_path else _temporary_log()
        self.url = ""
        self._proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def pid(self) -> int | None:
        """PID of the child while it was started and not stopped."""
        return self._proc.pid if self._proc else None

    def __enter__(self) -> BaselineProcess:
        return process.start_ready(self)

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def is_running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> None:
        """Start the child (not waiting); wait_ready() then waits for its URL and /health."""
        if self.is_running():
            raise RuntimeError(f"the baseline already runs (pid {self.pid})")
        command = [sys.executable, "-m", "scanner_app.cli", "serve", "--baseline", "--port", str(self.port)]
        if self.repository:
            command += ["--repository", str(self.repository)]
        if self.device == "gpu":
            command += ["--device", "gpu"]
        env = dict(os.environ)
        package_root = str(Path(scanner_app.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
        self._log = open(self.log_path, "wb")  # noqa: SIM115 (closed in stop)
        self.url = ""
        # A session of its own: Ctrl-C in a terminal reaches the parent, which stops us by PID.
        self._proc = process.spawn(command, stdout=self._log, stderr=subprocess.STDOUT, env=env)
        atexit.register(self.stop)

    def wait_ready(self, timeout: float | None = None) -> str:
        """The URL once the child printed it and /health answers 200; BaselineStartError otherwise."""
        if self._proc is None:
            raise RuntimeError("start() the baseline first")
        process.wait_ready(
            self._proc, self._ready, name="the baseline", error=BaselineStartError, tail=self._tail,
            timeout=self.ready_timeout if timeout is None else timeout, poll_s=0.1,
        )  # fmt: skip
        return self.url

    def _ready(self) -> bool:
        """The child printed its URL and /health answers 200."""
        if not self.url:
            match = _READY.search(self.log_text())
            self.url = match.group(1) if match else ""
        return bool(self.url) and _healthy(self.url)

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM by PID, wait, then SIGKILL; closes the log (deleted when it was our temporary file)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        atexit.unregister(self.stop)
        try:
            process.stop(proc, timeout, name="the baseline")
        finally:
            if self._log is not None:
                self._log.close()
                self._log = None
            if self._own_log:
                with contextlib.suppress(OSError):
                    self.log_path.unlink()

    def log_text(self) -> str:
        try:
            return self.log_path.read_bytes()[-65536:].decode("utf-8", errors="replace")
        except OSError:
            return ""

    def log_tail(self, lines: int = 30) -> str:
        """The last lines of the child's output."""
        return "\n".join(self.log_text().splitlines()[-lines:])

    def _tail(self) -> str:
        return f"Last lines of {self.log_path}:\n{self.log_tail()}"


def _temporary_log() -> Path:
    handle, name = tempfile.mkstemp(prefix="scanner-app-baseline-", suffix=".log")
    os.close(handle)
    return Path(name)


def _healthy(url: str) -> bool:
    try:
        with _NO_PROXY.open(url + "/health", timeout=2.0) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


__all__ = ["LOOPBACK", "BaselineProcess", "BaselineStartError"]
