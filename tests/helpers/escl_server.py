"""A local eSCL scanner (127.0.0.1 only) that follows the Mopria eSCL specification's resources.

It stands in for a driverless network scanner, which cannot exist here: ScannerCapabilities,
ScannerStatus, POST ScanJobs -> 201 + Location, GET NextDocument per page (404 once the feeder is
empty), DELETE of a job. Pages are real receipt images handed in by the test.
"""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CAPABILITIES = """<?xml version="1.0" encoding="UTF-8"?>
<scan:ScannerCapabilities xmlns:scan="http://schemas.hp.com/imaging/escl/2011/05/03"
    xmlns:pwg="http://www.pwg.org/schemas/2010/12/sm">
  <pwg:Version>2.63</pwg:Version>
  <pwg:MakeAndModel>Loopback eSCL Receipt Scanner</pwg:MakeAndModel>
  <scan:Platen><scan:PlatenInputCaps>{caps}</scan:PlatenInputCaps></scan:Platen>
  <scan:Adf>
    <scan:AdfSimplexInputCaps>{caps}</scan:AdfSimplexInputCaps>
    <scan:AdfDuplexInputCaps>{caps}</scan:AdfDuplexInputCaps>
  </scan:Adf>
</scan:ScannerCapabilities>"""
INPUT_CAPS = """<scan:MinWidth>16</scan:MinWidth><scan:MaxWidth>2550</scan:MaxWidth>
  <scan:MinHeight>16</scan:MinHeight><scan:MaxHeight>3508</scan:MaxHeight>
  <scan:SettingProfiles><scan:SettingProfile>
    <scan:ColorModes><scan:ColorMode>RGB24</scan:ColorMode><scan:ColorMode>Grayscale8</scan:ColorMode></scan:ColorModes>
    <scan:DocumentFormats><pwg:DocumentFormat>image/jpeg</pwg:DocumentFormat></scan:DocumentFormats>
    <scan:SupportedResolutions><scan:DiscreteResolutions>
      <scan:DiscreteResolution><scan:XResolution>200</scan:XResolution><scan:YResolution>200</scan:YResolution></scan:DiscreteResolution>
      <scan:DiscreteResolution><scan:XResolution>300</scan:XResolution><scan:YResolution>300</scan:YResolution></scan:DiscreteResolution>
    </scan:DiscreteResolutions></scan:SupportedResolutions>
  </scan:SettingProfile></scan:SettingProfiles>"""
STATUS = """<?xml version="1.0" encoding="UTF-8"?>
<scan:ScannerStatus xmlns:scan="http://schemas.hp.com/imaging/escl/2011/05/03"
    xmlns:pwg="http://www.pwg.org/schemas/2010/12/sm">
  <pwg:Version>2.63</pwg:Version><pwg:State>{state}</pwg:State><scan:AdfState>{adf}</scan:AdfState>
</scan:ScannerStatus>"""


@dataclass
class Scanner:
    """What the fake device holds: the sheets in its feeder (front, back JPEG bytes) and its state."""

    fronts: list[bytes]
    backs: list[bytes] = field(default_factory=list)  # for duplex; empty: a blank page is not sent
    jam_after: int | None = None  # sheets fed before the feeder jams
    busy: bool = False
    drop_during_page: int | None = None  # close the connection half-way through this page (0-based)
    page_delay_s: float = 0.0  # seconds the device takes per page: NextDocument answers 503 until then
    job_started: dict[str, float] = field(default_factory=dict)
    served: int = 0  # pages sent, over all jobs
    not_ready: int = 0  # 503 answers to NextDocument
    served_in: dict[str, int] = field(default_factory=dict)  # pages sent per job
    jobs: dict[str, list[bytes]] = field(default_factory=dict)
    settings_seen: list[bytes] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    adf_state: str = "ScannerAdfLoaded"
    lock: threading.Lock = field(default_factory=threading.Lock)


def _handler(scanner: Scanner) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # keep the test output quiet
            pass

        def _send(self, code: int, body: bytes = b"", kind: str = "text/xml", **headers: str) -> None:
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            for key, value in headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            if self.path == "/eSCL/ScannerCapabilities":
                self._send(200, CAPABILITIES.format(caps=INPUT_CAPS).encode())
            elif self.path == "/eSCL/ScannerStatus":
                state = "Processing" if scanner.jobs else "Idle"
                self._send(200, STATUS.format(state=state, adf=scanner.adf_state).encode())
            elif self.path.startswith("/eSCL/ScanJobs/") and self.path.endswith("/NextDocument"):
                self._next(self.path.split("/")[3])
            else:
                self._send(404)

        def _next(self, job: str) -> None:
            with scanner.lock:
                pages = scanner.jobs.get(job)
                ready_at = (
                    scanner.job_started.get(job, 0.0)
                    + (scanner.served_in.get(job, 0) + 1) * scanner.page_delay_s
                )
                if pages and time.monotonic() < ready_at:  # still "scanning" this page
                    scanner.not_ready += 1
                    self._send(503, **{"Retry-After": "1"})
                    return
                page = pages.pop(0) if pages else None
                index = scanner.served
                if page is not None:
                    scanner.served += 1
                    scanner.served_in[job] = scanner.served_in.get(job, 0) + 1
            if page is None:
                self._send(404)
                return
            if scanner.drop_during_page == index:
                self.send_response(200)
                self.send_header("Content-Type", "image/jpeg")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page[: len(page) // 2])
                self.close_connection = True
                return
            self._send(200, page, "image/jpeg")

        def do_POST(self) -> None:
            if self.path != "/eSCL/ScanJobs":
                self._send(404)
                return
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if scanner.busy:
                self._send(503)
                return
            scanner.settings_seen.append(body)
            platen = b"<pwg:InputSource>Platen</pwg:InputSource>" in body
            duplex = b"<scan:Duplex>true</scan:Duplex>" in body
            sheets = scanner.fronts[:1] if platen else list(scanner.fronts)
            if scanner.jam_after is not None and not platen:
                sheets = sheets[: scanner.jam_after]
                scanner.adf_state = "ScannerAdfJam"
            pages: list[bytes] = []
            for i, front in enumerate(sheets):
                pages.append(front)
                if duplex and i < len(scanner.backs):
                    pages.append(scanner.backs[i])
            job = str(uuid.uuid4())
            scanner.jobs[job] = pages
            scanner.job_started[job] = time.monotonic()
            self._send(201, Location=f"/eSCL/ScanJobs/{job}")

        def do_DELETE(self) -> None:
            job = self.path.rstrip("/").split("/")[-1]
            scanner.deleted.append(job)
            self._send(200 if scanner.jobs.pop(job, None) is not None else 404)

    return Handler


class EsclTestServer:
    """``with EsclTestServer(scanner) as server: server.root`` -> ``http://127.0.0.1:PORT/eSCL``."""

    def __init__(self, scanner: Scanner) -> None:
        self.scanner = scanner
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(scanner))
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/eSCL"

    def __enter__(self) -> EsclTestServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()
