"""Scanners through SANE (Linux): every USB and network device SANE supports, in a worker process.

Every SANE call runs in a process of its own (sane_worker.py), one per open device, never in the
app's: SANE backends read in a thread that sane_cancel() kills (pthread_cancel, asynchronous), and
one killed inside malloc leaves the allocator's lock held, which deadlocks every thread of the
process for good (seen with SANE's own test backend: the GUI froze in C). In the worker such a hang
costs at most CANCEL_GRACE_S: the worker is ended and the next call starts a new one. A backend that
crashes takes only the worker with it, and the app reports the crash.

Why python-sane and not the ``scanimage`` program: speed does not decide it (SANE's test device,
300 dpi colour, median of 20: python-sane 63 ms a page with per-line progress, scanimage 31 ms to
PNM and 131 ms to PNG, process start included; a real scanner takes seconds a page). python-sane
reads line by line, so a page can be cancelled mid-read, progress is exact, feeder pages arrive one
by one without watching a folder for files, options are typed with their constraints, and errors
come back as SANE statuses instead of stderr text to parse.
"""

from __future__ import annotations

import dataclasses
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection
from typing import Any

from scanner_app.core.devices.base import (
    Capabilities,
    DeviceError,
    DeviceInfo,
    PageProgress,
    ScanCancelled,
    ScannedPage,
    ScanSettings,
)
from scanner_app.core.devices.sane_protocol import (
    CANCEL,
    CANCELLED,
    CAPABILITIES,
    CLOSE,
    END,
    ENDS_A_SCAN,
    IDLE,
    LIST,
    NEXT,
    OK,
    OPEN,
    PAGE,
    PREFIX,
    PROGRESS,
    SCAN,
    SET_OPTION,
    Message,
    page_from,
    raise_from,
)
from scanner_app.server.process import spawn, stop

__all__ = ["PREFIX", "SaneDevice", "list_devices"]

WORKER_MODULE = f"{__package__}.sane_worker"
WORKER_FLAG = "--sane-worker"  # how a frozen app (packaging/desktop/launcher.py) is told to be the worker
CANCEL_GRACE_S = 10.0  # after Cancel, how long the driver may take to stop before its process is ended
STALL_S = 180.0  # silence during a scan (no line read, lamp warm-up included) before the driver is ended
REPLY_S = 60.0  # open, options, capabilities and listing (network backends search the LAN)
POLL_S = 0.1  # how often a scan looks at its cancel event while it waits for the worker
CLOSE_S = 5.0  # how long a closing worker may take before it is killed


