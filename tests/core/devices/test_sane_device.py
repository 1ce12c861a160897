"""The SANE device layer against SANE's `test` backend, a real virtual device (not a mock).

Its pages are patterns, not text: these tests prove the device path (pages, order, feeder end, cancel,
bit depths, errors); the OCR of real receipts through the same batch path is in test_devices_feed.py
and test_devices_escl.py.
"""

from __future__ import annotations

import sys
import threading

import pytest

from scanner_app.core.devices import (
    NO_PLATFORM_SUPPORT,
    DeviceError,
    ScanCancelled,
    ScanSettings,
    list_devices,
    open_device,
)
from scanner_app.core.devices.blank import is_blank
from scanner_app.core.devices.sane_device import SaneDevice
from tests.helpers.sane_backend import DEVICE, use_sane_test_backend

RESET = {"read_return_value": "Default", "hand_scanner": False, "test_picture": "Solid black", "depth": 8}


@pytest.fixture
def device() -> SaneDevice:
    use_sane_test_backend()
    dev = open_device(DEVICE)
    assert isinstance(dev, SaneDevice)
    # Every open is a new worker process, but the options these tests rely on are set all the same.
    for name, value in RESET.items():
        dev.set_option(name, value)
    yield dev
    dev.close()


def _scan(dev: SaneDevice, settings: ScanSettings, **kw: object) -> list:
    return list(dev.scan(settings, threading.Event(), **kw))


def _near(size: tuple[int, int], mm: tuple[float, float], dpi: int) -> bool:
    """Pixels within one of the millimetres at ``dpi`` (backends truncate or round)."""
    return all(abs(px - v / 25.4 * dpi) <= 1 for px, v in zip(size, mm, strict=True))


def test_lists_the_test_devices_and_their_capabilities(device: SaneDevice) -> None:
    ids = [d.id for d in list_devices(network=False).devices]
    assert DEVICE in ids
    caps = device.capabilities()
    assert caps.sources == ("flatbed", "feeder")
    assert set(caps.modes) == {"gray", "color"}
    assert caps.depths == (1, 8, 16)
    assert 300 in caps.resolutions and 1200 in caps.resolutions
    assert caps.max_size_mm == (200.0, 200.0)


@pytest.mark.parametrize("depth", [1, 8, 16])
@pytest.mark.parametrize("mode", ["gray", "color"])
def test_flatbed_page_in_every_depth_and_mode(device: SaneDevice, depth: int, mode: str) -> None:
    pictures = _scan(device, ScanSettings("flatbed", dpi=100, mode=mode, depth=depth,
                                          options={"test_picture": "Color pattern"}))  # fmt: skip
    assert len(pictures) == 1
    page = pictures[0]
    assert page.image.mode == ("RGB" if mode == "color" else "L")
    assert _near(page.image.size, (80, 100), 100)  # the default 80 x 100 mm area
    bands = page.image.getextrema() if mode == "color" else (page.image.getextrema(),)
    assert (
        max(hi - lo for lo, hi in bands) > 200
    )  # the pattern survives every depth (16-bit to 8, 1-bit to 0/255)
    assert not is_blank(page.image)


def test_page_size_is_clamped_to_the_scan_area(device: SaneDevice) -> None:
    (page,) = _scan(device, ScanSettings("flatbed", dpi=50, mode="gray", page_size="a5"))
    assert _near(page.image.size, (148, 200), 50)  # A5 is 210 mm high; the glass 200 mm


def test_hand_scanner_of_unknown_height(device: SaneDevice) -> None:
    seen: list[float] = []
    (page,) = _scan(device, ScanSettings("flatbed", dpi=100, mode="gray", options={"hand_scanner": True}),
                    progress=lambda i, f: seen.append(f))  # fmt: skip
    assert abs(page.image.width - 110 / 25.4 * 100) <= 1  # hand-scanner mode fixes the width at 11 cm
    assert page.image.height > 0
    assert seen and all(f == -1.0 for f in seen)  # no height known in advance: no fraction


def test_feeder_ends_after_ten_sheets_in_order(device: SaneDevice) -> None:
    pages = _scan(device, ScanSettings("feeder", dpi=50, mode="gray"))
    assert [p.index for p in pages] == list(range(10))
    assert {p.side for p in pages} == {"front"}


