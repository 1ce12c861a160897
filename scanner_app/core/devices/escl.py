"""A direct eSCL (Mopria / AirScan) client: driverless network scanners over HTTP, on any platform.

The protocol (Mopria eSCL specification): ``GET {root}/ScannerCapabilities`` (XML), ``POST
{root}/ScanJobs`` with ScanSettings XML -> ``201 Created`` and ``Location`` of the job, ``GET
{job}/NextDocument`` per page (``404`` once the feeder is empty, ``503`` while the page is not
ready), ``DELETE {job}`` cancels, ``GET {root}/ScannerStatus`` tells a jam or an open cover apart
from the normal end of a stack.
"""

from __future__ import annotations

import http.client
import io
import threading
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass

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
    to_8bit,
)

PREFIX = "escl:"
PWG = "http://www.pwg.org/schemas/2010/12/sm"
SCAN = "http://schemas.hp.com/imaging/escl/2011/05/03"
NS = {"pwg": PWG, "scan": SCAN}
_MODES = {"color": "RGB24", "gray": "Grayscale8", "lineart": "BlackAndWhite1"}
_ADF_STATES = {
    "ScannerAdfJam": ("jammed", "paper jam in the feeder: clear it, then scan the rest"),
    "ScannerAdfDoorOpen": ("cover_open", "the feeder's cover is open: close it and scan again"),
    "ScannerAdfMispick": ("jammed", "the feeder could not pull the next sheet (mispick)"),
    "ScannerAdfMultipickDetected": ("jammed", "the feeder pulled several sheets at once"),
}
_CHUNK = 64 * 1024
_RESOLUTIONS = ".//scan:DiscreteResolution/scan:XResolution"
_NOT_READY_WAIT_S = 0.5  # 503 on NextDocument: the page is still being scanned


@dataclass(frozen=True)
class EsclStatus:
    state: str  # Idle, Processing, Testing, Stopped, Down
    adf_state: str | None


def _mm_to_300ths(mm: float) -> int:
    return round(mm / 25.4 * 300)


def settings_xml(settings: ScanSettings, max_size_mm: tuple[float, float] | None) -> bytes:
    """The ScanSettings document for a ScanJobs POST."""
    ET.register_namespace("pwg", PWG)
    ET.register_namespace("scan", SCAN)
    root = ET.Element(f"{{{SCAN}}}ScanSettings")
    ET.SubElement(root, f"{{{PWG}}}Version").text = "2.6"
    size = PAGE_SIZES[settings.page_size] if settings.page_size else max_size_mm
    if size is not None:
        region = ET.SubElement(ET.SubElement(root, f"{{{PWG}}}ScanRegions"), f"{{{PWG}}}ScanRegion")
        for tag, value in (("Height", _mm_to_300ths(size[1])), ("Width", _mm_to_300ths(size[0])),
                           ("XOffset", 0), ("YOffset", 0)):  # fmt: skip
            ET.SubElement(region, f"{{{PWG}}}{tag}").text = str(value)
        ET.SubElement(region, f"{{{PWG}}}ContentRegionUnits").text = "escl:ThreeHundredthsOfInches"
    ET.SubElement(root, f"{{{PWG}}}InputSource").text = "Platen" if settings.source == "flatbed" else "Feeder"
    if settings.source == "duplex":
        ET.SubElement(root, f"{{{SCAN}}}Duplex").text = "true"
    ET.SubElement(root, f"{{{SCAN}}}ColorMode").text = _MODES[settings.mode]
    ET.SubElement(root, f"{{{SCAN}}}XResolution").text = str(settings.dpi)
    ET.SubElement(root, f"{{{SCAN}}}YResolution").text = str(settings.dpi)
    ET.SubElement(root, f"{{{PWG}}}DocumentFormat").text = "image/jpeg"
    return ET.tostring(root, xml_declaration=True, encoding="utf-8")