def _start_worker(fd: int) -> subprocess.Popen[bytes]:
    if getattr(sys, "frozen", False):
        # A PyInstaller bundle has no interpreter to run spawn's death-signal wrapper with: its
        # launcher runs the worker, which ends by itself when our end of the socket closes.
        return subprocess.Popen([sys.executable, WORKER_FLAG, str(fd)], pass_fds=(fd,),
                                stdin=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    return spawn([sys.executable, "-m", WORKER_MODULE, str(fd)], pass_fds=(fd,))


class _Worker:
    """One worker process and our end of its socket."""

    def __init__(self, label: str) -> None:
        self._label = label
        ours, theirs = socket.socketpair()
        try:
            self._proc = _start_worker(theirs.fileno())
        except OSError as exc:
            ours.close()
            raise DeviceError("failed", f"{label}: cannot start the SANE worker: {exc}") from None
        finally:
            theirs.close()
        self._conn = Connection(ours.detach())
        self._scan_ended_at: float | None = None  # a scan's outcome came, its IDLE not yet

    def scan_ended(self) -> None:
        self._scan_ended_at = time.monotonic()

    def settled(self, grace_s: float) -> bool:
        """True once the last scan's SANE cleanup has returned (IDLE), waiting up to ``grace_s`` after
        its outcome; False when it hangs (the worker is then killed)."""
        if self._scan_ended_at is None:
            return True
        if self.wait_for((IDLE,), self._scan_ended_at + grace_s):
            self._scan_ended_at = None
            return True
        return False

    def wait_for(self, tags: tuple[str, ...], deadline: float) -> bool:
        """Drop messages until one tagged ``tags`` comes (True) or ``deadline`` (monotonic) passes:
        the worker is then killed (False)."""
        while (left := deadline - time.monotonic()) > 0:
            message = self.receive(left)
            if message is not None and message[0] in tags:
                return True
        self.kill()
        return False

    @property
    def pid(self) -> int:
        return self._proc.pid

    def alive(self) -> bool:
        return self._proc.poll() is None and not self._conn.closed

    def _gone(self) -> DeviceError:
        try:
            code = self._proc.wait(CLOSE_S)
        except subprocess.TimeoutExpired:
            code = None
        self.kill()
        how = "" if code is None else f" (signal {-code})" if code < 0 else f" (exit code {code})"
        return DeviceError("failed", f"{self._label}: the scanner's driver crashed{how}; try again")

    def send(self, message: Message) -> None:
        try:
            self._conn.send(message)
        except (OSError, ValueError):
            raise self._gone() from None

    def receive(self, timeout: float) -> Message | None:
        """The next message, or None after ``timeout`` seconds of silence."""
        try:
            if not self._conn.poll(timeout):
                return None
            message: Message = self._conn.recv()
        except (EOFError, OSError, ValueError):
            raise self._gone() from None
        return message

    def call(self, message: Message, timeout: float = REPLY_S) -> Any:
        self.send(message)
        reply = self.receive(timeout)
        if reply is None:
            self.kill()
            mute = f"the scanner's driver did not answer in {timeout:.0f} s"
            raise DeviceError("failed", f"{self._label}: {mute}")
        if reply[0] != OK:
            raise_from(reply)
        return reply[1]

    def kill(self) -> None:
        stop(self._proc, 0, name="SANE worker")
        self._conn.close()

    def close(self) -> None:
        if self.alive():
            try:
                self._conn.send((CLOSE,))
                self._proc.wait(CLOSE_S)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self.kill()


def list_devices() -> list[DeviceInfo]:
    """Every scanner SANE finds (USB, network backends, airscan/eSCL and WSD through sane-airscan)."""
    worker = _Worker("SANE")
    try:
        devices: list[DeviceInfo] = worker.call((LIST,))
        return devices
    finally:
        worker.close()


class SaneDevice:
    """One open SANE device, driven in its worker process; see ``Device`` in base.py.

    A worker that was ended (a stuck cancel, a crash) is replaced on the next call, and the device
    opened again: options set with ``set_option`` before then are the device's defaults again.
    """

    info: DeviceInfo  # as the worker's open reported it

    def __init__(
        self, device_id: str, *, cancel_grace_s: float = CANCEL_GRACE_S, stall_s: float = STALL_S
    ) -> None:
        self._name = device_id.removeprefix(PREFIX)
        self._grace_s = cancel_grace_s
        self._stall_s = stall_s
        self._worker = self._open()

    def _open(self) -> _Worker:
        worker = _Worker(self._name)
        try:
            self.info = worker.call((OPEN, self._name))
        except BaseException:
            worker.close()
            raise
        return worker

    def _live(self) -> _Worker:
        try:
            usable = self._worker.alive() and self._worker.settled(self._grace_s)
        except DeviceError:  # it died while it cleaned up
            usable = False
        if not usable:
            self._worker.kill()
            self._worker = self._open()
        return self._worker

    @property
    def worker_pid(self) -> int:
        """The PID of the process that makes this device's SANE calls."""
        return self._live().pid

    def capabilities(self) -> Capabilities:
        caps: Capabilities = self._live().call((CAPABILITIES,))
        return caps

    def set_option(self, name: str, value: str | int | float | bool) -> None:
        """Set one raw SANE option (``-`` or ``_`` in the name)."""
        self._live().call((SET_OPTION, name, value))

    def scan(
        self, settings: ScanSettings, cancel: threading.Event, progress: PageProgress | None = None
    ) -> Iterator[ScannedPage]:
        worker = self._live()
        worker.send((SCAN, dataclasses.replace(settings, options=dict(settings.options))))
        ended = False
        try:
            yield from self._pages(worker, cancel, progress)
            ended = True
        except (DeviceError, ScanCancelled):
            ended = True
            raise
        finally:
            if ended:
                worker.scan_ended()
            else:  # the caller stopped iterating (or its progress callback raised)
                self._abandon(worker)

    def _pages(
        self, worker: _Worker, cancel: threading.Event, progress: PageProgress | None
    ) -> Iterator[ScannedPage]:
        reading: int | None = None  # the page being read, once its first line is in
        cancelled_at: float | None = None
        cancelled_during: int | None = None
        heard = time.monotonic()
        while True:
            if cancel.is_set() and cancelled_at is None:
                worker.send((CANCEL,))
                cancelled_at, cancelled_during = time.monotonic(), reading
            message = worker.receive(POLL_S)
            now = time.monotonic()
            if message is None:
                if cancelled_at is not None and now - cancelled_at > self._grace_s:
                    worker.kill()
                    raise ScanCancelled(self._cancelled(cancelled_during, "; the scanner's driver did not "
                                                        "stop, so it was ended"))  # fmt: skip
                if cancelled_at is None and now - heard > self._stall_s:
                    worker.kill()
                    silent = f"the scanner sent nothing for {self._stall_s:.0f} s, so its driver was ended"
                    raise DeviceError("failed", f"{self._name}: {silent}; try again")
                continue
            heard = now
            tag = message[0]
            if tag == PROGRESS:
                reading = message[1]
                if progress is not None and cancelled_at is None:
                    progress(message[1], message[2])
            elif tag == PAGE:
                reading = None
                if cancelled_at is not None:
                    continue  # read to its end while the cancel was on its way: dropped, as Cancel asked
                yield page_from(message)
                if cancel.is_set():
                    continue  # sends CANCEL at the top instead of NEXT
                worker.send((NEXT,))
                heard = time.monotonic()
            elif tag == END:
                return
            elif tag == CANCELLED:
                raise ScanCancelled(self._cancelled(cancelled_during, "") if cancelled_during is not None
                                    else message[1])  # fmt: skip
            else:
                raise_from(message)

    @staticmethod
    def _cancelled(page: int | None, why: str) -> str:
        return ("scan cancelled" if page is None else f"scan cancelled during page {page + 1}") + why

    def _abandon(self, worker: _Worker) -> None:
        """Stop a scan nobody reads any more: cancel it and drain it, or end the worker."""
        if not worker.alive():
            return
        try:
            worker.send((CANCEL,))
            if worker.wait_for(ENDS_A_SCAN, time.monotonic() + self._grace_s):
                worker.scan_ended()
        except DeviceError:  # it died meanwhile
            pass

    def close(self) -> None:
        self._worker.close()

    def __enter__(self) -> SaneDevice:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
