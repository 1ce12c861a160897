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

Deleting the owner never waits on the GUI thread for calls still running: their pool and workers
are kept (children of the application) until those calls end, then let go on the GUI thread.
The "receiver was deleted" case is handled here once: outcomes and posts that arrive after this
object was closed or deleted are never delivered.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
import os
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QThreadPool, QTimer, Signal, Slot

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
        self._pool = QThreadPool()  # its own, not the owner's: ~QThreadPool joins its calls
        self._pool.setMaxThreadCount(max(1, threads))
        self._runs: dict[QObject, _Run] = {}  # keyed by the worker's signals object
        # The partial holds the pool and the workers, whichever of this object's C++ and Python
        # halves goes first; _let_go keeps them past it while calls still run.
        self.destroyed.connect(functools.partial(_let_go, self._pool, self._runs))
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


LEFTOVER_POLL_MS = 100


class _Leftover(QObject):
    """The pool and workers of a Background deleted while its calls ran: a child of the application
    until those calls end, then deleted on the GUI thread. The workers must outlive their calls: a
    worker's signals object collected while its thread emits crashes the process."""

    def __init__(self, pool: QThreadPool, runs: dict[QObject, _Run], app: QCoreApplication) -> None:
        super().__init__(app)
        self._runs = runs
        self._pool = pool
        pool.setParent(self)  # owned by Qt now: no Python reference going deletes it (and joins)
        self._timer = QTimer(self, interval=LEFTOVER_POLL_MS)
        self._timer.timeout.connect(self._check)
        self._timer.start()

    @Slot()
    def _check(self) -> None:
        if self._pool.activeThreadCount() == 0:  # also nothing queued: a freed thread takes the next
            self._timer.stop()
            self._runs.clear()
            self.deleteLater()


def _let_go(pool: QThreadPool, runs: dict[QObject, _Run]) -> None:
    """On the owner's `destroyed`: keep the pool and workers past it, from the next turn of the event
    loop (no object is reparented while Qt and shiboken are still deleting the owner)."""
    app = QCoreApplication.instance()
    if app is not None:
        QTimer.singleShot(0, app, functools.partial(_keep_while_running, pool, dict(runs), app))


def _keep_while_running(pool: QThreadPool, runs: dict[QObject, _Run], app: QCoreApplication) -> None:
    if shiboken6.isValid(pool) and pool.activeThreadCount() > 0:
        _Leftover(pool, runs, app)
    # else nothing runs: the pool and workers go with these last references, with nothing to join


__all__ = ["Background", "Done"]
