"""benchmarks/gpu_check.py: the whole path on the CPU (tiny), and a loud refusal without a GPU.

No GPU exists on this machine, so the GPU half of the table cannot be measured here; what can be
checked is that the script refuses to report CPU figures as GPU ones, and that its CPU mode runs
the real baseline and the real embedded Triton under every configuration it compares.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scanner_app.server.hardware import find_gpus
from tests.helpers.paths import BENCHMARKS

SCRIPT = BENCHMARKS / "gpu_check.py"


def _run(*args: str, timeout: float = 1200) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--no-venv", *args], capture_output=True, text=True, timeout=timeout
    )


def test_without_a_gpu_it_fails_loudly_instead_of_measuring_the_cpu() -> None:
    if find_gpus():  # pragma: no cover - on a GPU machine the check would run for real
        pytest.fail("this test documents the CPU-only CI machine; a GPU was found")
    done = _run("--concurrency", "1", "--instances", "1", timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "GPU CHECK FAILED" in done.stderr and "no NVIDIA GPU" in done.stderr


@pytest.mark.server
@pytest.mark.slow
def test_cpu_mode_measures_the_baseline_and_each_triton_configuration(tmp_path: Path) -> None:
    done = _run(
        "--cpu", "--requests", "4", "--warmup", "0", "--window", "0.5", "--concurrency", "1,2",
        "--instances", "1", "--images", "2", "--out", str(tmp_path), "--no-perf-analyzer",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads((tmp_path / "gpu_check.json").read_text(encoding="utf-8"))
    rows = report["rows"]
    baseline = [r for r in rows if r["server"] == "baseline"]
    triton = [r for r in rows if r["server"] == "triton"]
    assert sorted(r["concurrency"] for r in baseline) == [1, 2]
    assert sorted((r["batching"], r["instances"], r["concurrency"]) for r in triton) == [
        (False, 1, 1), (False, 1, 2), (True, 1, 1), (True, 1, 2),
    ]  # fmt: skip
    for row in rows:
        assert row["completed"] > 0 and row["errors"] == 0 and row["mismatches"] == 0, row
        assert row["images_per_s"] > 0 and row["p99_ms"] >= row["p50_ms"] > 0
    for row in triton:
        assert row["speedup"] is not None and row["speedup"] > 0
        assert {"text_detection", "text_recognition"} <= set(row["avg_batch"]), row
        assert row["gpu_util_pct"] is None  # no GPU metrics on a CPU server
    assert report["meta"]["device"].startswith("CPU")
    markdown = (tmp_path / "gpu_check.md").read_text(encoding="utf-8")
    assert "Flask baseline (serial)" in markdown and "dyn. batching on, 1 inst." in markdown
    assert "Production configs (onnxruntime backend): not run" in markdown
