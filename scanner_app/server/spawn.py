"""Start child processes that die with this process, whichever thread asks for them.

Linux's PR_SET_PDEATHSIG signals a child when the *thread* that forked it ends, not the process.
A server started from a short-lived worker thread (the desktop app starts the embedded Triton off
the GUI thread) would be killed when that thread ends, and without PDEATHSIG it would outlive a
crashed or killed app. So every fork happens on one daemon thread that lives as long as the
process: the child is signalled exactly when the process goes.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from concurrent.futures import Future
from typing import Any

# Runs in the child: SIGTERM it when the forking thread (so: this process) ends, then exec the command.
_EXEC_WITH_PDEATHSIG = (
    "import ctypes, os, signal, sys\n"
    "ctypes.CDLL(None).prctl(1, int(sys.argv[2]))\n"  # PR_SET_PDEATHSIG
    "if os.getppid() != int(sys.argv[1]): sys.exit(1)\n"  # the parent died before prctl took effect
    "os.execv(sys.argv[3], sys.argv[3:])\n"
)


class _ForkThread:
    """One daemon thread that performs every Popen handed to it, for the life of the process."""

    def __init__(self) -> None:
        self._requests: queue.SimpleQueue[tuple[Future[subprocess.Popen[bytes]], list[str], dict[str, Any]]]
        self._requests = queue.SimpleQueue()
        threading.Thread(target=self._serve, name="child-spawner", daemon=True).start()

    def popen(self, command: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
        future: Future[subprocess.Popen[bytes]] = Future()
        self._requests.put((future, command, kwargs))
        return future.result()

    def _serve(self) -> None:
        while True:
            future, command, kwargs = self._requests.get()
            try:
                future.set_result(subprocess.Popen(command, **kwargs))
            except BaseException as exc:  # handed back to the caller's thread
                future.set_exception(exc)


_spawner_lock = threading.Lock()
_spawner: list[_ForkThread] = []  # created on first use; one per process


def popen_dying_with_us(
    command: list[str], death_signal: signal.Signals = signal.SIGTERM, **kwargs: Any
) -> subprocess.Popen[bytes]:
    """``subprocess.Popen(command, **kwargs)`` whose child gets ``death_signal`` when this process ends."""
    wrapper = [sys.executable, "-I", "-S", "-c", _EXEC_WITH_PDEATHSIG]
    wrapped = [*wrapper, str(os.getpid()), str(int(death_signal)), *command]
    if threading.current_thread() is threading.main_thread():
        return subprocess.Popen(wrapped, **kwargs)  # the main thread lives as long as the process
    with _spawner_lock:
        if not _spawner:
            _spawner.append(_ForkThread())
        spawner = _spawner[0]
    return spawner.popen(wrapped, **kwargs)
