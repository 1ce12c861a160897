"""`scanner-app scan` over a folder with hostile files, against the real server; exports checked."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image

from scanner_app.core.store.batch_store import STORE_NAME, BatchStore
from scanner_app.samples.documents import encode, render_text_lines
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.model_fetch import default_repository
from tests.helpers.filegen import png_claiming

GOOD = 40
HYPERLINK = '=HYPERLINK("http://x","y")'


def _scan(*args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "scanner_app.cli", "scan", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout)


def _page(*lines: str) -> Image.Image:
    return render_text_lines(list(lines)).image


def _make_folder(folder: Path) -> None:
    folder.mkdir()
    for i in range(GOOD):
        lines = (f"RECEIPT {i:04d} TOTAL {10 + i}.50",) if i else (f"RECEIPT {i:04d} TOTAL 10.50", HYPERLINK)
        fmt, suffix = ("JPEG", "jpg") if i % 2 else ("PNG", "png")
        (folder / f"good{i:02d}.{suffix}").write_bytes(encode(_page(*lines), fmt))
    hostile = folder / "hostile"
    hostile.mkdir()
    (hostile / "zero.png").write_bytes(b"")
    whole = encode(_page("TRUNCATED FILE 123"), "JPEG")
    (hostile / "truncated.jpg").write_bytes(whole[: len(whole) // 2])
    (hostile / "notes.png").write_bytes(b"Just some text that is not an image at all.\n" * 30)
    (hostile / "bomb.png").write_bytes(png_claiming(30000, 30000))
    pages = [_page(f"PDF PAGE {n} OF THREE") for n in (1, 2, 3)]
    pages[0].save(hostile / "three.pdf", save_all=True, append_images=pages[1:], resolution=200)
    tiff = [_page(f"TIFF PAGE {n} OF TWO") for n in (1, 2)]
    tiff[0].save(hostile / "two.tif", save_all=True, append_images=tiff[1:])
    _page("CMYK SCAN 4711").convert("CMYK").save(hostile / "cmyk.jpg", quality=95)
    exif = Image.Exif()
    exif[0x0112] = 6  # stored sideways; viewers rotate it 90 degrees clockwise
    _page("ROTATED PHOTO 2468").transpose(Image.Transpose.ROTATE_90).save(hostile / "rotated.jpg", exif=exif)
    (folder / "readme.docx").write_bytes(b"PK\x03\x04 not an image")


def _norm(text: str) -> str:
    return " ".join(text.split())


def test_folder_with_hostile_files(triton: EmbeddedServer, tmp_path: Path) -> None:
    folder, out = tmp_path / "in", tmp_path / "out"
    _make_folder(folder)
    result = _scan(
        str(folder), "--server", triton.grpc_url, "--out", str(out), "--format", "json,jsonl,csv,txt,pdf"
    )
    assert result.returncode == 1, result.stderr
    assert "4 failed" in result.stderr and "readme.docx" in result.stderr

    with BatchStore(out / STORE_NAME) as store:
        files = {f.path.name: f for f in store.files()}
        texts = {
            f.path.name: [p.effective_text for p in store.pages(f)]
            for f in store.files()
            if f.state == "done"
        }
    failed = {name: f.error for name, f in files.items() if f.state == "failed"}
    assert set(failed) == {"zero.png", "truncated.jpg", "notes.png", "bomb.png"}
    assert "empty" in failed["zero.png"] and "truncated" in failed["truncated.jpg"]
    assert "not an image" in failed["notes.png"] and "too large" in failed["bomb.png"]
    assert all(name in cause for name, cause in failed.items())
    for i in range(GOOD):
        name = f"good{i:02d}.{'jpg' if i % 2 else 'png'}"
        assert f"RECEIPT {i:04d}" in texts[name][0]
    assert [_norm(t) for t in texts["three.pdf"]] == [f"PDF PAGE {n} OF THREE" for n in (1, 2, 3)]
    assert [_norm(t) for t in texts["two.tif"]] == ["TIFF PAGE 1 OF TWO", "TIFF PAGE 2 OF TWO"]
    assert _norm(texts["cmyk.jpg"][0]) == "CMYK SCAN 4711"
    assert _norm(texts["rotated.jpg"][0]) == "ROTATED PHOTO 2468"  # EXIF applied: read upright

    exported = json.loads((out / "results.json").read_text(encoding="utf-8"))["files"]
    assert len(exported) == len(files) and sum(1 for f in exported if f["error"]) == 4
    jsonl = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(jsonl) == GOOD + 3 + 2 + 2 + 4
    with open(out / "results_files.csv", encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert sorted(r["status"] for r in rows).count("failed") == 4
    with open(out / "results_lines.csv", encoding="utf-8-sig", newline="") as f:
        cells = [row["text"] for row in csv.DictReader(f)]
    hyperlink = [c for c in cells if "HYPERLINK" in c]
    assert hyperlink and all(c.startswith("'") for c in hyperlink), hyperlink

    pdf_text = pypdfium2.PdfDocument(out / "pdf" / "hostile" / "three.pdf")  # the input tree, mirrored
    read_back = [_norm(pdf_text[i].get_textpage().get_text_range()) for i in range(len(pdf_text))]
    assert read_back == [_norm(t) for t in texts["three.pdf"]]
    good = pypdfium2.PdfDocument(out / "pdf" / "good00.pdf")
    assert _norm(good[0].get_textpage().get_text_range()) == _norm(texts["good00.png"][0])

    again = _scan(str(folder), "--server", triton.grpc_url, "--out", str(out))
    assert again.returncode == 2 and "--resume" in again.stderr
    resumed = _scan(str(folder), "--server", triton.grpc_url, "--out", str(out), "--resume")
    assert "0 pages sent" in resumed.stderr


def test_batch_survives_one_of_two_servers_dying(tmp_path: Path) -> None:
    folder, out = tmp_path / "in", tmp_path / "out"
    folder.mkdir()
    for i in range(30):
        (folder / f"r{i:02d}.png").write_bytes(encode(_page(f"INVOICE {i:04d} AMOUNT {i}.25")))
    ports = {"grpc_port": 0, "http_port": 0, "metrics_port": 0}
    with (
        EmbeddedServer(default_repository(), **ports, log_path=tmp_path / "a.log") as a,
        EmbeddedServer(default_repository(), **ports, log_path=tmp_path / "b.log") as b,
    ):
        command = [sys.executable, "-m", "scanner_app.cli", "scan", str(folder), "--out", str(out)]
        command += ["--server", a.grpc_url, "--server", b.grpc_url, "--jobs", "4", "--quiet"]
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None:
            if (out / STORE_NAME).exists():
                with BatchStore(out / STORE_NAME) as store:
                    if store.summary().pages >= 5:
                        break
            time.sleep(0.2)
        os.kill(a.pid, signal.SIGKILL)
        _, stderr = proc.communicate(timeout=600)
    assert proc.returncode == 0, stderr
    with BatchStore(out / STORE_NAME) as store:
        summary = store.summary()
        assert (summary.done, summary.failed, summary.pages) == (30, 0, 30)


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI talks to loopback servers only; keep any proxy settings out of the way."""
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "grpc_proxy"):
        monkeypatch.delenv(name, raising=False)
