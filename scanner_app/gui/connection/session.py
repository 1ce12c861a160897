"""Blocking, Qt-free pieces the connection runs on its worker thread.

``EndpointClients``: the clients of one endpoint configuration (short-deadline probe clients for
connect()/health checks, one working client or pool for recognize). ``CurrentRecognizer``: a
stable Recognizer that forwards to whichever session is current, so a running batch survives a
reconnect. ``LogTail``: follows a growing log file and hands each new line to a callback.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from scanner_app.core.client.endpoints import EndpointPool
from scanner_app.core.client.triton import ClientOptions, OcrClient, PipelineInfo, Recognizer
from scanner_app.core.errors import ScannerError, ServerUnavailable
from scanner_app.core.results import PageResult
from scanner_app.gui.connection.logic import cause_text, probe_options


@dataclass
class ConnectOutcome:
    """What EndpointClients.connect() found: each answering endpoint's pipeline, the others' causes."""

    infos: tuple[PipelineInfo, ...]
    errors: dict[str, ScannerError] = field(default_factory=dict)


class EndpointClients:
    """The clients for one list of endpoints and options. Use from one thread at a time (the worker)."""

    def __init__(self, urls: Sequence[str], options: ClientOptions, *, embedded: bool = False) -> None:
        """Creates the probe clients (reads the TLS files: ClientConfigError when they are bad)."""
        self.urls = tuple(urls)
        self.embedded = embedded  # the endpoint is the embedded server we started
        self.options = options
        self.probes = [OcrClient(url, probe_options(options)) for url in self.urls]
        self.client: OcrClient | EndpointPool | None = None

    def connect(self) -> ConnectOutcome:
        """connect() each endpoint (short deadline); make the working client once one answers."""
        infos: list[PipelineInfo] = []
        errors: dict[str, ScannerError] = {}
        for probe in self.probes:
            try:
                infos.append(probe.connect())
            except ScannerError as exc:
                errors[probe.url] = exc
        if infos and self.client is None:
            if len(self.urls) == 1:
                self.client = OcrClient(self.urls[0], self.options)
            else:
                self.client = EndpointPool(self.urls, self.options)
        return ConnectOutcome(tuple(infos), errors)

    def unhealthy(self) -> dict[str, str]:
        """One readiness probe per endpoint; url -> cause for those that did not answer ready."""
        found = {}
        for probe in self.probes:
            if not probe.is_ready():
                found[probe.url] = cause_text(probe.last_error or "not ready")
        return found

    def close(self) -> None:
        for probe in self.probes:
            probe.close()
        if self.client is not None:
            self.client.close()


class CurrentRecognizer:
    """A thread-safe Recognizer forwarding to the current session's client.

    With no client it raises ServerUnavailable (the batch runner then waits and retries),
    so a batch keeps going across reconnects and an embedded-server restart.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._client: Recognizer | None = None
        self._why = "not connected to a server"

    def set(self, client: Recognizer | None, why: str = "not connected to a server") -> None:
        with self._lock:
            self._client, self._why = client, why

    @property
    def connected(self) -> bool:
        with self._lock:
            return self._client is not None

    def recognize(self, encoded: bytes, name: str = "") -> PageResult:
        with self._lock:
            client, why = self._client, self._why
        if client is None:
            raise ServerUnavailable(why)
        return client.recognize(encoded, name)

    def close(self) -> None:
        """Nothing to close: the connection owns the clients."""


class LogTail:
    """Follows a log file from its current start in a daemon thread; each complete line -> on_line."""

    def __init__(self, path: Path, on_line: Callable[[str], object], interval_s: float = 0.25) -> None:
        self.path = path
        self.on_line = on_line
        self.interval_s = interval_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="server-log-tail", daemon=True)

    def start(self) -> LogTail:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop after reading what is left in the file."""
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(2.0)

    def _run(self) -> None:
        offset, partial = 0, b""
        while True:
            stopping = self._stop.wait(self.interval_s)
            try:
                with open(self.path, "rb") as f:
                    if os.fstat(f.fileno()).st_size < offset:  # rewritten: a restart on the same port
                        offset, partial = 0, b""
                    f.seek(offset)
                    data = f.read(1 << 20)
            except OSError:
                data = b""
            offset += len(data)
            *lines, partial = (partial + data).split(b"\n")
            for line in lines:
                self._emit(line)
            if stopping and len(data) < 1 << 20:
                if partial:
                    self._emit(partial)
                return

    def _emit(self, line: bytes) -> None:
        try:
            self.on_line(line.decode("utf-8", errors="replace").rstrip("\r"))
        except RuntimeError:  # the receiver is gone (app closing)
            self._stop.set()
