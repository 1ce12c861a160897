"""The one scanner interface: devices, their capabilities, scan settings, pages and errors (no Qt)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal, Protocol

from PIL import Image

from scanner_app.core.errors import ScannerError

SOURCES = ("flatbed", "feeder", "duplex")
MODES = ("color", "gray", "lineart")
Source = Literal["flatbed", "feeder", "duplex"]
Mode = Literal["color", "gray", "lineart"]
Side = Literal["front", "back"]
# Page sizes in millimetres (width, height); None scans the device's whole area.
PAGE_SIZES: Mapping[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "a5": (148.0, 210.0),
    "letter": (215.9, 279.4),
    "legal": (215.9, 355.6),
}
NO_PLATFORM_SUPPORT = "no scanner support on this platform yet; use a network scanner or scan to a folder"
PageProgress = Callable[[int, float], object]  # (page index, fraction of the page read, -1 when unknown)


class DeviceError(ScannerError):
    """A scanner refused or stopped; ``kind`` says why (see KINDS), the message says it for people."""

    KINDS = ("jammed", "empty", "cover_open", "busy", "unplugged", "denied", "unsupported", "not_found",
             "failed")  # fmt: skip

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class ScanCancelled(ScannerError):
    """The scan was cancelled (possibly mid-page); the pages before it are kept."""


@dataclass(frozen=True)
class DeviceInfo:
    """A scanner as listed: ``id`` opens it again (``sane:test:0``, ``escl:http://host:port/eSCL``)."""

    id: str
    vendor: str
    model: str
    kind: str  # "flatbed scanner", "network scanner", ...

    @property
    def label(self) -> str:
        return f"{self.vendor} {self.model} ({self.id})".strip()


@dataclass(frozen=True)
class Capabilities:
    """What a device offers, in the app's own terms."""

    sources: tuple[str, ...]
    modes: tuple[str, ...]
    resolutions: tuple[int, ...]  # the listed ones, or a few common ones within the device's range
    depths: tuple[int, ...] = (8,)
    max_size_mm: tuple[float, float] | None = None  # (width, height) of the largest scan area


@dataclass(frozen=True)
class ScanSettings:
    """What to scan. ``options``: raw device options passed as they are (SANE names, for experts)."""

    source: Source = "flatbed"
    dpi: int = 300
    mode: Mode = "color"
    depth: int = 8
    page_size: str | None = None  # a PAGE_SIZES key; None: the whole area
    options: Mapping[str, str | int | float | bool] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ValueError(f"unknown source {self.source!r}; choose from {', '.join(SOURCES)}")
        if self.mode not in MODES:
            raise ValueError(f"unknown colour mode {self.mode!r}; choose from {', '.join(MODES)}")
        if self.page_size is not None and self.page_size not in PAGE_SIZES:
            raise ValueError(f"unknown page size {self.page_size!r}; choose from {', '.join(PAGE_SIZES)}")
        if not 50 <= self.dpi <= 2400:
            raise ValueError(f"resolution {self.dpi} dpi is out of range (50-2400)")


@dataclass(frozen=True)
class ScannedPage:
    """One side of one sheet, as it came off the device (8-bit L or RGB)."""

    index: int  # 0-based, in the order the device delivered the pages
    image: Image.Image
    side: Side = "front"


class Device(Protocol):
    """An open scanner. Used from one thread at a time; ``cancel`` may be set from any thread."""

    info: DeviceInfo

    def capabilities(self) -> Capabilities: ...

    def scan(
        self, settings: ScanSettings, cancel: threading.Event, progress: PageProgress | None = None
    ) -> Iterator[ScannedPage]:
        """Yield pages as they come: one for the flatbed, every sheet (both sides for duplex) for
        the feeder. Raises DeviceError (jam, empty feeder, ...) or ScanCancelled after the pages it
        yielded; a feeder that runs out after the first sheet simply ends the iteration."""
        ...

    def close(self) -> None: ...


def side_of(settings: ScanSettings, index: int) -> Side:
    """Duplex devices deliver front, back, front, back, ..."""
    return "back" if settings.source == "duplex" and index % 2 else "front"


def check_cancel(cancel: threading.Event) -> None:
    if cancel.is_set():
        raise ScanCancelled("scan cancelled")


def to_8bit(image: Image.Image) -> Image.Image:
    """L or RGB, 8 bits per sample (16-bit and 1-bit scans included)."""
    if image.mode in ("L", "RGB"):
        return image
    if image.mode in ("I;16", "I;16B", "I;16L", "I"):
        return image.point(lambda v: v / 256).convert("L")
    return image.convert("RGB" if image.mode not in ("1", "LA") else "L")
