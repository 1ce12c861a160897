"""The SANE worker process: the app never calls SANE itself, and a stuck or crashed driver costs a scan,
never the app. Against SANE's `test` backend (a real virtual device); a stuck driver is a real worker
process stopped with SIGSTOP, a crash one killed with SIGKILL.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection

import pytest

from scanner_app.core.devices import DeviceError, ScanCancelled, ScannedPage, ScanSettings, open_device
from scanner_app.core.devices.base import PageProgress
from scanner_app.core.devices.sane_device import WORKER_FLAG, SaneDevice
from scanner_app.core.devices.sane_protocol import LIST, OK
from tests.helpers.paths import REPO
from tests.helpers.sane_backend import DEVICE, use_sane_test_backend

SLOW = {"read_delay": True, "read_delay_duration": 100_000}  # about 0.1 s a read: a page takes seconds
FEEDER = ScanSettings("feeder", dpi=75, mode="gray", options={"test_picture": "Grid", **SLOW})


def _open(**kw: float) -> SaneDevice:
    use_sane_test_backend()
    return SaneDevice(DEVICE, **kw)


def _stopped(pid: int) -> None:
    os.kill(pid, signal.SIGSTOP)


def _on_page(index: int, act: Callable[[], None]) -> PageProgress:
    """A progress callback that acts once the first line of page ``index`` is in."""

    def progress(page: int, fraction: float) -> None:
        if page == index and fraction > 0:
            act()

    return progress


def _scan_into(pages: list[ScannedPage], device: SaneDevice, progress: PageProgress,
               cancel: threading.Event | None = None) -> None:  # fmt: skip
    """Scan FEEDER, keeping each page in ``pages`` as it comes (the caller sees them when it raises)."""
    for page in device.scan(FEEDER, cancel or threading.Event(), progress):
        pages.append(page)


def test_the_app_process_never_loads_sane() -> None:
    use_sane_test_backend()
    code = (
        "import sys, threading\n"
        "from scanner_app.core.devices import open_device, list_devices, ScanSettings\n"
        f"assert {DEVICE!r} in [d.id for d in list_devices(network=False).devices]\n"
        f"dev = open_device({DEVICE!r})\n"
        "pages = list(dev.scan(ScanSettings('feeder', dpi=50, mode='gray'), threading.Event()))\n"
        "dev.close()\n"
        "assert len(pages) == 10, len(pages)\n"
        "loaded = [m for m in sys.modules if m in ('sane', '_sane') or m.endswith('sane_inprocess')]\n"
        "assert not loaded, loaded\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_a_driver_stuck_in_cancel_is_ended_and_the_device_opened_again() -> None:
    device = _open(cancel_grace_s=1.0)
    try:
        first = device.worker_pid
        cancel = threading.Event()
        pages: list[ScannedPage] = []

        def hang_then_cancel() -> None:
            _stopped(first)  # the driver hangs, as SANE's cancel did in a deadlock
            cancel.set()

        with pytest.raises(ScanCancelled, match="during page 2; the scanner's driver did not stop"):
            _scan_into(pages, device, _on_page(1, hang_then_cancel), cancel)
        assert [p.index for p in pages] == [0]
        with pytest.raises(ProcessLookupError):
            os.kill(first, 0)  # ended and reaped
        (page,) = list(device.scan(ScanSettings("flatbed", dpi=50, mode="gray"), threading.Event()))
        assert page.image.size[0] > 0 and device.worker_pid != first
    finally:
        device.close()


def test_a_driver_that_goes_silent_mid_scan_ends_the_scan_with_a_message() -> None:
    device = _open(stall_s=1.0)
    try:
        pid = device.worker_pid
        pages: list[ScannedPage] = []
        with pytest.raises(DeviceError, match="test:0: the scanner sent nothing for 1 s") as caught:
            _scan_into(pages, device, _on_page(1, lambda: _stopped(pid)))
        assert caught.value.kind == "failed" and len(pages) == 1
    finally:
        device.close()


def test_a_driver_that_crashes_is_reported_and_replaced() -> None:
    device = _open()
    try:
        pid = device.worker_pid
        pages: list[ScannedPage] = []
        with pytest.raises(DeviceError, match=r"test:0: the scanner's driver crashed \(signal 9\)"):
            _scan_into(pages, device, _on_page(0, lambda: os.kill(pid, signal.SIGKILL)))
        assert pages == []
        assert device.capabilities().sources == ("flatbed", "feeder")  # a new worker, opened again
        assert device.worker_pid != pid
    finally:
        device.close()


def test_a_scan_left_half_read_is_stopped_and_the_same_worker_goes_on() -> None:
    device = _open()
    try:
        pid = device.worker_pid
        fast = ScanSettings("feeder", dpi=50, mode="gray")
        for page in device.scan(fast, threading.Event()):
            assert page.index == 0
            break  # the caller stops reading: the generator is closed here
        # the test device's feeder holds 10 sheets per open: the same open device has the 9 left
        assert len(list(device.scan(fast, threading.Event()))) == 9
        assert device.worker_pid == pid
    finally:
        device.close()


def test_closing_ends_the_worker() -> None:
    use_sane_test_backend()
    device = open_device(DEVICE)
    assert isinstance(device, SaneDevice)
    pid = device.worker_pid
    device.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_the_bundles_launcher_runs_the_worker_and_it_ends_with_its_socket() -> None:
    use_sane_test_backend()
    ours, theirs = socket.socketpair()
    launcher = REPO / "packaging" / "desktop" / "launcher.py"
    proc = subprocess.Popen([sys.executable, str(launcher), WORKER_FLAG, str(theirs.fileno())],
                            pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)  # fmt: skip
    theirs.close()
    try:
        conn = Connection(ours.detach())
        conn.send((LIST,))
        assert conn.poll(60)
        tag, devices = conn.recv()
        assert tag == OK and DEVICE in [d.id for d in devices]
        conn.close()  # the app went away: the worker ends by itself
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_driver_stuck_after_its_scan_is_replaced_before_the_next_call() -> None:
    # The scan's outcome comes first and SANE's cleanup (sane_cancel) after it, then IDLE. A cleanup that
    # hangs is a stopped worker here, marked as just past a scan's outcome.
    device = _open(cancel_grace_s=1.0)
    try:
        assert len(list(device.scan(ScanSettings("flatbed", dpi=50, mode="gray"), threading.Event()))) == 1
        stuck = device.worker_pid  # IDLE read here: the scan's cleanup returned
        _stopped(stuck)
        device._worker.scan_ended()
        assert device.capabilities().sources == ("flatbed", "feeder")
        assert device.worker_pid != stuck
        with pytest.raises(ProcessLookupError):
            os.kill(stuck, 0)
    finally:
        device.close()
