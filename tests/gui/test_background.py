"""The one off-GUI-thread runner: results on the GUI thread, errors, stale results, relays, deletion."""

from __future__ import annotations

import gc
import random
import threading
import time
import weakref

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QThread, QTimer, Signal
from PySide6.QtWidgets import QWidget

from scanner_app.gui.background import KEEPER_POLL_MS, Background

WAIT_MS = 10_000


class _Outcomes(QObject):
    """Collects on_done calls and says so by signal (qtbot waits on it)."""

    arrived = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[object, object, bool]] = []

    def __call__(self, result: object, error: BaseException | None) -> None:
        on_gui = QThread.currentThread() is self.thread()
        self.seen.append((result, type(error).__name__ if error else None, on_gui))
        self.arrived.emit()


def test_result_and_error_come_back_on_the_gui_thread(qtbot) -> None:
    background, outcomes = Background(), _Outcomes()
    workers: list[str] = []

    def work() -> int:
        workers.append(threading.current_thread().name)
        return 42

    background.run(work, outcomes)
    background.run(lambda: 1 / 0, outcomes)
    qtbot.waitUntil(lambda: len(outcomes.seen) == 2, timeout=WAIT_MS)
    assert {str(o) for o in outcomes.seen} == {str((42, None, True)), str((None, "ZeroDivisionError", True))}
    assert workers and workers[0] != threading.current_thread().name
    qtbot.waitUntil(lambda: background.running == 0, timeout=WAIT_MS)


def test_a_newer_run_in_the_same_slot_drops_the_older_result(qtbot) -> None:
    background, outcomes = Background(threads=2), _Outcomes()
    release, stale = threading.Event(), []
    old = lambda: release.wait(WAIT_MS / 1000) and "old"  # noqa: E731
    background.run(old, outcomes, slot="page", on_stale=stale.append)
    with qtbot.waitSignal(outcomes.arrived, timeout=WAIT_MS):
        background.run(lambda: "new", outcomes, slot="page")
    release.set()
    qtbot.waitUntil(lambda: stale == ["old"], timeout=WAIT_MS)
    assert outcomes.seen == [("new", None, True)]


def test_drop_and_close_drop_results_in_flight(qtbot) -> None:
    background, outcomes = Background(threads=1), _Outcomes()
    release, stale = threading.Event(), []
    background.run(lambda: release.wait(WAIT_MS / 1000) and "a", outcomes, on_stale=stale.append)
    background.drop()
    background.run(lambda: "b", outcomes, on_stale=stale.append)
    release.set()
    qtbot.waitUntil(lambda: stale == ["a"] and outcomes.seen == [("b", None, True)], timeout=WAIT_MS)
    running, finish = threading.Event(), threading.Event()
    slow_c = lambda: (running.set(), finish.wait(WAIT_MS / 1000), "c")[2]  # noqa: E731
    background.run(slow_c, outcomes, on_stale=stale.append)
    assert running.wait(WAIT_MS / 1000)
    background.close()  # "c" is running: its result arrives, and is dropped
    finish.set()
    qtbot.waitUntil(lambda: stale == ["a", "c"], timeout=WAIT_MS)
    background.run(lambda: "d", outcomes, on_stale=stale.append)  # ignored once closed
    assert background.running == 0 and outcomes.seen == [("b", None, True)]


