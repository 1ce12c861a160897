"""A text progress bar for batch events, on stderr (no dependency, no redraw per request)."""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

from scanner_app.core.batch.events import FileFailed, Progress, ServerWaiting


class ProgressPrinter:
    """Renders batch events: a live bar on a terminal, a line every few seconds otherwise."""

    def __init__(self, stream: TextIO | None = None, interval_s: float = 0.2) -> None:
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty()
        self.interval_s = interval_s if self.live else 5.0
        self._last = 0.0
        self._lock = threading.RLock()

    def __call__(self, event: object) -> None:
        if isinstance(event, FileFailed):
            self.message(f"FAILED {event.cause}")
        elif isinstance(event, ServerWaiting):
            self.message(f"server unavailable ({event.cause}); retrying in {event.retry_in:.0f} s")
        with self._lock:
            if isinstance(event, Progress):
                now = time.monotonic()
                finished = event.done + event.failed >= event.total
                if finished or now - self._last >= self.interval_s:
                    self._last = now
                    self._bar(event)

    def _bar(self, p: Progress) -> None:
        total = max(p.total, 1)
        filled = int(30 * (p.done + p.failed) / total)
        rate = p.pages / p.elapsed if p.elapsed > 0 else 0.0
        text = (
            f"[{'#' * filled}{'.' * (30 - filled)}] {p.done + p.failed}/{p.total} files"
            f", {p.failed} failed, {p.pages} pages, {rate:.1f} pages/s"
        )
        if self.live:
            self.stream.write(f"\r{text}\x1b[K")
            self.stream.flush()
        else:
            self.stream.write(text + "\n")

    def message(self, text: str, stream: TextIO | None = None) -> None:
        """Print a line above the bar (on ``stream``, default the bar's own stream)."""
        with self._lock:
            if self.live:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
            target = stream or self.stream
            target.write(text + "\n")
            target.flush()

    def close(self) -> None:
        if self.live:
            self.stream.write("\n")
            self.stream.flush()