class EsclDevice:
    """One eSCL scanner at ``root`` (for example ``http://192.168.1.20:80/eSCL``)."""

    def __init__(self, device_id: str, timeout_s: float = 30.0) -> None:
        self.root = device_id.removeprefix(PREFIX).rstrip("/")
        if urllib.parse.urlsplit(self.root).scheme not in ("http", "https"):
            raise DeviceError("not_found", f"{device_id}: not an eSCL address (http://HOST:PORT/eSCL)")
        self.timeout_s = timeout_s
        caps = self._xml("GET", "/ScannerCapabilities")
        model = caps.findtext("pwg:MakeAndModel", default="eSCL scanner", namespaces=NS)
        self.info = DeviceInfo(PREFIX + self.root, "", model, "network scanner (eSCL)")
        self._caps = caps

    # HTTP ------------------------------------------------------------------------------------
    def _request(self, method: str, url: str, body: bytes | None = None) -> http.client.HTTPResponse:
        if not url.startswith(("http://", "https://")):
            url = self.root + url
        headers = {"Content-Type": "text/xml"} if body is not None else {}
        request = urllib.request.Request(url, data=body, method=method, headers=headers)
        try:
            return urllib.request.urlopen(request, timeout=self.timeout_s)
        except urllib.error.HTTPError:
            raise
        except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
            reason = getattr(exc, "reason", exc)
            raise DeviceError(
                "unplugged", f"{self.root}: the network scanner does not answer ({reason}); is it on?"
            ) from None

    def _xml(self, method: str, path: str) -> ET.Element:
        try:
            with self._request(method, path) as response:
                return ET.fromstring(response.read())
        except urllib.error.HTTPError as exc:
            raise DeviceError("failed", f"{self.root}{path}: HTTP {exc.code} {exc.reason}") from None
        except ET.ParseError as exc:
            raise DeviceError("failed", f"{self.root}{path}: not eSCL XML ({exc})") from None

    def status(self) -> EsclStatus:
        doc = self._xml("GET", "/ScannerStatus")
        return EsclStatus(
            doc.findtext("pwg:State", default="", namespaces=NS), doc.findtext("scan:AdfState", namespaces=NS)
        )

    # Capabilities ----------------------------------------------------------------------------
    def capabilities(self) -> Capabilities:
        sources = []
        if self._caps.find("scan:Platen", NS) is not None:
            sources.append("flatbed")
        adf = self._caps.find("scan:Adf", NS)
        if adf is not None:
            sources.append("feeder")
            if adf.find("scan:AdfDuplexInputCaps", NS) is not None:
                sources.append("duplex")
        modes = {m.text for m in self._caps.iterfind(".//scan:ColorMode", NS)}
        by_escl = {v: k for k, v in _MODES.items()}
        dpis = sorted({int(r.text or 0) for r in self._caps.iterfind(_RESOLUTIONS, NS)})
        width = self._caps.findtext(".//scan:MaxWidth", namespaces=NS)
        height = self._caps.findtext(".//scan:MaxHeight", namespaces=NS)
        size = (int(width) * 25.4 / 300, int(height) * 25.4 / 300) if width and height else None
        return Capabilities(
            tuple(sources) or ("flatbed",),
            tuple(by_escl[m] for m in _MODES.values() if m in modes) or ("color",),
            tuple(d for d in dpis if d > 0) or (300,),
            (8,),
            size,
        )

    # Scanning --------------------------------------------------------------------------------
    def scan(
        self, settings: ScanSettings, cancel: threading.Event, progress: PageProgress | None = None
    ) -> Iterator[ScannedPage]:
        caps = self.capabilities()
        if settings.source not in caps.sources:
            raise DeviceError("unsupported", f"{self.root}: this scanner has no {settings.source}")
        check_cancel(cancel)
        job = self._create_job(settings_xml(settings, caps.max_size_mm))
        finished = False
        try:
            index = 0
            while True:
                image = self._next_document(job, index, cancel, progress)
                if image is None:
                    finished = True
                    if index == 0 and settings.source != "flatbed":
                        raise DeviceError("empty", f"{self.root}: the feeder is empty: put the receipts in")
                    return
                side = side_of(settings, index)
                yield ScannedPage(index, image, side)
                index += 1
                if settings.source == "flatbed":
                    finished = True
                    return
        finally:
            if not finished:
                self._delete(job)

    def _create_job(self, body: bytes) -> str:
        try:
            with self._request("POST", "/ScanJobs", body) as response:
                location = response.headers.get("Location")
        except urllib.error.HTTPError as exc:
            if exc.code == 503:
                raise DeviceError(
                    "busy", f"{self.root}: the scanner is busy: try again when it is free"
                ) from None
            raise DeviceError(
                "failed", f"{self.root}: the scanner refused the job (HTTP {exc.code})"
            ) from None
        if not location:
            raise DeviceError("failed", f"{self.root}: the scanner gave no job address")
        return urllib.parse.urljoin(self.root + "/", location)

    def _next_document(
        self, job: str, index: int, cancel: threading.Event, progress: PageProgress | None
    ) -> Image.Image | None:
        while True:
            check_cancel(cancel)
            try:
                response = self._request("GET", job.rstrip("/") + "/NextDocument")
            except urllib.error.HTTPError as exc:
                if exc.code == 503:  # not ready yet
                    if cancel.wait(_NOT_READY_WAIT_S):
                        raise ScanCancelled(f"scan cancelled before page {index + 1}") from None
                    continue
                if exc.code in (404, 410):
                    self._raise_adf_problem()
                    return None
                raise DeviceError("failed", f"{self.root}: page {index + 1}: HTTP {exc.code}") from None
            with response:
                return self._read_image(response, index, cancel, progress)

    def _read_image(
        self,
        response: http.client.HTTPResponse,
        index: int,
        cancel: threading.Event,
        progress: PageProgress | None,
    ) -> Image.Image:
        total = int(response.headers.get("Content-Length") or 0)
        data = bytearray()
        try:
            while chunk := response.read(_CHUNK):
                if cancel.is_set():
                    raise ScanCancelled(f"scan cancelled during page {index + 1}")
                data += chunk
                if progress is not None:
                    progress(index, len(data) / total if total else -1.0)
        except (OSError, http.client.HTTPException) as exc:
            raise DeviceError(
                "unplugged", f"{self.root}: the connection broke during page {index + 1} ({exc})"
            ) from None
        if total and len(data) < total:
            raise DeviceError(
                "unplugged", f"{self.root}: page {index + 1} came incomplete (the scanner went away?)"
            )
        try:
            with Image.open(io.BytesIO(bytes(data))) as image:
                image.load()
                return to_8bit(image.convert("RGB") if image.mode not in ("L", "RGB") else image.copy())
        except OSError as exc:
            raise DeviceError(
                "failed", f"{self.root}: page {index + 1} is not a readable image ({exc})"
            ) from None

    def _raise_adf_problem(self) -> None:
        """At a 404: a jam or an open cover is an error, an empty feeder the normal end."""
        try:
            adf = self.status().adf_state
        except DeviceError:
            return
        if adf in _ADF_STATES:
            kind, message = _ADF_STATES[adf]
            raise DeviceError(kind, f"{self.root}: {message}")

    def _delete(self, job: str) -> None:
        try:
            with self._request("DELETE", job):
                pass
        except (urllib.error.HTTPError, DeviceError):
            pass  # the job is gone already, or the scanner is; nothing more to stop

    def close(self) -> None:
        """Nothing is held between calls (each request is its own connection)."""

    def __enter__(self) -> EsclDevice:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
