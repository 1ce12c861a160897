"""Start, wait for and stop a server process of ours: the one way, for the embedded Triton and the baseline.

`spawn` starts the command in its own session (a stop reaches its whole process group) and makes
it die with this process whichever thread asked (scanner_app.server.spawn). `wait_ready` polls a
readiness probe until it answers, the process exits or a deadline passes; `stop` sends SIGTERM
by PID, waits, then kills the group. `start_ready` is start + wait_ready, stopping on failure.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from scanner_app.server.spawn import popen_dying_with_us

READY_POLL_S = 0.2  # how often wait_ready asks the readiness probe
KILL_WAIT_S = 10.0  # after SIGKILL, how long to wait for the kernel to reap the process


def spawn(command: list[str], **popen_kwargs: Any) -> subprocess.Popen[bytes]:
    """Popen(command) with no stdin, in a session of its own, signalled when this process ends."""
    popen_kwargs.setdefault("stdin", subprocess.DEVNULL)
    return popen_dying_with_us(command, start_new_session=True, **popen_kwargs)


def wait_ready(
    proc: subprocess.Popen[bytes],
    ready: Callable[[], bool],
    *,
    name: str,
    timeout: float,
    tail: Callable[[], str] = str,
    error: type[Exception] = RuntimeError,
    cancel: threading.Event | None = None,
    poll_s: float = READY_POLL_S,
) -> None:
    """Return once `ready()` is true; raise `error` (naming `name`, with `tail()`: the log's last lines)
    when the process exits first, when `timeout` seconds pass, or when `cancel` is set."""
    deadline = time.monotonic() + timeout
    pause = cancel or threading.Event()  # waits between probes end early on cancel
    while True:
        code = proc.poll()
        if code is not None:
            raise error(f"{name} exited with code {code} before it was ready.\n{tail()}")
        if ready():
            return
        if cancel is not None and cancel.is_set():
            raise error(f"{name}: start cancelled.")
        if time.monotonic() > deadline:
            raise error(f"{name} was not ready after {timeout:.0f} s.\n{tail()}")
        pause.wait(poll_s)


def stop(
    proc: subprocess.Popen[bytes],
    timeout: float,
    *,
    name: str,
    on_message: Callable[[str], object] | None = None,
) -> bool:
    """SIGTERM by PID, wait up to `timeout` s, then SIGKILL its process group; True when it was killed."""
    if proc.poll() is not None:
        return False
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout)
        return False
    except subprocess.TimeoutExpired:
        if on_message is not None:
            on_message(f"{name} did not stop within {timeout:.0f} s; killing it.")
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # not reaped yet: the group is still ours
        proc.wait(KILL_WAIT_S)
        return True


class Startable(Protocol):
    def start(self) -> None: ...
    def wait_ready(self) -> object: ...
    def stop(self) -> None: ...


S = TypeVar("S", bound=Startable)


def start_ready(server: S) -> S:
    """`server.start()` then `server.wait_ready()`; on any failure (or Ctrl-C) it is stopped again."""
    server.start()
    try:
        server.wait_ready()
    except BaseException:
        server.stop()
        raise
    return server
