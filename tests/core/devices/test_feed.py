"""Scanned pages into the batch as they arrive, through the real Triton server: SANE's `test` device
(a real virtual scanner; its pages are patterns, so these tests check pages, order and outcomes, not
text; the text of real receipts through the same path is checked in test_devices_escl.py), and the
`scanner-app device` command a clerk scripts for a nightly run."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from scanner_app.core.batch.events import PageDone
from scanner_app.core.client.triton import OcrClient
from scanner_app.core.devices import ScanSettings, open_device
from scanner_app.core.devices.feed import PageScanned, ScanEnded, scan_to_batch
from scanner_app.core.devices.sane_device import SaneDevice
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore
from scanner_app.server.embedded import EmbeddedServer
from tests.helpers.sane_backend import DEVICE, use_sane_test_backend

RESET = {"read_return_value": "Default", "hand_scanner": False, "test_picture": "Color pattern", "depth": 8}


@pytest.fixture
def device() -> SaneDevice:
    use_sane_test_backend()
    dev = open_device(DEVICE)
    assert isinstance(dev, SaneDevice)
    for name, value in RESET.items():  # the test backend keeps option values across opens
        dev.set_option(name, value)
    yield dev
    dev.close()


@pytest.fixture
def client(triton: EmbeddedServer) -> OcrClient:
    with OcrClient(triton.grpc_url) as ocr:
        ocr.connect()
        yield ocr


def test_first_page_is_read_while_the_feeder_waits(
    device: SaneDevice, client: OcrClient, tmp_path: Path
) -> None:
    first_read = threading.Event()
    order: list[str] = []

    def on_event(event: object) -> None:
        if isinstance(event, PageDone):
            order.append(f"read {Path(event.path).name}")
            first_read.set()
        elif isinstance(event, PageScanned):
            order.append(f"scanned {event.path.name}")
            if event.index == 0:  # hold the feeder until page 1 is read: only a concurrent reader gets here
                assert first_read.wait(120), "page 1 was not read while the scanner held page 2"

    summary = scan_to_batch(device, ScanSettings("feeder", 75, "gray"), tmp_path, client.recognize,
                            on_event=on_event)  # fmt: skip
    assert summary.scanned == 10 and summary.message is None and summary.ok
    assert order.index("read page-0001.png") < order.index("scanned page-0002.png")
    with BatchStore(tmp_path / STORE_NAME) as store:
        done = store.files("done")
    assert [Path(f.path).name for f in done] == [f"page-{i:04d}.png" for i in range(1, 11)]


def test_a_jam_keeps_and_reads_the_pages_before(
    device: SaneDevice, client: OcrClient, tmp_path: Path
) -> None:
    ended: list[ScanEnded] = []

    def on_event(event: object) -> None:
        if isinstance(event, PageScanned) and event.index == 2:
            device.set_option("read_return_value", "SANE_STATUS_JAMMED")  # the fourth sheet jams
        elif isinstance(event, ScanEnded):
            ended.append(event)

    summary = scan_to_batch(device, ScanSettings("feeder", 75, "color"), tmp_path, client.recognize,
                            on_event=on_event)  # fmt: skip
    assert summary.scanned == 3 and not summary.ok
    assert summary.message is not None and "paper jam" in summary.message
    assert ended == [ScanEnded(3, 0, summary.message, False)]
    assert len(summary.batch.ok) == 3 and not summary.batch.pending
    with BatchStore(tmp_path / STORE_NAME) as store:
        assert store.summary().pages == 3


def test_cancel_mid_page_reads_the_pages_before(
    device: SaneDevice, client: OcrClient, tmp_path: Path
) -> None:
    cancel = threading.Event()

    def on_event(event: object) -> None:
        if isinstance(event, PageScanned) and event.index == 1:
            cancel.set()  # noticed during page 3's first lines

    summary = scan_to_batch(device, ScanSettings("feeder", 150, "gray"), tmp_path, client.recognize,
                            on_event=on_event, cancel=cancel)  # fmt: skip
    assert summary.cancelled and summary.scanned == 2
    assert len(summary.batch.ok) == 2


def _cli(*args: str, sane_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SANE_CONFIG_DIR": str(sane_dir)}
    command = [sys.executable, "-m", "scanner_app.cli", "device", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)


def test_cli_lists_shows_and_scans_the_feeder_into_a_batch(triton: EmbeddedServer, tmp_path: Path) -> None:
    sane_dir = use_sane_test_backend()
    listed = _cli("list", "--no-network", sane_dir=sane_dir)
    assert listed.returncode == 0 and listed.stdout.splitlines()[0].startswith("sane:test:0\t")
    shown = _cli("show", "--device", DEVICE, sane_dir=sane_dir)
    assert "sources:     flatbed, feeder" in shown.stdout
    out = tmp_path / "nightly"
    run = _cli("scan", "--device", DEVICE, "--source", "feeder", "--dpi", "75", "--out", str(out),
               "--server", triton.grpc_url, "--option", "test-picture=Color pattern", "--quiet",
               sane_dir=sane_dir)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "Scan done: 10 pages kept" in run.stderr and "10 files ok, 0 failed" in run.stderr
    assert (out / "results.json").is_file() and (out / "results_files.csv").is_file()
    again = _cli("scan", "--device", DEVICE, "--out", str(out), "--server", triton.grpc_url, "--quiet",
                 "--option", "read_return_value=SANE_STATUS_COVER_OPEN", sane_dir=sane_dir)  # fmt: skip
    assert again.returncode == 1
    assert "cover is open" in again.stderr and "10 files ok" in again.stderr  # the earlier batch is kept
    missing = _cli("scan", "--device", "sane:nosuch:1", "--out", str(out), sane_dir=sane_dir)
    assert missing.returncode == 2 and "nosuch:1: no such scanner" in missing.stderr
