"""The messages between the app and its SANE worker process (sane_device.py <-> sane_worker.py).

Every message is a tuple ``(tag, *args)`` pickled over a socket pair; both ends are this package.
A scan is lock-step, as a generator over the device is: the worker reads one page, sends it, and
reads the next only on ``NEXT`` (``CANCEL`` instead ends the scan there).
"""

from __future__ import annotations

from typing import Any, NoReturn

from PIL import Image

from scanner_app.core.devices.base import DeviceError, ScanCancelled, ScannedPage

PREFIX = "sane:"  # device ids of SANE devices: sane:NAME

# app -> worker
OPEN, LIST, CAPABILITIES, SET_OPTION, SCAN, NEXT, CANCEL, CLOSE = (
    "open", "list", "capabilities", "set_option", "scan", "next", "cancel", "close")  # fmt: skip
# worker -> app; a scan's outcome (ENDS_A_SCAN) comes before SANE's cleanup, which can hang, IDLE after it
OK, ERROR, CANCELLED, PROGRESS, PAGE, END, IDLE = (
    "ok", "error", "cancelled", "progress", "page", "end", "idle")  # fmt: skip
ENDS_A_SCAN = (ERROR, CANCELLED, END)

Message = tuple[Any, ...]


def page_message(page: ScannedPage) -> Message:
    image = page.image
    return (PAGE, page.index, page.side, image.mode, image.size, image.tobytes())


def page_from(message: Message) -> ScannedPage:
    _, index, side, mode, size, data = message
    return ScannedPage(index, Image.frombytes(mode, size, data), side)


def error_message(exc: BaseException) -> Message:
    """What the worker sends for an exception (exceptions themselves do not pickle with their kind)."""
    if isinstance(exc, ScanCancelled):
        return (CANCELLED, str(exc))
    if isinstance(exc, DeviceError):
        return (ERROR, exc.kind, str(exc))
    return (ERROR, "failed", f"{type(exc).__name__}: {exc}")


def raise_from(message: Message) -> NoReturn:
    """Raise what an ERROR or CANCELLED message carries."""
    if message[0] == CANCELLED:
        raise ScanCancelled(message[1])
    if message[0] == ERROR:
        raise DeviceError(message[1], message[2])
    raise DeviceError("failed", f"the SANE worker answered {message[0]!r} out of turn")
