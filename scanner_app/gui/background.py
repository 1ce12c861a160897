"""The one way to run blocking work off the GUI thread (superqt's thread workers underneath).

The whole API:

- ``Background(parent, threads=4)``: a QObject with its own pool of ``threads`` worker threads
  (``threads=1`` runs calls one at a time, in the order given).
- ``run(call, on_done, *, slot=None, on_stale=None)``: ``call()`` runs on a superqt
  ``FunctionWorker``; ``on_done(result, error)`` then runs on the GUI thread.
  Error policy: an ``Exception`` raised by ``call`` is caught and becomes ``error`` (``result`` is
  None); ``on_done`` shows it. Stale results: a later ``run`` with the same ``slot`` (any hashable),
  or ``drop(slot)``, makes this run's outcome be dropped: ``on_done`` is not called, ``on_stale(result)``
  is (when given and there is a result) so that the result can be released (a client, a session).
- ``relay(handler) -> post``: ``post(item)`` may be called from any thread (batch runner events,
  session callbacks); items reach ``handler(items)`` on the GUI thread, in order, those posted
  meanwhile together in one call. ``post`` returns False once the items can no longer be delivered.
- ``drop(slot=None)``: drop the outcome of the runs in flight for ``slot`` (every slot when None).
- ``running``: runs not reported back yet. ``wait(msecs)``: block until no call is running.
- ``close()``: drop everything in flight (stale results go to ``on_stale``), cancel the calls not
  started yet, ignore every later run and post.

The "receiver was deleted" case is handled here once: outcomes and posts that arrive after this
object was closed or deleted are dropped, never delivered to a half-destroyed widget.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

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
        """Runs started and not reported back yet."""
        return len(self._runs)

    def run(
        self,
        call: Callable[[], Any],
        on_done: Done,
        *,
        slot: Hashable | None = None,
        on_stale: Callable[[Any], None] | None = None,
    ) -> None:
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
        """Outcomes of runs in flight for ``slot`` (all slots when None) will be dropped."""
        for run in self._runs.values():
            if slot is None or run.slot == slot:
                run.token = 0

    def relay(self, handler: Callable[[list[T]], None]) -> Callable[[T], bool]:
        """A thread-safe ``post(item)`` whose items reach ``handler(items)`` on the GUI thread."""
        relay = _Relay(handler)

        def post(item: T) -> bool:
            if self._closed:
                return False
            if relay.add(item):
                try:
                    self._posted.emit(relay)
                except RuntimeError:  # this object was deleted (window closing)
                    return False
            return True

        return post

    def wait(self, msecs: int = -1) -> bool:
        """Block until no call is running (True), or ``msecs`` passed (False). Outcomes still follow."""
        return self._pool.waitForDone(msecs)

    def close(self) -> None:
        """Drop every outcome in flight, cancel calls not started yet, ignore later runs and posts."""
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
        items = relay.take()
        if items and not self._closed:
            relay.handler(items)


class _Relay(Generic[T]):
    """Items posted from other threads, waiting for the GUI thread."""

    def __init__(self, handler: Callable[[list[T]], None]) -> None:
        self.handler = handler
        self._items: list[T] = []
        self._lock = threading.Lock()

    def add(self, item: T) -> bool:
        """Queue an item; True when the GUI thread must be woken (nothing was waiting)."""
        with self._lock:
            self._items.append(item)
            return len(self._items) == 1

    def take(self) -> list[T]:
        with self._lock:
            items, self._items = self._items, []
        return items


__all__ = ["Background", "Done"]
