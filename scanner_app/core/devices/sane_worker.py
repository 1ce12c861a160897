"""The SANE worker: a process of its own that makes every python-sane call for one app device.

Run by sane_device.py as ``python -m scanner_app.core.devices.sane_worker FD`` (FD: its end of a
socket pair); messages in sane_protocol.py. A thread reads the socket so that a cancel reaches a
page being read; the main thread makes the SANE calls. The worker ends on CLOSE or when the app's
end of the socket closes (the app exited), within CLOSE_S even if a SANE call is stuck.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
from multiprocessing.connection import Connection

from scanner_app.core.devices import sane_inprocess
from scanner_app.core.devices.base import ScanCancelled, ScanSettings
from scanner_app.core.devices.sane_protocol import (
    CANCEL,
    CAPABILITIES,
    CLOSE,
    END,
    IDLE,
    LIST,
    NEXT,
    OK,
    OPEN,
    PROGRESS,
    SCAN,
    SET_OPTION,
    Message,
    error_message,
    page_message,
)

CLOSE_S = 5.0  # after CLOSE, how long a stuck SANE call may hold up the exit


class _Worker:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self._requests: queue.SimpleQueue[Message] = queue.SimpleQueue()
        self._cancel = threading.Event()
        self._device: sane_inprocess.InProcessSaneDevice | None = None

    def listen(self) -> None:
        """The reading thread: a cancel takes effect at once, everything else waits its turn."""
        while True:
            try:
                message: Message = self._conn.recv()
            except (EOFError, OSError):
                message = (CLOSE,)
            if message[0] == SCAN:
                self._cancel.clear()  # before the scan is queued: a cancel sent after it stays set
            elif message[0] == CANCEL:
                self._cancel.set()
            self._requests.put(message)
            if message[0] == CLOSE:
                timer = threading.Timer(CLOSE_S, os._exit, (1,))
                timer.daemon = True
                timer.start()
                return

    def serve(self) -> None:
        while True:
            message = self._requests.get()
            tag = message[0]
            if tag == CLOSE:
                break
            if tag in (CANCEL, NEXT):  # late: the scan it was meant for has ended
                continue
            if tag == SCAN:
                self._scan(message[1])
            else:
                self._reply(message)
        if self._device is not None:
            self._device.close()

    def _reply(self, message: Message) -> None:
        try:
            answer = self._answer(message)
        except Exception as exc:
            self._conn.send(error_message(exc))
        else:
            self._conn.send((OK, answer))

    def _answer(self, message: Message) -> object:
        tag = message[0]
        if tag == LIST:
            return sane_inprocess.list_devices()
        if tag == OPEN:
            self._device = sane_inprocess.InProcessSaneDevice(message[1])
            return self._device.info
        if self._device is None:
            raise RuntimeError(f"{tag} before open")
        if tag == CAPABILITIES:
            return self._device.capabilities()
        if tag == SCAN:
            raise RuntimeError("a scan while one is running")
        if tag == SET_OPTION:
            self._device.set_option(message[1], message[2])
            return None
        raise RuntimeError(f"unknown request {tag!r}")

    def _scan(self, settings: ScanSettings) -> None:
        """Run one scan; its outcome is sent before sane_cancel(), which can hang, and IDLE after it."""
        device = self._device
        try:
            if device is None:
                raise RuntimeError("scan before open")
            progress = lambda i, f: self._conn.send((PROGRESS, i, f))  # noqa: E731
            for page in device.scan(settings, self._cancel, progress, end=False):
                self._conn.send(page_message(page))
                if not self._go_on():
                    raise ScanCancelled("scan cancelled")
            self._conn.send((END,))
        except Exception as exc:
            self._conn.send(error_message(exc))
        finally:
            if device is not None:
                device.end_scan()
            self._conn.send((IDLE,))

    def _go_on(self) -> bool:
        """After a page: True on NEXT, False on CANCEL or CLOSE (CLOSE is queued again for serve).

        Requests in between (an option set between two sheets) are answered as they come."""
        while True:
            message = self._requests.get()
            if message[0] == NEXT:
                return True
            if message[0] == CANCEL:
                return False
            if message[0] == CLOSE:
                self._requests.put(message)
                return False
            self._reply(message)


def main(argv: list[str]) -> None:
    conn = Connection(int(argv[1]))
    worker = _Worker(conn)
    threading.Thread(target=worker.listen, name="sane-listen", daemon=True).start()
    worker.serve()


if __name__ == "__main__":
    main(sys.argv)
