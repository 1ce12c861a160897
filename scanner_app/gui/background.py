"""The one way to run blocking work off the GUI thread (a QThreadPool of its own, Qt's signals back).

- ``Background(parent, threads=4)``: a QObject with its own pool (``threads=1``: calls in order).
- ``run(call, on_done, *, slot=None, on_stale=None)``: ``call()`` runs on a pool thread, then
  ``on_done(result, error)`` on the GUI thread. Error policy: an ``Exception`` raised by ``call``
  becomes ``error`` (``result`` None); nothing else is caught. Stale results: a later run with the
  same ``slot`` (any hashable), or ``drop(slot)``, drops this run's outcome: ``on_done`` is not
  called, ``on_stale(result)`` is (when there is a result) so that it can be released.
- ``relay(handler) -> post``: ``post(item)`` from any thread; items reach ``handler(items)`` on the
  GUI thread in order, those posted meanwhile in one call. ``post`` is False once undeliverable.
- ``drop(slot=None)`` (every slot when None); ``running``: runs not reported back yet;
  ``wait(msecs)``: block until no call runs; ``close()``: drop what is in flight, cancel what has
  not started, ignore later runs and posts.

The "receiver was deleted" case is handled here once: outcomes and posts that arrive after this
object was closed or deleted are never delivered. Deleting the owner never waits on the GUI thread
for calls still running: the pool is kept (`_PoolKeeper`, a child of the application) until they
end, then let go on the GUI thread.

Why no superqt worker and no emit on this object: other threads emit only on a `_Mailbox` that they
hold a Python reference to and that no Qt parent deletes. A superqt worker's signals object is
deleted on the pool thread that ran it, while the GUI thread may be disconnecting it from a deleted
owner, and an emit on a Background the GUI thread is deleting races its destruction: both crashed a
stress of owners deleted with calls and posts in flight (`tests/gui/test_background.py`).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QThreadPool, QTimer, Signal, Slot

T = TypeVar("T")
Done = Callable[[Any, BaseException | None], None]


@dataclass
class _Run:
    """One call: `state` goes queued -> started (on its thread) or cancelled (by close), under `lock`."""

    call: Callable[[], Any]
    slot: Hashable | None
    token: int
    on_done: Done
    on_stale: Callable[[Any], None] | None
    state: str = "queued"
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class _Relay:
    handler: Callable[[list[Any]], None]
    items: list[Any] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    closed: bool = False


class _Mailbox(QObject):
    """What other threads emit on: owned by the Background and by the calls and posts in flight
    (Python references), never by a Qt parent, so never deleted while one of them emits."""

    outcome = Signal(object, object, object)  # the _Run, its result, its error
    wake = Signal(object)  # a _Relay with items waiting


def _execute(mailbox: _Mailbox, run: _Run) -> None:
    """On a pool thread: the call, then its outcome to the GUI thread."""
    with run.lock:
        if run.state != "queued":
            return
        run.state = "started"
    try:
        result, error = run.call(), None
    except Exception as exc:  # the error policy: Exceptions are outcomes, nothing else is caught
        result, error = None, exc
    with contextlib.suppress(RuntimeError):  # the mailbox itself deleted: the application is exiting
        mailbox.outcome.emit(run, result, error)  # reaches no one once the Background is deleted


class Background(QObject):
    """See the module docstring."""

    def __init__(self, parent: QObject | None = None, *, threads: int = 4) -> None:
        super().__init__(parent)
        self._pool = QThreadPool()  # unparented: ~QThreadPool joins its calls, see _keep_while_running
        self._pool.setMaxThreadCount(max(1, threads))
        self._mailbox = _Mailbox()
        self.destroyed.connect(functools.partial(_let_go, self._pool, self._mailbox))
        self._mailbox.outcome.connect(self._on_outcome)
        self._mailbox.wake.connect(self._on_posted)
        self._runs: dict[int, _Run] = {}  # by id: the runs not reported back yet
        self._relays: list[_Relay] = []
        self.destroyed.connect(functools.partial(_close_relays, self._relays))
        self._latest: dict[Hashable, int] = {}
        self._tokens = itertools.count(1)
        self._closed = False

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
        run = _Run(call, slot, token, on_done, on_stale)
        self._runs[id(run)] = run
        self._pool.start(functools.partial(_execute, self._mailbox, run))

    def drop(self, slot: Hashable | None = None) -> None:
        for run in self._runs.values():
            if slot is None or run.slot == slot:
                run.token = 0

    def relay(self, handler: Callable[[list[T]], None]) -> Callable[[T], bool]:
        relay = _Relay(handler)
        self._relays.append(relay)
        mailbox = self._mailbox

        def post(item: T) -> bool:  # holds no reference to this object: a post must not be its last
            if relay.closed:
                return False
            with relay.lock:
                relay.items.append(item)
                wake = len(relay.items) == 1  # else a wake-up is already on its way
            if wake:
                try:
                    mailbox.wake.emit(relay)
                except RuntimeError:  # the mailbox itself deleted: the application is exiting
                    return False
            return True

        return post

    def wait(self, msecs: int = -1) -> bool:
        """True once no call runs (outcomes still follow), False after ``msecs``."""
        return self._pool.waitForDone(msecs)

    def close(self) -> None:
        self._closed = True
        self.drop()
        _close_relays(self._relays)
        for key, run in list(self._runs.items()):
            with run.lock:
                if run.state == "queued":
                    run.state = "cancelled"
                    del self._runs[key]

    # GUI thread ---------------------------------------------------------------------------------
    @Slot(object, object, object)
    def _on_outcome(self, run: _Run, result: Any, error: BaseException | None) -> None:
        if self._runs.pop(id(run), None) is None:
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


def _close_relays(relays: list[_Relay]) -> None:
    """On close, and on the Background's `destroyed`: its posts return False from now on."""
    for relay in relays:
        relay.closed = True


