"""The one way to run blocking work off the GUI thread (superqt's thread workers underneath).

- ``Background(parent, threads=4)``: a QObject with its own pool (``threads=1``: calls in order).
- ``run(call, on_done, *, slot=None, on_stale=None)``: ``call()`` runs on a superqt FunctionWorker,
  then ``on_done(result, error)`` on the GUI thread. Error policy: an ``Exception`` raised by
  ``call`` becomes ``error`` (``result`` None); nothing else is caught. Stale results: a later run
  with the same ``slot`` (any hashable), or ``drop(slot)``, drops this run's outcome: ``on_done`` is
  not called, ``on_stale(result)`` is (when there is a result) so that it can be released.
- ``relay(handler) -> post``: ``post(item)`` from any thread; items reach ``handler(items)`` on the
  GUI thread in order, those posted meanwhile in one call. ``post`` is False once undeliverable.
- ``drop(slot=None)`` (every slot when None); ``running``: runs not reported back yet;
  ``wait(msecs)``: block until no call runs; ``close()``: drop what is in flight, cancel what has
  not started, ignore later runs and posts.

The "receiver was deleted" case is handled here once: outcomes and posts that arrive after this
object was closed or deleted are never delivered.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import shiboken6
from PySide6.QtCore import QObject, QThreadPool, Signal, Slot

os.environ.setdefault("QT_API", "pyside6")  # superqt goes through qtpy, which would prefer a PyQt5 if present
from superqt.utils import FunctionWorker

T = TypeVar("T")
Done = Callable[[Any, BaseException | None], None]
log = logging.getLogger(__name__)


@dataclass
class _Run:
    worker: FunctionWorker
    slot: Hashable | None
    token: int
    on_done: Done
    on_stale: Callable[[Any], None] | None


@dataclass
class _Relay:
    handler: Callable[[list[Any]], None]
    items: list[Any] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Background(QObject):
    """See the module docstring."""

    _posted = Signal(object)  # a _Relay with items waiting

    def __init__(self, parent: QObject | None = None, *, threads: int = 4) -> None:
        super().__init__(parent)
        self._pool = QThreadPool()  # unparented: deleting the owner must not block on running calls
        self._pool.setMaxThreadCount(max(1, threads))
        self._runs: dict[QObject, _Run] = {}  # keyed by the worker's signals object
        self._latest: dict[Hashable, int] = {}
        self._tokens = itertools.count(1)
        self._closed = False
        self._posted.connect(self._on_posted)

    @property
    def running(self) -> int:
        return len(self._runs)

    def run(self, call: Callable[[], Any], on_done: Done, *, slot: Hashable | None = None,
            on_stale: Callable[[Any], None] | None = None) -> None:  # fmt: skip
        if self._closed:
            return
        token = next(self._tokens)
        if slot is not None:
            self._latest[slot] = token
        worker = FunctionWorker(call)
        worker.returned.connect(self._on_returned)
        worker.errored.connect(self._on_errored)
        worker.warned.connect(self._on_warned)
        self._runs[worker.signals] = _Run(worker, slot, token, on_done, on_stale)
        self._pool.start(worker)

    def drop(self, slot: Hashable | None = None) -> None:
        for run in self._runs.values():
            if slot is None or run.slot == slot:
                run.token = 0

    def relay(self, handler: Callable[[list[T]], None]) -> Callable[[T], bool]:
        relay = _Relay(handler)

        def post(item: T) -> bool:
            if self._closed:
                return False
            with relay.lock:
                relay.items.append(item)
                wake = len(relay.items) == 1  # else a wake-up is already on its way
            if wake:
                try:
                    self._posted.emit(relay)
                except RuntimeError:  # this object was deleted (window closing)
                    return False
            return True

        return post

    def wait(self, msecs: int = -1) -> bool:
        """True once no call runs (outcomes still follow), False after ``msecs``."""
        return self._pool.waitForDone(msecs)

    def close(self) -> None:
        self._closed = True
        self.drop()
        for signals, run in list(self._runs.items()):
            with contextlib.suppress(RuntimeError):  # the worker is already done and deleted
                if self._pool.tryTake(run.worker):
                    del self._runs[signals]

    # GUI thread ---------------------------------------------------------------------------------
    @Slot(object)
    def _on_returned(self, result: Any) -> None:
        self._finish(self.sender(), result, None)

    @Slot(object)
    def _on_errored(self, error: BaseException) -> None:
        self._finish(self.sender(), None, error)

    @Slot(tuple)
    def _on_warned(self, args: tuple) -> None:
        log.warning("%s", args[0] if args else args)

    def _finish(self, signals: QObject, result: Any, error: BaseException | None) -> None:
        run = self._runs.pop(signals, None)
        if run is None:
            return
        current = run.token and (run.slot is None or self._latest.get(run.slot) == run.token)
        if self._closed or not current or not shiboken6.isValid(self):
            if run.on_stale is not None and result is not None:
                run.on_stale(result)
            return
        run.on_done(result, error)

    @Slot(object)
    def _on_posted(self, relay: _Relay) -> None:
        with relay.lock:
            items, relay.items = relay.items, []
        if items and not self._closed:
            relay.handler(items)


__all__ = ["Background", "Done"]
