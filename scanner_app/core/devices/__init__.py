"""Scanners (no Qt): one interface (``base.Device``), SANE on Linux, eSCL over HTTP everywhere.

Device ids carry their backend: ``sane:NAME`` (``sane:test:0``, ``sane:airscan:e0:Canon ...``) or
``escl:http://HOST:PORT/eSCL``.
"""

from __future__ import annotations

import sys

from scanner_app.core.devices.base import (
    NO_PLATFORM_SUPPORT,
    Device,
    DeviceError,
    DeviceInfo,
    ScanCancelled,
    ScannedPage,
    ScanSettings,
)

__all__ = [
    "NO_PLATFORM_SUPPORT",
    "Device",
    "DeviceError",
    "DeviceInfo",
    "DeviceList",
    "ScanCancelled",
    "ScanSettings",
    "ScannedPage",
    "list_devices",
    "open_device",
]  # fmt: skip

from dataclasses import dataclass


@dataclass(frozen=True)
class DeviceList:
    devices: tuple[DeviceInfo, ...]
    problems: tuple[str, ...]  # why a backend found nothing (SANE missing, platform unsupported)


def list_devices(network: bool = True, discover_s: float = 3.0) -> DeviceList:
    """SANE's devices (Linux) and, with ``network``, eSCL scanners found by zeroconf."""
    devices: list[DeviceInfo] = []
    problems: list[str] = []
    if sys.platform.startswith("linux"):
        from scanner_app.core.devices import sane_device

        try:
            devices += sane_device.list_devices()
        except DeviceError as exc:
            problems.append(str(exc))
    if network:
        from scanner_app.core.devices.escl_discovery import discover

        devices += discover(discover_s)
    if not devices and not sys.platform.startswith("linux"):
        problems.append(NO_PLATFORM_SUPPORT)
    return DeviceList(tuple(devices), tuple(problems))


def open_device(device_id: str) -> Device:
    """Open a device by its id (see the module docstring); DeviceError when it cannot be."""
    from scanner_app.core.devices import escl, sane_device

    if device_id.startswith(escl.PREFIX):
        return escl.EsclDevice(device_id)
    if device_id.startswith(("http://", "https://")):
        return escl.EsclDevice(escl.PREFIX + device_id)
    if not sys.platform.startswith("linux"):
        raise DeviceError("unsupported", f"{device_id}: {NO_PLATFORM_SUPPORT}")
    return sane_device.SaneDevice(device_id if device_id.startswith(sane_device.PREFIX) else
                                  sane_device.PREFIX + device_id)  # fmt: skip
