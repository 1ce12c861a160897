"""The app's link to Triton: configured endpoints or the embedded server, watched by a timer.

Every blocking step (creating clients, connect(), probes, starting or stopping the embedded
server) runs on one Background thread, in order; results of a superseded configuration are dropped
(sessions among them are kept to close on shutdown).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from PySide6.QtCore import QObject, QSettings, QTimer, Signal, Slot

from scanner_app.core.client.triton import ClientOptions, PipelineInfo, Recognizer
from scanner_app.gui.background import Background
from scanner_app.gui.connection.embedded_host import EmbeddedHost
from scanner_app.gui.connection.logic import (
    ConnectionState,
    ConnectionStatus,
    cause_text,
    options_from_settings,
    parse_urls,
    plan_start,
    status_of_error,
    unhealthy_status,
)
from scanner_app.gui.connection.session import CurrentRecognizer, EndpointClients
from scanner_app.server.supervise import (
    KIND_PROBE_FAILED,
    KIND_RECYCLE_FAILED,
    KIND_RECYCLED,
    KIND_RESTART_FAILED,
    KIND_RESTARTED,
    HealthEvent,
)

__all__ = ["ConnectionState", "ConnectionStatus", "ServerConnection"]

# Longest wait on close for the worker's call in flight: a start waits up to EMBEDDED_READY_TIMEOUT_S
# but sees `cancel` within a second; a stop takes up to its SIGTERM grace plus the kill.
SHUTDOWN_WAIT_MS = 60_000


class ServerConnection(QObject):
    """``start()`` connects (or starts the embedded server); ``state_changed(ConnectionState)`` follows
    every change, ``recognizer()`` is usable while ready, ``info_changed(tuple[PipelineInfo, ...])``
    after each successful connect."""

    state_changed = Signal(object)  # ConnectionState
    log_line = Signal(str)  # lines of the embedded server's log (and the launcher's messages)
    info_changed = Signal(object)  # tuple[PipelineInfo, ...]: version and model configs per endpoint
    health_event = Signal(object)  # HealthEvent: what the embedded server's supervisor saw or did

    def __init__(
        self,
        parent: QObject | None = None,
        *,
        urls: Sequence[str] | None = None,
        options: ClientOptions | None = None,
        start_embedded_if_unconfigured: bool = True,
        health_interval_ms: int = 3000,
    ) -> None:
        super().__init__(parent)
        settings = QSettings()
        self._urls = parse_urls(  # the setting: its text, or a list when that text had commas (INI)
            cast("str | list[str]", settings.value("server/urls", "")) if urls is None else list(urls)
        )
        self._options = options or options_from_settings(
            *(settings.value(f"server/tls_{name}") for name in ("ca", "cert", "key"))
        )
        self._auto_embedded = start_embedded_if_unconfigured
        self._state = ConnectionState(self._urls, ConnectionStatus.IDLE, self.tr("Not connected"))
        self._infos: tuple[PipelineInfo, ...] = ()
        self._background = Background(self, threads=1)
        self._emit_log: Callable[[str], bool] = self._background.relay(self._on_log_lines)
        self._emit_health: Callable[[HealthEvent], bool] = self._background.relay(self._on_health_events)
        self._restart_note = ""  # the supervisor's last restart, said while ready again
        self._session: EndpointClients | None = None
        self._retired: list[EndpointClients] = []  # closed on shutdown: a batch may have calls in flight
        self._host = EmbeddedHost(self._emit_log, self._emit_health)  # its start and stop: on the worker
        self._current = CurrentRecognizer()
        self._closed = False
        self._timer = QTimer(self)
        self._timer.setInterval(health_interval_ms)
        self._timer.timeout.connect(self._on_tick)

    # Public API ---------------------------------------------------------------------------------
    @property
    def state(self) -> ConnectionState:
        return self._state

    @property
    def infos(self) -> tuple[PipelineInfo, ...]:
        """What the endpoints said at the last successful connect (version, model configs)."""
        return self._infos

    @property
    def options(self) -> ClientOptions:
        return self._options

    @property
    def configured_urls(self) -> tuple[str, ...]:
        """The endpoints from settings / set_endpoints (empty when the embedded server is meant)."""
        return self._urls

    @property
    def embedded_pid(self) -> int | None:
        """PID of the embedded server we started, while it runs."""
        return self._host.pid

    @property
    def embedded_server(self) -> Any:
        """The EmbeddedServer we started (for the demo's model control), or None."""
        return self._host.server

    def unsupervised(self, call: Callable[[], Any]) -> Any:
        """Blocking (a worker thread): `call` (a deliberate model reload) inside the supervisor's
        `paused()`: an instance removed on purpose is not a dead one."""
        return self._host.unsupervised(call)

    @property
    def busy(self) -> bool:
        """True while a connect, probe, start or stop is in progress."""
        return self._background.running > 0

    def start(self) -> None:
        """Non-blocking: connect to the configured endpoints, or start the embedded server."""
        if self._closed:
            return
        self._timer.start()
        plan = plan_start(self._urls, self._auto_embedded)
        if plan == "connect":
            self._connect(self._urls, self._options)
        elif plan == "embedded":
            self.start_embedded()
        else:
            text = self.tr("No server configured (see the Server tab)")
            self._set_state(ConnectionState((), ConnectionStatus.IDLE, text))

    def recognizer(self) -> Recognizer | None:
        """A thread-safe Recognizer while ready (it follows later reconnects); None otherwise."""
        return self._current if self._state.status == ConnectionStatus.READY else None

    def batch_recognizer(self) -> Recognizer:
        """A Recognizer that always follows this connection, for batches.

        While there is no server it raises ServerUnavailable, so a batch started then waits
        (BatchRunner's ServerWaiting events) instead of failing its files.
        """
        return self._current

    def set_endpoints(self, urls: Sequence[str], options: ClientOptions | None = None) -> None:
        """Save the endpoints (and TLS files) to QSettings and reconnect; no URL -> the embedded server."""
        self._urls = parse_urls(list(urls))
        self._options = options or self._options
        settings = QSettings()
        settings.setValue("server/urls", list(self._urls))
        for key, path in (("server/tls_ca", self._options.root_certificates),
                          ("server/tls_cert", self._options.certificate_chain),
                          ("server/tls_key", self._options.private_key)):  # fmt: skip
            settings.setValue(key, "" if path is None else str(path))
        if self._urls:
            self._connect(self._urls, self._options)
        else:
            self.start()

    def start_embedded(self) -> None:
        """Start the embedded Triton on free loopback ports (off the GUI thread) and connect to it."""
        if self._closed:
            return
        self._timer.start()
        running = self._host.running()
        self._retire_session()
        self._host.cancel.clear()
        self._restart_note = ""
        text = self.tr("Starting the embedded Triton server...")
        self._set_state(ConnectionState((), ConnectionStatus.STARTING, text))
        job = self._job_connect_embedded if running else self._job_start_embedded
        self._submit(job, self._on_embedded_started)

    def stop_embedded(self) -> None:
        """Stop the embedded server we started (off the GUI thread)."""
        self._host.cancel.set()
        was_active = self._state.embedded or self._state.status == ConnectionStatus.STARTING
        if was_active:
            self._retire_session()
            text = self.tr("Stopping the embedded server...")
            self._set_state(ConnectionState((), ConnectionStatus.STARTING, text))
        self._submit(self._job_stop_embedded, lambda _, error: self._on_embedded_stopped(was_active, error))

    def shutdown(self) -> None:
        """Stop checks, close every client, stop the embedded server we started. Blocks until done."""
        if self._closed:
            return
        self._closed = True
        self._timer.stop()
        self._host.cancel.set()
        self._background.close()
        if not self._background.wait(SHUTDOWN_WAIT_MS):  # a stuck call must not freeze the app's exit
            seconds = SHUTDOWN_WAIT_MS // 1000
            self.log_line.emit(f"A server call was still running after {seconds} s; closing anyway")
        self._job_stop_embedded()
        self._current.set(None, "the app is closing")
        for session in [*self._retired, *([self._session] if self._session else [])]:
            session.close()
        self._retired, self._session = [], None
        self._state = ConnectionState((), ConnectionStatus.IDLE, self.tr("Disconnected"))

    # Worker jobs (run on the worker thread; never touch widgets or self._state) ------------------
    def _job_connect(
        self, urls: Sequence[str], options: ClientOptions, embedded: bool = False
    ) -> tuple[EndpointClients, Any]:
        session = EndpointClients(urls, options, embedded=embedded)
        return session, session.connect()

    def _job_start_embedded(self) -> tuple[EndpointClients, Any]:
        self._host.start()
        return self._job_connect_embedded()

    def _job_connect_embedded(self) -> tuple[EndpointClients, Any]:
        server = self._host.server
        if server is None or not server.is_running():
            raise RuntimeError("the embedded server is not running")
        return self._job_connect([server.grpc_url], ClientOptions(), embedded=True)

    def _job_stop_embedded(self) -> None:
        self._host.stop()

    # GUI-thread side ----------------------------------------------------------------------------
    def _on_log_lines(self, lines: list[str]) -> None:
        for line in lines:
            self.log_line.emit(line)

    def _on_health_events(self, events: list[HealthEvent]) -> None:
        """The supervisor's events (from its thread): the log, the status bar, `health_event`."""
        for event in events:
            self.log_line.emit(f"health: {event.kind}: {event.message}")
            self.health_event.emit(event)
            state = self._state
            if self.embedded_pid is None:
                continue  # from a supervisor already stopped: the server is gone on purpose
            if event.kind == KIND_RESTARTED:
                self._restart_note = event.message
                status, text = ConnectionStatus.READY, self._restarted_text(state.urls)
            elif event.kind == KIND_PROBE_FAILED:  # it may still serve: once is not yet a restart
                status, text = state.status, self.tr("Embedded Triton unhealthy: {0}").format(event.message)
            elif event.kind in (KIND_RECYCLED, KIND_RECYCLE_FAILED):  # it served on throughout
                template = (self.tr("Embedded Triton reloaded a model: {0}") if event.kind == KIND_RECYCLED
                            else self.tr("Embedded Triton could not reload a model: {0}"))  # fmt: skip
                status, text = state.status, template.format(event.message)
            else:
                failed = event.kind == KIND_RESTART_FAILED
                status = ConnectionStatus.ERROR if failed else ConnectionStatus.DOWN
                text = self.tr("Embedded Triton unhealthy, restarting: {0}").format(event.message)
            self._set_state(ConnectionState(state.urls, status, text, True, state.server_version,
                                            state.http_url, state.metrics_url))  # fmt: skip

    def _restarted_text(self, urls: Sequence[str]) -> str:
        url = urls[0] if urls else ""
        return self.tr("Embedded Triton restarted on {0}: {1}").format(url, self._restart_note)

    def _submit(self, job: Callable[[], Any], on_done: Callable[[Any, BaseException | None], None]) -> None:
        self._background.run(job, on_done, on_stale=self._on_stale)

    def _on_stale(self, result: Any) -> None:
        """A superseded connect's session: closed now when shutting down, else kept until then."""
        if isinstance(result, tuple) and result and isinstance(result[0], EndpointClients):
            if self._closed:
                result[0].close()
            else:
                self._retired.append(result[0])

    def _connect(self, urls: Sequence[str], options: ClientOptions) -> None:
        self._retire_session()
        self._set_state(ConnectionState(tuple(urls), ConnectionStatus.STARTING,
                                        self.tr("Connecting to {0}...").format(", ".join(urls))))  # fmt: skip
        self._submit(lambda: self._job_connect(urls, options), self._on_connected)

    def _retire_session(self) -> None:
        """Forget the current session (kept open until shutdown) and drop results still on the way."""
        self._background.drop()
        if self._session is not None:
            self._retired.append(self._session)
            self._session = None
        self._current.set(None)

    def _on_connected(self, result: tuple[EndpointClients, Any] | None, error: BaseException | None) -> None:
        if error is not None or result is None:
            self._set_failure(list(self._state.urls) or list(self._urls), error)
            return
        self._session, outcome = result
        self._apply_outcome(outcome)

    def _apply_outcome(self, outcome: Any) -> None:
        session = self._session
        assert session is not None
        embedded = session.embedded
        if outcome.infos:
            self._current.set(session.client)
            self._infos = outcome.infos
            urls = session.urls
            version = outcome.infos[0].server_version
            if embedded and self._restart_note:
                message = self._restarted_text(urls)
            elif embedded:
                message = self.tr("Embedded Triton started on {0} (version {1})").format(urls[0], version)
            else:
                message = self.tr("Connected to Triton {0} at {1}").format(version, ", ".join(urls))
            if outcome.errors:
                message += self.tr(" - down: {0}").format(", ".join(outcome.errors))
            http, metrics = self._embedded_urls() if embedded else ("", "")
            state = ConnectionState(urls, ConnectionStatus.READY, message, embedded, version, http, metrics)
            self._set_state(state)
            self.info_changed.emit(outcome.infos)
            return
        outage = all(status_of_error(e) == ConnectionStatus.DOWN for e in outcome.errors.values())
        status = ConnectionStatus.DOWN if outage else ConnectionStatus.ERROR
        self._set_down(session.urls, status, outcome.errors, embedded)

    def _embedded_urls(self) -> tuple[str, str]:
        server = self._host.server
        return (server.http_url, server.metrics_url) if server is not None else ("", "")

    def _set_down(self, urls: Sequence[str], status: ConnectionStatus, causes: dict[str, Any],
                  embedded: bool) -> None:  # fmt: skip
        down = status == ConnectionStatus.DOWN
        parts = [self.tr("Server {0} is down: {1}").format(url, cause_text(cause)) if down
                 else self.tr("Server {0}: {1}").format(url, cause_text(cause))
                 for url, cause in causes.items()]  # fmt: skip
        self._set_state(ConnectionState(tuple(urls), status, "; ".join(parts), embedded,
                                        self._state.server_version))  # fmt: skip
        if self._session is None or self._session.client is None:
            self._current.set(None, "; ".join(parts))  # what a waiting batch reports

    def _on_embedded_started(self, result: tuple[EndpointClients, Any] | None, error: BaseException | None,
                             ) -> None:  # fmt: skip
        if error is None and result is not None:
            self._on_connected(result, None)
            return
        cause = cause_text(error or "unknown error")
        self._emit_log(cause)
        message = self.tr("The embedded server could not start: {0}").format(cause.splitlines()[0])
        self._set_state(ConnectionState((), ConnectionStatus.ERROR, message))

    def _set_failure(self, urls: Sequence[str], error: BaseException | None) -> None:
        """A job failed outright (bad TLS file, unreachable server...)."""
        cause = cause_text(error or "unknown error")
        status = status_of_error(error) if error is not None else ConnectionStatus.ERROR
        self._set_down(urls, status, dict.fromkeys(urls, cause), False)

    def _on_embedded_stopped(self, was_active: bool, error: BaseException | None) -> None:
        if error is not None:
            self._emit_log(self.tr("Stopping the embedded server failed: {0}").format(cause_text(error)))
        if not was_active:
            return
        if self._urls:  # back to the configured endpoints
            self._connect(self._urls, self._options)
        else:
            self._set_state(ConnectionState((), ConnectionStatus.IDLE, self.tr("Embedded server stopped")))

    @Slot()
    def _on_tick(self) -> None:
        """Periodic liveness check; reconnects when a server that was down answers again."""
        if self._background.running or self._closed:
            return
        session, status = self._session, self._state.status
        if session is None:
            if status == ConnectionStatus.DOWN and self._urls:
                self._submit(lambda: self._job_connect(self._urls, self._options), self._on_connected)
            return
        if status == ConnectionStatus.READY:
            self._submit(session.unhealthy, self._on_health)
        elif status == ConnectionStatus.DOWN:
            self._submit(session.connect, lambda outcome, error: self._on_reconnect(session, outcome, error))

    def _on_health(self, unhealthy: dict[str, str] | None, error: BaseException | None) -> None:
        session = self._session
        if session is None or unhealthy is None:
            return
        if unhealthy_status(session.urls, unhealthy) == ConnectionStatus.DOWN:
            self._set_down(session.urls, ConnectionStatus.DOWN, unhealthy, self._state.embedded)

    def _on_reconnect(self, session: EndpointClients, outcome: Any, error: BaseException | None) -> None:
        if session is not self._session:
            return
        if error is not None:
            self._set_failure(session.urls, error)
        else:
            self._apply_outcome(outcome)

    def _set_state(self, state: ConnectionState) -> None:
        if state == self._state:
            return
        self._state = state
        self.state_changed.emit(state)

