"""`scanner-app bench` against the real embedded Triton (the `triton` fixture)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from scanner_app.cli import main
from scanner_app.load.report import PERF_CSV_COLUMNS
from scanner_app.samples.documents import distinct_receipts, encode
from scanner_app.server.embedded import EmbeddedServer


def test_bench_prints_a_table_and_writes_csv_and_json(
    triton: EmbeddedServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "images"
    folder.mkdir()
    for k, doc in enumerate(distinct_receipts(2)):
        (folder / f"receipt{k}.jpg").write_bytes(encode(doc.image, "JPEG"))
    (folder / "notes.txt").write_text("not an image")
    out_csv, out_json = tmp_path / "perf.csv", tmp_path / "perf.json"
    code = main([
        "bench", "--server", triton.grpc_url, "--metrics", triton.metrics_url, "--target", "detection",
        "--images", str(folder), "--duration", "3", "--warmup", "0.5", "--window", "1",
        "--concurrency", "1,2", "--csv", str(out_csv), "--json", str(out_json),
    ])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "infer/s" in captured.out and "text_detection" in captured.out
    table = [line.split() for line in captured.out.splitlines() if line.strip()[:1].isdigit()]
    assert [row[0] for row in table] == ["1", "2"]
    assert "notes.txt" in captured.err  # the skipped file is named
    rows = list(csv.reader(out_csv.open(encoding="utf-8")))
    assert tuple(rows[0]) == PERF_CSV_COLUMNS
    assert [r[0] for r in rows[1:]] == ["1", "2"]
    assert all(len(r) == len(PERF_CSV_COLUMNS) and float(r[1]) > 0 for r in rows[1:])
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert [r["concurrency"] for r in data["results"]] == [1, 2]
    assert all(r["mismatches"] == 0 and r["error_count"] == 0 for r in data["results"])


def test_bench_rejects_bad_levels(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["bench", "--server", "127.0.0.1:1", "--concurrency", "1,x"])
    assert "--concurrency" in str(exc.value)