def test_relay_delivers_items_from_other_threads_in_order_and_together(qtbot) -> None:
    background = Background()
    batches: list[list[tuple[int, int]]] = []
    post = background.relay(batches.append)
    threads = [threading.Thread(target=lambda k=k: [post((k, i)) for i in range(500)]) for k in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()  # the GUI thread is blocked here: nothing can be delivered yet
    qtbot.waitUntil(lambda: sum(len(b) for b in batches) == 1000, timeout=WAIT_MS)
    assert len(batches) == 1  # everything posted meanwhile came in one call
    for k in range(2):
        assert [i for producer, i in batches[0] if producer == k] == list(range(500))


def test_nothing_reaches_a_deleted_owner(qtbot) -> None:
    owner = QWidget()
    background = Background(owner)
    delivered: list[list[int]] = []
    post = background.relay(delivered.append)
    assert post(1)
    qtbot.waitUntil(lambda: delivered == [[1]], timeout=WAIT_MS)
    owner.deleteLater()
    with qtbot.waitSignal(background.destroyed, timeout=WAIT_MS):
        pass
    assert not post(2)


def test_one_thread_runs_calls_in_the_order_given(qtbot) -> None:
    background = Background(threads=1)
    order: list[int] = []
    for i in range(20):
        background.run(lambda i=i: i, lambda result, _error: order.append(result))
    qtbot.waitUntil(lambda: len(order) == 20, timeout=WAIT_MS)
    assert order == list(range(20))


def test_close_cancels_calls_not_started_yet(qtbot) -> None:
    background = Background(threads=1)
    release, started, ran = threading.Event(), threading.Event(), []
    background.run(lambda: (started.set(), release.wait(WAIT_MS / 1000)), lambda *_: ran.append("first"))
    background.run(lambda: ran.append("second"), lambda *_: None)
    assert started.wait(WAIT_MS / 1000)
    background.close()
    release.set()
    assert background.wait(WAIT_MS)
    qtbot.waitUntil(lambda: background.running == 0, timeout=WAIT_MS)
    assert ran == []  # the first one's outcome was dropped, the second never ran


def test_deleting_the_owner_with_a_call_in_flight_does_not_wait_for_it(qtbot) -> None:
    owner = QWidget()
    background = Background(owner)
    pool = weakref.ref(background._pool)
    started, release, finished = threading.Event(), threading.Event(), threading.Event()

    def slow() -> str:
        started.set()
        release.wait(WAIT_MS / 1000)
        finished.set()
        return "late"  # emitted after its owner is gone: must reach no one and crash nothing

    background.run(slow, lambda *_: None)
    assert started.wait(WAIT_MS / 1000)
    owner.deleteLater()
    with qtbot.waitSignal(background.destroyed, timeout=WAIT_MS):
        pass
    del background, owner
    gc.collect()  # the last Python references go: the GUI thread must not join the running call
    assert not finished.is_set()
    qtbot.wait(3 * KEEPER_POLL_MS)  # the GUI thread goes on; the pool is kept while the call runs
    assert pool() is not None and not finished.is_set()
    release.set()
    assert finished.wait(WAIT_MS / 1000)
    qtbot.waitUntil(lambda: pool() is None, timeout=WAIT_MS)  # then let go, not kept for good


def test_many_owners_deleted_while_their_calls_emit_results(qtbot) -> None:
    # Each round deletes owners whose calls return just then.
    gate = threading.Event()
    pools = []
    for _ in range(20):
        owners = [QWidget() for _ in range(4)]
        for owner in owners:
            background = Background(owner, threads=2)
            pools.append(weakref.ref(background._pool))
            for n in range(3):
                background.run(lambda n=n: gate.wait(0.01 * n) or n, lambda *_: None, on_stale=lambda _: None)
        for owner in owners:
            owner.deleteLater()
        del owners, owner, background
        # The deletions run here, some calls still running, some emitting.
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        gc.collect()
    qtbot.waitUntil(lambda: all(p() is None for p in pools), timeout=WAIT_MS)


def test_owners_deleted_at_random_while_calls_and_posts_are_in_flight(qtbot) -> None:
    """The stress that crashed superqt's workers (their signals objects deleted on pool threads) and
    posts that emitted on a Background being deleted: a segfault here fails the whole run."""
    rng = random.Random(7)
    live: list[tuple[QWidget, Background]] = []
    outcomes: list[object] = []
    rounds = [0]

    def call(seconds: float, post) -> float:
        time.sleep(seconds)
        for i in range(3):
            post(i)
        return seconds

    def step() -> None:
        rounds[0] += 1
        for _ in range(rng.randint(0, 3)):
            owner = QWidget()
            background = Background(owner, threads=rng.choice([1, 2, 4]))
            post = background.relay(lambda items: None)
            for _ in range(rng.randint(1, 4)):
                seconds = rng.random() * (0.1 if rng.random() < 0.1 else 0.01)
                background.run(lambda s=seconds, p=post: call(s, p), lambda r, _e: outcomes.append(r),
                               slot=rng.choice([None, "a", "b"]), on_stale=lambda _r: None)  # fmt: skip
            live.append((owner, background))
        rng.shuffle(live)
        for _ in range(rng.randint(0, len(live))):
            owner, background = live.pop()
            if rng.random() < 0.3:
                background.close()
            if rng.random() < 0.5:
                owner.deleteLater()
            del owner, background  # the last references of the others: deleted here
        if rng.random() < 0.3:
            gc.collect()
        if rounds[0] < STRESS_ROUNDS:
            QTimer.singleShot(rng.randint(0, 10), step)

    step()
    qtbot.waitUntil(lambda: rounds[0] >= STRESS_ROUNDS, timeout=120_000)
    live.clear()
    gc.collect()
    assert len(outcomes) > STRESS_ROUNDS // 3  # calls ran and came back all along


STRESS_ROUNDS = 1500
