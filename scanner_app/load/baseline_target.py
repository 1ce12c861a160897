"""BaselineTarget: the load engine's Target for the serial baseline (scanner_app.baseline), over HTTP.

Each worker thread keeps its own connection (http.client reconnects by itself when the
single-threaded server closes it after an answer, as an HTTP/1.0 server does).
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Sequence
from urllib.parse import quote, urlsplit

from scanner_app.core.errors import InferenceFailed, InvalidImage, ServerUnavailable
from scanner_app.core.results import PageResult
from scanner_app.load.golden import GoldenTarget, Timed


class BaselineTarget(GoldenTarget):
    """POSTs image `index % n` to `url`/ocr; `check` compares the lines' texts with the golden."""

    name = "baseline"
    model = ""  # no Triton model: the load engine reads no server statistics for it

    def __init__(self, url: str, images: Sequence[bytes], timeout_s: float = 600.0) -> None:
        self.images = list(images)
        super().__init__(len(self.images))
        parts = urlsplit(url if "://" in url else f"http://{url}")
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"the baseline URL must be http://HOST:PORT, got {url!r}")
        self.url = f"http://{parts.hostname}:{parts.port or 80}"
        self._host, self._port = parts.hostname, parts.port or 80
        self.timeout_s = timeout_s
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[http.client.HTTPConnection] = []

    def _connection(self) -> http.client.HTTPConnection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = http.client.HTTPConnection(self._host, self._port, timeout=self.timeout_s)
            self._local.connection = connection
            with self._lock:
                self._connections.append(connection)
        return connection

    def send(self, index: int) -> Timed:
        """One request; InvalidImage (400/413), InferenceFailed (5xx) or ServerUnavailable otherwise."""
        number = index % self.count
        connection = self._connection()
        started = time.perf_counter()
        try:
            connection.request(
                "POST", f"/ocr?name={quote(f'input-{number}')}", body=self.images[number],
                headers={"Content-Type": "application/octet-stream"},
            )  # fmt: skip
            response = connection.getresponse()
            body = response.read()
        except (OSError, http.client.HTTPException) as exc:
            connection.close()  # the next call opens a fresh connection
            raise ServerUnavailable(f"baseline at {self.url}: {type(exc).__name__}: {exc}") from None
        if response.status != 200:
            raise _error(response.status, body, self.url)
        page = PageResult.from_json(json.loads(body))
        outside = max(0.0, time.perf_counter() - started - page.elapsed_ms / 1000.0)
        return Timed(page, client_send_s=outside)

    def _same(self, golden: PageResult, page: PageResult) -> bool:
        same_size = (golden.width, golden.height) == (page.width, page.height)
        return same_size and [line.text for line in golden.lines] == [line.text for line in page.lines]

    def close(self) -> None:
        with self._lock:
            connections, self._connections = self._connections, []
        for connection in connections:
            connection.close()


def _error(status: int, body: bytes, url: str) -> Exception:
    try:
        message = str(json.loads(body)["error"])
    except (ValueError, KeyError, TypeError):
        message = body[:200].decode("utf-8", errors="replace")
    text = f"baseline at {url} answered {status}: {message}"
    if status in (400, 413):
        return InvalidImage(text)
    return InferenceFailed(text) if status >= 500 else ServerUnavailable(text)