def test_cancel_mid_page_keeps_the_pages_before(device: SaneDevice) -> None:
    cancel = threading.Event()
    fractions: list[tuple[int, float]] = []

    def progress(index: int, fraction: float) -> None:
        fractions.append((index, fraction))
        if index == 2 and fraction >= 0.3:
            cancel.set()

    pages = []
    slow = {"read_delay": True, "read_delay_duration": 20_000}  # the cancel reaches the worker mid-page
    with pytest.raises(ScanCancelled, match="during page 3"):
        for page in device.scan(ScanSettings("feeder", dpi=100, mode="gray", options=slow), cancel, progress):
            pages.append(page)
    assert [p.index for p in pages] == [0, 1]
    assert max(f for i, f in fractions if i == 2) < 1.0  # page 3 was never read to its end
    # the device is usable again after a cancel
    (page,) = _scan(device, ScanSettings("flatbed", dpi=50, mode="gray"))
    assert page.index == 0


@pytest.mark.parametrize(
    ("status", "kind", "words"),
    [
        ("SANE_STATUS_JAMMED", "jammed", "paper jam"),
        ("SANE_STATUS_COVER_OPEN", "cover_open", "cover is open"),
        ("SANE_STATUS_DEVICE_BUSY", "busy", "busy"),
        ("SANE_STATUS_IO_ERROR", "unplugged", "unplugged"),
        ("SANE_STATUS_ACCESS_DENIED", "denied", "permission"),
    ],
)
def test_device_errors_have_a_kind_and_a_clear_message(device: SaneDevice, status: str, kind: str,
                                                       words: str) -> None:  # fmt: skip
    with pytest.raises(DeviceError, match=words) as caught:
        _scan(device, ScanSettings("feeder", dpi=50, mode="gray", options={"read_return_value": status}))
    assert caught.value.kind == kind
    assert "test:0" in str(caught.value)


def test_jam_mid_feeder_keeps_the_pages_before(device: SaneDevice) -> None:
    pages = []
    with pytest.raises(DeviceError, match="paper jam") as caught:
        for page in device.scan(ScanSettings("feeder", dpi=50, mode="gray"), threading.Event()):
            pages.append(page)
            if len(pages) == 3:  # the next sheet jams
                device.set_option("read_return_value", "SANE_STATUS_JAMMED")
    assert caught.value.kind == "jammed"
    assert len(pages) == 3


def test_unknown_device_duplex_and_bad_option_are_refused_clearly(device: SaneDevice) -> None:
    with pytest.raises(DeviceError, match="no such scanner") as caught:
        open_device("sane:nosuch:7")
    assert caught.value.kind == "not_found"
    with pytest.raises(DeviceError, match="cannot scan both sides"):
        _scan(device, ScanSettings("duplex", dpi=50))
    with pytest.raises(DeviceError, match="no option 'warp_speed'"):
        _scan(device, ScanSettings("flatbed", dpi=50, options={"warp_speed": 9}))
    with pytest.raises(ValueError, match="out of range"):
        ScanSettings("flatbed", dpi=5)


def test_blank_sides_are_told_from_pages_with_content(device: SaneDevice) -> None:
    (white,) = _scan(
        device, ScanSettings("flatbed", dpi=75, mode="gray", options={"test_picture": "Solid white"})
    )
    (grid,) = _scan(device, ScanSettings("flatbed", dpi=75, mode="gray", options={"test_picture": "Grid"}))
    assert is_blank(white.image)
    assert not is_blank(grid.image)


def test_other_platforms_get_the_clear_message(monkeypatch: pytest.MonkeyPatch) -> None:
    # Windows WIA/TWAIN and macOS ImageCaptureCore cannot run here: only their message is tested,
    # by making this Linux process report another platform.
    monkeypatch.setattr(sys, "platform", "win32")
    found = list_devices(network=False)
    assert found.devices == () and found.problems == (NO_PLATFORM_SUPPORT,)
    with pytest.raises(DeviceError, match="no scanner support on this platform yet; use a network scanner"):
        open_device("sane:test:0")
