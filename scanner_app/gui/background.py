"""Run one blocking call off the GUI thread; its result (or error) comes back on the GUI thread."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

Done = Callable[[Any, BaseException | None], None]


class Background(QObject):
    """``run(call, on_done)``: ``call()`` on a daemon thread, then ``on_done(result, error)`` here.

    ``on_done`` runs on the thread that owns this object (the GUI thread) through a queued signal.
    """

    _finished = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._running = 0
        self._finished.connect(self._on_finished)

    @property
    def running(self) -> int:
        """Calls started and not reported back yet."""
        return self._running

    def run(self, call: Callable[[], Any], on_done: Done, name: str = "background") -> None:
        self._running += 1

        def work() -> None:
            result, error = None, None
            try:
                result = call()
            except Exception as exc:  # handed to on_done
                error = exc
            with contextlib.suppress(RuntimeError):  # the receiver was deleted meanwhile
                self._finished.emit((on_done, result, error))

        threading.Thread(target=work, name=name, daemon=True).start()

    @Slot(object)
    def _on_finished(self, payload: tuple[Done, Any, BaseException | None]) -> None:
        self._running -= 1
        on_done, result, error = payload
        on_done(result, error)
