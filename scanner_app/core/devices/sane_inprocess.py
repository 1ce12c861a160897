"""Scanners through SANE (Linux), in this process: python-sane's calls, run only in the SANE worker.

The app never calls SANE in its own process (see sane_device.py): a backend's reader thread killed by
sane_cancel() can die holding a malloc lock and deadlock every thread of the process.

Why python-sane and not the ``scanimage`` program: speed does not decide it (SANE's test device,
300 dpi colour, median of 20: python-sane 63 ms a page with per-line progress, scanimage 31 ms to
PNM and 131 ms to PNG, process start included; a real scanner takes seconds a page). python-sane
reads in-process line by line, so a page can be cancelled mid-read, progress is exact, feeder pages
arrive one by one without watching a folder for files, options are typed with their constraints,
and errors come back as SANE statuses instead of stderr text to parse.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import threading
import types
from collections.abc import Generator
from typing import Any

import numpy as np
from PIL import Image

from scanner_app.core.devices.base import (
    PAGE_SIZES,
    Capabilities,
    DeviceError,
    DeviceInfo,
    PageProgress,
    ScanCancelled,
    ScannedPage,
    ScanSettings,
    check_cancel,
    side_of,
)
from scanner_app.core.devices.sane_protocol import PREFIX

_COMMON_DPI = (75, 100, 150, 200, 300, 400, 600, 1200)
# sane_strstatus() texts -> (kind, what to tell the user)
_STATUS = {
    "Document feeder jammed": ("jammed", "paper jam in the feeder: clear it, then scan the rest"),
    "Document feeder out of documents": ("empty", "the feeder is empty: put the receipts in and scan again"),
    "Scanner cover is open": ("cover_open", "the scanner's cover is open: close it and scan again"),
    "Device busy": ("busy", "the scanner is busy (another program is using it): try again when it is free"),
    "Error during device I/O": ("unplugged", "the scanner stopped answering (unplugged or switched off?)"),
    "Access to resource has been denied": (
        "denied", "no permission to use the scanner (on Linux: add the user to the 'scanner' group)"),
    "Operation not supported": ("unsupported", "the scanner does not support this operation"),
    "Invalid argument": ("not_found", "no such scanner, or it refused the settings"),
}  # fmt: skip


@functools.cache
def _sane() -> types.ModuleType:
    """python-sane, initialised once per process (SANE itself is process-wide state)."""
    if not sys.platform.startswith("linux"):
        from scanner_app.core.devices.base import NO_PLATFORM_SUPPORT

        raise DeviceError("unsupported", f"SANE: {NO_PLATFORM_SUPPORT}")
    try:
        import sane  # type: ignore[import-untyped]
    except ImportError as exc:
        raise DeviceError(
            "unsupported",
            f"SANE is not available ({exc}): pip install python-sane, and install libsane1 "
            "(Debian/Ubuntu: apt-get install libsane1 sane-utils)",
        ) from None
    sane.init()
    return sane


def _error(exc: BaseException, device: str) -> DeviceError:
    text = str(exc)
    kind, message = _STATUS.get(text, ("failed", text or type(exc).__name__))
    return DeviceError(kind, f"{device}: {message}")


def _image(data: bytes, width: int, height: int, samples: int, sample_size: int) -> Image.Image:
    """An 8-bit L or RGB image from python-sane's raw buffer (16-bit samples in host order)."""
    if not data or height <= 0:
        raise DeviceError("failed", "the scanner returned no image data")
    pixels = np.frombuffer(data, np.uint16 if sample_size == 2 else np.uint8).reshape(height, width, samples)
    if sample_size == 2:
        pixels = np.right_shift(pixels, 8).astype(np.uint8)
    return Image.fromarray(pixels[:, :, 0] if samples == 1 else pixels, "L" if samples == 1 else "RGB")


def list_devices() -> list[DeviceInfo]:
    """Every scanner SANE finds (USB, network backends, airscan/eSCL and WSD through sane-airscan)."""
    sane = _sane()
    try:
        found = sane.get_devices()
    except sane._sane.error as exc:
        raise _error(exc, "SANE") from None
    return [DeviceInfo(PREFIX + name, vendor, model, kind) for name, vendor, model, kind in found]


