"""How a batch run rides out a server that is unavailable: each page is sent again with a doubling
backoff while the outage (one clock for every worker) is shorter than the run's patience; a page
that keeps timing out while other pages are read is the page's fault, not the server's."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from scanner_app.core.batch.events import ServerWaiting
from scanner_app.core.errors import ServerTimeout, ServerUnavailable, TlsError
from scanner_app.core.results import PageResult

POISON_TIMEOUTS = 3  # a page timing out this often while other pages succeed fails its file


class Stopped(Exception):
    """The run is stopping; the page is left for a later run."""


class OutOfPatience(Stopped):
    """The server stayed unavailable for the whole patience: the run must stop (the message says why)."""


class OutagePolicy:
    """Sends pages through an outage for one run; thread-safe (the outage's start is shared)."""

    def __init__(
        self,
        patience_s: float,
        first_backoff_s: float,
        max_backoff_s: float,
        halt: threading.Event,
        on_wait: Callable[[ServerWaiting], None],
    ) -> None:
        """``halt``: set once the run stops (a wait ends at once); ``on_wait``: each backoff, before it."""
        self.patience_s, self.first_backoff_s, self.max_backoff_s = patience_s, first_backoff_s, max_backoff_s
        self._halt, self._on_wait = halt, on_wait
        self._lock = threading.Lock()
        self._outage_since: float | None = None

    def recognize(
        self, recognize: Callable[[bytes, str], PageResult], data: bytes, name: str, sent: Callable[[], int]
    ) -> PageResult:
        """recognize(), sent again with backoff while the server is unavailable, within patience.

        ``sent()``: pages the run has read so far. Raises Stopped when the run stops, OutOfPatience
        when the outage outlasts the patience, ServerTimeout for a page that keeps timing out alone.
        """
        attempt = timeouts = 0
        sent_before = sent()
        while True:
            if self._halt.is_set():
                raise Stopped
            try:
                result = recognize(data, name)
            except ServerUnavailable as exc:
                if isinstance(exc, TlsError):
                    raise
                timeouts += isinstance(exc, ServerTimeout)
                if timeouts >= POISON_TIMEOUTS and sent() > sent_before:
                    why = f"timed out {timeouts} times while other pages were read: {exc}"
                    raise ServerTimeout(why) from None
                attempt += 1
                now = time.monotonic()
                with self._lock:
                    self._outage_since = self._outage_since or now
                    waited = now - self._outage_since
                if waited >= self.patience_s:
                    raise OutOfPatience(f"server unavailable for {waited:.0f} s: {exc}") from None
                delay = min(self.max_backoff_s, self.first_backoff_s * 2 ** (attempt - 1),
                            self.patience_s - waited)  # fmt: skip
                self._on_wait(ServerWaiting(str(exc), attempt, delay, waited))
                if self._halt.wait(delay):
                    raise Stopped from None
                continue
            with self._lock:
                self._outage_since = None
            return result