KEEPER_POLL_MS = 100


class _PoolKeeper(QObject):
    """The pool of a Background deleted while its calls ran: kept (a child of the application) until
    they end, then let go on the GUI thread, where ~QThreadPool then has nothing to wait for."""

    def __init__(self, pool: QThreadPool, mailbox: _Mailbox, app: QCoreApplication) -> None:
        super().__init__(app)
        self._pool: QThreadPool | None = pool
        self._mailbox: _Mailbox | None = mailbox  # let go here too: on the GUI thread, once no call holds it
        self._timer = QTimer(self, interval=KEEPER_POLL_MS)
        self._timer.timeout.connect(self._check)
        self._timer.start()

    @Slot()
    def _check(self) -> None:
        if self._pool is not None and self._pool.activeThreadCount() == 0:
            self._timer.stop()
            self._pool = self._mailbox = None
            self.deleteLater()


def _let_go(pool: QThreadPool, mailbox: _Mailbox) -> None:
    """On a Background's `destroyed`: the mailbox is disconnected now, on the GUI thread (a call
    ending on a pool thread may drop the last reference to it: a connected object deleted there
    races this object's own disconnection); the pool goes on the next turn of the event loop, or to
    a keeper while calls still run (deleting it would join them on the GUI thread)."""
    with contextlib.suppress(RuntimeError, TypeError):
        mailbox.outcome.disconnect()
        mailbox.wake.disconnect()
    app = QCoreApplication.instance()
    if app is not None:
        QTimer.singleShot(0, app, functools.partial(_keep_while_running, pool, mailbox, app))


def _keep_while_running(pool: QThreadPool, mailbox: _Mailbox, app: QCoreApplication) -> None:
    if pool.activeThreadCount() > 0:
        _PoolKeeper(pool, mailbox, app)


__all__ = ["Background", "Done"]
