"""The eSCL client against a local eSCL test server (tests/helpers/escl_server.py, 127.0.0.1 only).

The server stands in for a driverless network scanner (none can exist here); it follows the Mopria
eSCL resources and serves real SROIE receipt images. The last test is the end-to-end path: pages
off the (network) feeder, blank back sides dropped, read by the real Triton server into the store.
"""

from __future__ import annotations

import io
import json
import socket
import threading
from pathlib import Path

import pytest
from PIL import Image

from scanner_app.core.client.triton import OcrClient
from scanner_app.core.devices import DeviceError, ScanCancelled, ScanSettings, open_device
from scanner_app.core.devices.escl import EsclDevice
from scanner_app.core.devices.escl_discovery import device_from_service
from scanner_app.core.devices.feed import BlankDropped, PageScanned, scan_to_batch
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore
from scanner_app.server.embedded import EmbeddedServer
from tests.helpers.escl_server import EsclTestServer, Scanner
from tests.helpers.paths import SHARED_DATA

DATA = SHARED_DATA / "sroie"
if not DATA.is_dir():
    DATA = Path("/work/shared/data/sroie")
RECEIPTS = sorted((DATA / "img").glob("*.jpg"))[:4]


def _white_jpeg() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (1240, 1754), (250, 250, 248)).save(out, "JPEG", quality=90)
    return out.getvalue()


def _scanner(**kw: object) -> Scanner:
    return Scanner([p.read_bytes() for p in RECEIPTS], **kw)  # type: ignore[arg-type]


def _device(server: EsclTestServer) -> EsclDevice:
    device = open_device("escl:" + server.root)
    assert isinstance(device, EsclDevice)
    return device


def test_capabilities_and_a_flatbed_page() -> None:
    with EsclTestServer(
        _scanner(page_delay_s=0.2)
    ) as server:  # NextDocument says 503 until the page is ready
        device = _device(server)
        assert device.info.model == "Loopback eSCL Receipt Scanner"
        caps = device.capabilities()
        assert caps.sources == ("flatbed", "feeder", "duplex")
        assert caps.modes == ("color", "gray")
        assert caps.resolutions == (200, 300)
        assert caps.max_size_mm == pytest.approx((215.9, 297.0), abs=0.1)
        pages = list(device.scan(ScanSettings("flatbed", dpi=200, mode="gray"), threading.Event()))
        assert len(pages) == 1
        assert pages[0].image.size == Image.open(RECEIPTS[0]).size
        assert server.scanner.not_ready > 0  # the client waited for the page instead of failing
        sent = server.scanner.settings_seen[-1]
        assert b"<pwg:InputSource>Platen</pwg:InputSource>" in sent
        assert b"<scan:ColorMode>Grayscale8</scan:ColorMode>" in sent
        assert b"<scan:XResolution>200</scan:XResolution>" in sent


def test_feeder_pages_in_order_until_404() -> None:
    progress: list[tuple[int, float]] = []
    with EsclTestServer(_scanner()) as server:
        pages = list(
            _device(server).scan(
                ScanSettings("feeder"), threading.Event(), lambda i, f: progress.append((i, f))
            )
        )
    assert [p.index for p in pages] == list(range(len(RECEIPTS)))
    assert [p.image.size for p in pages] == [Image.open(r).size for r in RECEIPTS]
    assert {i for i, f in progress if f == 1.0} == set(range(len(RECEIPTS)))


def test_jam_busy_and_broken_connection_are_clear_and_keep_earlier_pages() -> None:
    with EsclTestServer(_scanner(jam_after=2)) as server:
        pages = []
        with pytest.raises(DeviceError, match="paper jam") as caught:
            pages.extend(_device(server).scan(ScanSettings("feeder"), threading.Event()))
        assert caught.value.kind == "jammed" and len(pages) == 2
    with EsclTestServer(_scanner(busy=True)) as server, pytest.raises(DeviceError, match="busy") as caught:
        list(_device(server).scan(ScanSettings("feeder"), threading.Event()))
    assert caught.value.kind == "busy"
    with EsclTestServer(_scanner(drop_during_page=1)) as server:
        pages = []
        with pytest.raises(DeviceError, match="page 2 came incomplete") as caught:
            pages.extend(_device(server).scan(ScanSettings("feeder"), threading.Event()))
        assert caught.value.kind == "unplugged" and len(pages) == 1
        assert server.scanner.deleted  # the job was cancelled on the device


def test_cancel_deletes_the_job_and_a_silent_address_is_named() -> None:
    cancel = threading.Event()
    with EsclTestServer(_scanner()) as server:
        pages = []
        with pytest.raises(ScanCancelled):
            for page in _device(server).scan(ScanSettings("feeder"), cancel):
                pages.append(page)
                cancel.set()
        assert len(pages) == 1
        assert len(server.scanner.deleted) == 1
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # nobody listens here once the socket closes
    with pytest.raises(DeviceError, match=f"127.0.0.1:{port}/eSCL: the network scanner does not answer"):
        open_device(f"escl:http://127.0.0.1:{port}/eSCL")


def test_announcements_become_device_addresses() -> None:
    txt = {b"rs": b"/eSCL", b"ty": b"Canon MF740C"}
    device = device_from_service("_uscan._tcp.local.", ["192.0.2.7"], 80, txt, "Canon._uscan._tcp.local.")
    assert (
        device is not None and device.id == "escl:http://192.0.2.7:80/eSCL" and device.model == "Canon MF740C"
    )
    secure = device_from_service("_uscans._tcp.local.", ["fe80::1"], 443, {}, "Brother._uscans._tcp.local.")
    assert secure is not None and secure.id == "escl:https://[fe80::1]:443/eSCL" and secure.model == "Brother"
    assert device_from_service("_uscan._tcp.local.", [], 80, txt, "x") is None


def test_duplex_receipts_through_triton_into_the_store(triton: EmbeddedServer, tmp_path: Path) -> None:
    """End to end: eSCL duplex feeder -> blank backs dropped -> real Triton -> batch store."""
    white = _white_jpeg()
    scanner = _scanner(backs=[white, RECEIPTS[3].read_bytes(), white, white])  # sheet 2's back has print
    events: list[object] = []
    with EsclTestServer(scanner) as server, OcrClient(triton.grpc_url) as client:
        client.connect()
        summary = scan_to_batch(_device(server), ScanSettings("duplex"), tmp_path, client.recognize,
                                jobs=2, on_event=events.append)  # fmt: skip
    assert summary.blank_dropped == 3 and summary.scanned == 5 and summary.message is None
    assert summary.ok and len(summary.batch.ok) == 5
    assert sum(isinstance(e, BlankDropped) for e in events) == 3
    assert [e.side for e in events if isinstance(e, PageScanned)] == [
        "front",
        "front",
        "back",
        "front",
        "front",
    ]
    with BatchStore(tmp_path / STORE_NAME) as store:
        results = store.results()
    assert len(results) == 5
    expected = [RECEIPTS[0], RECEIPTS[1], RECEIPTS[3], RECEIPTS[2], RECEIPTS[3]]
    for result, receipt in zip(results, expected, strict=True):
        total = json.loads((DATA / "key" / f"{receipt.stem}.json").read_text())["total"]
        text = " ".join(line.text for page in result.pages for line in page.result.lines)
        assert total in text, (receipt.name, total, text[:200])