def _source_kind(name: str) -> str | None:
    low = name.lower()
    if "duplex" in low:
        return "duplex"
    if any(word in low for word in ("adf", "feeder", "document")):
        return "feeder"
    if any(word in low for word in ("flatbed", "normal", "glass", "platen")):
        return "flatbed"
    return None


def _mode_kind(name: str) -> str | None:
    low = name.lower()
    if "colo" in low:
        return "color"
    if "gray" in low or "grey" in low:
        return "gray"
    if any(word in low for word in ("lineart", "binary", "halftone", "black")):
        return "lineart"
    return None


class InProcessSaneDevice:
    """One open SANE device, in this process; see ``Device`` in base.py."""

    def __init__(self, device_id: str) -> None:
        sane = _sane()
        self._name = device_id.removeprefix(PREFIX)
        self._errors = sane._sane.error
        try:
            self._dev = sane.open(self._name)
        except (self._errors, RuntimeError) as exc:
            err = _error(exc, self._name)
            if err.kind == "not_found":
                err = DeviceError("not_found", f"{self._name}: no such scanner (is it plugged in and on?)")
            raise err from None
        vendor, model = (self._name, "")
        with contextlib.suppress(RuntimeError, self._errors):
            vendor, model = self._dev.scanner_model
        self.info = DeviceInfo(PREFIX + self._name, vendor, model, "SANE device")

    # Options ---------------------------------------------------------------------------------
    def _option(self, name: str) -> Any | None:
        option = self._dev.opt.get(name)
        return option if option is not None and option.is_active() else None

    def _choices(self, name: str) -> list[Any]:
        option = self._option(name)
        return list(option.constraint) if option is not None and isinstance(option.constraint, list) else []

    def set_option(self, name: str, value: str | int | float | bool) -> None:
        """Set one raw SANE option (``-`` or ``_`` in the name)."""
        key = name.replace("-", "_")
        if key not in self._dev.opt:
            raise DeviceError("unsupported", f"{self._name}: no option {name!r}")
        try:
            setattr(self._dev, key, value)
        except (AttributeError, TypeError, self._errors) as exc:
            raise DeviceError("unsupported", f"{self._name}: cannot set {name} to {value!r}: {exc}") from None

    def capabilities(self) -> Capabilities:
        sources = tuple(dict.fromkeys(k for s in self._choices("source") if (k := _source_kind(str(s)))))
        modes = tuple(dict.fromkeys(k for m in self._choices("mode") if (k := _mode_kind(str(m)))))
        resolution = self._option("resolution")
        dpis: tuple[int, ...] = ()
        if resolution is not None:
            c = resolution.constraint
            if isinstance(c, list):
                dpis = tuple(int(v) for v in c)
            elif isinstance(c, tuple):
                dpis = tuple(d for d in _COMMON_DPI if c[0] <= d <= c[1])
        depths = tuple(int(d) for d in self._choices("depth")) or (8,)
        size = None
        x, y = self._option("br_x"), self._option("br_y")
        if (
            x is not None
            and y is not None
            and isinstance(x.constraint, tuple)
            and isinstance(y.constraint, tuple)
        ):
            size = (float(x.constraint[1]), float(y.constraint[1]))
        return Capabilities(sources or ("flatbed",), modes or ("color",), dpis or (300,), depths, size)

    def _apply(self, settings: ScanSettings) -> None:
        sources = {_source_kind(str(s)): s for s in reversed(self._choices("source"))}
        if settings.source == "duplex" and "duplex" not in sources:
            if "Duplex" in self._choices("adf_mode") and "feeder" in sources:
                self.set_option("source", sources["feeder"])
                self.set_option("adf_mode", "Duplex")
            else:
                raise DeviceError(
                    "unsupported", f"{self._name}: this scanner cannot scan both sides (no duplex)"
                )
        elif sources and settings.source not in sources:
            raise DeviceError("unsupported", f"{self._name}: this scanner has no {settings.source}")
        elif sources:
            self.set_option("source", sources[settings.source])
        modes = {_mode_kind(str(m)): m for m in reversed(self._choices("mode"))}
        if modes:
            if settings.mode not in modes:
                raise DeviceError("unsupported", f"{self._name}: this scanner has no {settings.mode} mode")
            self.set_option("mode", modes[settings.mode])
        if self._option("resolution") is not None:
            self.set_option("resolution", settings.dpi)
        if self._option("depth") is not None and settings.depth in self._choices("depth"):
            self.set_option("depth", settings.depth)
        if settings.page_size is not None:
            self._set_area(*PAGE_SIZES[settings.page_size])
        for name, value in settings.options.items():
            self.set_option(name, value)

    def _set_area(self, width_mm: float, height_mm: float) -> None:
        for name, value in (("tl_x", 0), ("tl_y", 0), ("br_x", width_mm), ("br_y", height_mm)):
            option = self._option(name)
            if option is None or option.unit != self._sane_unit_mm():
                continue
            low, high = (option.constraint[0], option.constraint[1]) if isinstance(option.constraint, tuple) \
                else (value, value)  # fmt: skip
            self.set_option(name, min(max(value, low), high))

    @staticmethod
    def _sane_unit_mm() -> int:
        return int(_sane()._sane.UNIT_MM)

    # Scanning --------------------------------------------------------------------------------
    def scan(
        self,
        settings: ScanSettings,
        cancel: threading.Event,
        progress: PageProgress | None = None,
        *,
        end: bool = True,
    ) -> Generator[ScannedPage, None, None]:
        """See ``Device.scan``; with ``end=False`` the caller calls ``end_scan`` itself afterwards."""
        self._apply(settings)
        feeder = settings.source != "flatbed"
        index = 0
        try:
            while True:
                check_cancel(cancel)
                try:
                    self._dev.start()
                except self._errors as exc:
                    err = _error(exc, self._name)
                    if feeder and err.kind == "empty" and index > 0:
                        return  # the feeder ran out: the normal end of a stack
                    raise err from None
                image = self._read(index, cancel, progress)
                side = side_of(settings, index)
                yield ScannedPage(index, image, side)
                index += 1
                if not feeder:
                    return
        finally:
            if end:
                self.end_scan()

    def end_scan(self) -> None:
        """sane_cancel(): SANE's end of every scan. It can hang (see sane_device.py); scan calls it
        last, so that a caller that must answer first can run the scan with ``end=False``."""
        with contextlib.suppress(self._errors):
            self._dev.cancel()

    def _read(self, index: int, cancel: threading.Event, progress: PageProgress | None) -> Image.Image:
        last = [-1.0]

        cancelled: list[int] = []  # the line at which the cancel was noticed

        def on_line(line: int, total: int) -> None:
            # Never raise here: python-sane 2.9.2 dereferences the callback's NULL result (a crash).
            # sane_cancel() instead makes the next sane_read() return SANE_STATUS_CANCELLED.
            if cancel.is_set() and not cancelled:
                cancelled.append(line)
                self._dev.cancel()
                return
            if progress is not None:
                fraction = line / total if total > 0 else -1.0
                if fraction < 0 or fraction - last[0] >= 0.02 or line == total:
                    last[0] = fraction
                    progress(index, fraction)

        try:
            # 16-bit samples must be asked for whole: python-sane's 8-bit path reads half lines then.
            data, width, height, samples, size = self._dev.dev.snap(True, True, on_line)
        except (self._errors, RuntimeError) as exc:
            if cancelled:
                raise ScanCancelled(f"scan cancelled during page {index + 1}") from None
            raise _error(exc, self._name) from None
        if cancelled:  # the backend had the whole page buffered already: it still counts as cancelled
            raise ScanCancelled(f"scan cancelled during page {index + 1}")
        return _image(bytes(data), width, height, samples, size)

    def close(self) -> None:
        with contextlib.suppress(self._errors):
            self._dev.close()

    def __enter__(self) -> InProcessSaneDevice:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
