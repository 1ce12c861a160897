"""The embedded Triton the app runs: the server, its supervisor and its log tail (Qt-free, thread-safe).

`start()` and `stop()` block (the connection runs them on its worker thread); the properties and
`unsupervised()` may be called from any thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from scanner_app.gui.connection.session import LogTail
from scanner_app.server.supervise import HealthEvent, Supervisor

EMBEDDED_READY_TIMEOUT_S = 180.0


class EmbeddedHost:
    """Starts, supervises and stops one embedded server at a time; `cancel` aborts a start's wait."""

    def __init__(self, on_log: Callable[[str], object], on_health: Callable[[HealthEvent], object]) -> None:
        self._on_log = on_log
        self._on_health = on_health
        self.cancel = threading.Event()
        self._lock = threading.Lock()
        self._server: Any = None  # EmbeddedServer while we run one (under _lock)
        self._supervisor: Supervisor | None = None  # watches the server (under _lock)
        self._tail: LogTail | None = None

    @property
    def server(self) -> Any:
        """The EmbeddedServer we started (for the demo's model control), or None."""
        with self._lock:
            return self._server

    @property
    def pid(self) -> int | None:
        """PID of the embedded server we started, while it runs."""
        with self._lock:
            return self._server.pid if self._server is not None else None

    def running(self) -> bool:
        """Whether a server we started is running now."""
        with self._lock:
            return self._server is not None and self._server.is_running()

    def unsupervised(self, call: Callable[[], Any]) -> Any:
        """Blocking: `call` (a deliberate model reload) inside the supervisor's `paused()`: an
        instance removed on purpose is not a dead one."""
        with self._lock:
            supervisor = self._supervisor
        if supervisor is None:
            return call()
        with supervisor.paused():
            return call()

    def start(self) -> Any:
        """Blocking: stop any server of ours, start a new one on free loopback ports, wait until it is
        ready (or `cancel` is set) and supervise it; the server."""
        from scanner_app.server.embedded import EmbeddedServer
        from scanner_app.server.model_fetch import default_repository

        self.stop()
        server = EmbeddedServer(
            default_repository(), grpc_port=0, http_port=0, metrics_port=0,
            on_message=self._on_log, ready_timeout=EMBEDDED_READY_TIMEOUT_S, model_control=True,
        )  # fmt: skip
        with self._lock:
            self._server = server
        try:
            server.start()
            self._tail = LogTail(server.log_path, self._on_log).start()
            server.wait_ready(EMBEDDED_READY_TIMEOUT_S, cancel=self.cancel)
        except BaseException:
            self.stop()
            raise
        # A stub that died (OOM killer) leaves Triton "ready" and every request failing: the
        # supervisor restarts the server on the same ports; its events reach the status bar.
        supervisor = Supervisor(server, on_event=self._on_health)
        supervisor.start()
        with self._lock:
            self._supervisor = supervisor
        return server

    def stop(self) -> None:
        """Blocking: stop the supervisor, then the server we started, then the log tail."""
        with self._lock:
            server, self._server = self._server, None
            supervisor, self._supervisor = self._supervisor, None
        if supervisor is not None:
            supervisor.stop()  # before the server: no restart of a server being stopped
        if server is not None:
            self._on_log(f"Stopping the embedded server (pid {server.pid})")
            server.stop()
        if self._tail is not None:
            self._tail.stop()
            self._tail = None
