"""`scanner-app scan` as a user runs it, against the session's embedded server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema

from scanner_app.core.schema import PAGE_SCHEMA
from scanner_app.samples.documents import encode, render_text_lines
from scanner_app.server.embedded import EmbeddedServer


def _scan(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "scanner_app.cli", "scan", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=600)


def test_scan_prints_lines_and_writes_json(triton: EmbeddedServer, tmp_path: Path) -> None:
    image = tmp_path / "note.png"
    image.write_bytes(encode(render_text_lines(["PAYMENT RECEIVED 2024", "Order 77815 shipped"]).image))
    result = _scan(str(image), "--server", triton.grpc_url, "--json", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "PAYMENT RECEIVED 2024" in result.stdout
    page = json.loads((tmp_path / "out" / "note.json").read_text(encoding="utf-8"))
    keys = {"image", "width", "height", "lines", "elapsed_ms", "orientation", "source", "receipts"}
    assert set(page) == keys and page["source"] == "ocr"
    jsonschema.validate(page, PAGE_SCHEMA)
    assert [line["text"] for line in page["lines"]] == ["PAYMENT RECEIVED 2024", "Order 77815 shipped"]
    for line in page["lines"]:
        assert len(line["box"]) == 4 and all(len(point) == 2 for point in line["box"])
        assert 0.5 <= line["score"] <= 1.0


def test_scan_reports_bad_files_and_exits_1(triton: EmbeddedServer, tmp_path: Path) -> None:
    bad = tmp_path / "empty.png"
    bad.write_bytes(b"")
    good = tmp_path / "good.png"
    good.write_bytes(encode(render_text_lines(["INVOICE TOTAL 310.00"]).image))
    result = _scan(str(bad), str(good), "--server", triton.grpc_url)
    assert result.returncode == 1
    assert "empty.png" in result.stderr and "empty" in result.stderr
    assert "INVOICE TOTAL 310.00" in result.stdout


def test_scan_says_when_the_server_is_down(tmp_path: Path) -> None:
    image = tmp_path / "x.png"
    image.write_bytes(encode(render_text_lines(["ANYTHING"]).image))
    result = _scan(str(image), "--server", "127.0.0.1:9", "--timeout", "5")
    assert result.returncode == 2
    assert "127.0.0.1:9" in result.stderr and "unavailable" in result.stderr
