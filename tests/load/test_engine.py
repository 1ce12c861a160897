"""The load engine against the real embedded Triton (the `triton` fixture): every target kind."""

from __future__ import annotations

import csv
import socket
from pathlib import Path

import pytest

from scanner_app.contract import PIPELINE_MODEL, RECOGNITION_MODEL
from scanner_app.load.engine import LoadRun, LoadSpec
from scanner_app.load.report import PERF_CSV_COLUMNS, SERVER_KEYS, write_perf_csv
from scanner_app.load.server_stats import ServerMonitor
from scanner_app.load.sweep import run_sweep
from scanner_app.load.targets import make_target, sample_images
from scanner_app.server.embedded import EmbeddedServer

# Bounded by requests, not time: on a busy 2-core machine one pipeline request can take seconds.
SHORT = LoadSpec(concurrency=4, duration_s=None, requests=8, warmup_s=1.0, window_s=1.0)


@pytest.fixture(scope="module")
def images() -> list[bytes]:
    return sample_images(3)


@pytest.fixture(scope="module")
def monitor(triton: EmbeddedServer) -> ServerMonitor:
    with ServerMonitor(triton.grpc_url, triton.metrics_url) as monitor:
        yield monitor


@pytest.mark.parametrize("kind", ["pipeline", "detection", "recognition"])
def test_each_target_runs_clean_at_concurrency_4(
    triton: EmbeddedServer, images: list[bytes], monitor: ServerMonitor, kind: str
) -> None:
    target = make_target(kind, triton.grpc_url, images)
    try:
        run = LoadRun(target, SHORT, monitor)
        run.start()
        result = run.wait(180)
    finally:
        target.close()
    final = run.live()  # what the dashboard draws last: the run's figure, however long ago its last response
    assert final.phase == "done" and final.throughput == result.throughput
    assert result.target == kind and result.concurrency == 4
    assert result.completed == 8, result
    assert result.errors == {} and result.mismatches == 0, result
    assert result.throughput > 0 and 0 < result.p50_ms <= result.p99_ms
    assert result.windows and sum(w.completed for w in result.windows) == result.completed
    assert result.server is not None and set(result.server) == set(SERVER_KEYS)
    server_time = sum(result.server[k] for k in ("queue", "compute_input", "compute_infer", "compute_output"))
    # The server's share is of the order of the client latency (the server counts the requests that ended in
    # the interval, a few of them warm-up requests, so with 8 requests it is not exactly inside it).
    assert 0 < server_time <= result.mean_ms * 1000 * 2


def test_monitor_shows_recognition_batching(
    triton: EmbeddedServer, images: list[bytes], monitor: ServerMonitor
) -> None:
    target = make_target("pipeline", triton.grpc_url, images)
    try:
        spec = LoadSpec(concurrency=4, duration_s=None, requests=6, warmup_s=0.5, window_s=1.0)
        run = LoadRun(target, spec, monitor)
        run.start()
        result = run.wait(180)
    finally:
        target.close()
    samples = result.server_samples  # one per measured window: the run's own, the charts draw them
    assert samples and len(samples) == len(result.windows)
    assert all(not s.error and s.interval_s > 0 for s in samples)
    assert all(s.cpu_util is not None and 0 <= s.cpu_util <= 100.5 for s in samples)
    # A local server: its own process tree (tritonserver + stubs), not the host's nv_cpu_utilization.
    assert {s.cpu_source for s in samples} == {"proc"}
    # The samples chain from the reading that starts the measured interval: they add up to its exact counts.
    exact = result.server_models[RECOGNITION_MODEL]
    window_recs = [s.models[RECOGNITION_MODEL] for s in samples if RECOGNITION_MODEL in s.models]
    assert sum(m.executions for m in window_recs) == exact["executions"] > 0
    assert sum(m.inferences for m in window_recs) == exact["inferences"]
    for rec in window_recs:
        assert sum(rec.batch_histogram.values()) == rec.executions
        assert sum(size * n for size, n in rec.batch_histogram.items()) == rec.inferences
    # A receipt's text lines reach text_recognition in chunks (ocr_postprocess's BLS calls): batches > 1.
    assert exact["avg_batch"] > 1.0 and exact["compute_us"] > 0
    assert sum(s.models[PIPELINE_MODEL].requests for s in samples if PIPELINE_MODEL in s.models) >= 1


def test_sweep_and_csv(
    triton: EmbeddedServer, images: list[bytes], monitor: ServerMonitor, tmp_path: Path
) -> None:
    target = make_target("detection", triton.grpc_url, images)
    seen = []
    try:
        spec = LoadSpec(duration_s=2.0, warmup_s=0.5, window_s=1.0)
        results = run_sweep(target, [1, 2], spec, monitor, on_result=seen.append)
    finally:
        target.close()
    assert [r.concurrency for r in results] == [1, 2] and seen == results
    assert all(r.completed > 0 and not r.errors and r.mismatches == 0 for r in results)
    write_perf_csv(results, tmp_path / "perf.csv")
    rows = list(csv.reader((tmp_path / "perf.csv").open(encoding="utf-8")))
    assert tuple(rows[0]) == PERF_CSV_COLUMNS
    assert [len(r) for r in rows[1:]] == [len(PERF_CSV_COLUMNS)] * 2
    assert [r[0] for r in rows[1:]] == ["1", "2"]
    assert float(rows[1][1]) == pytest.approx(results[0].throughput, rel=1e-3)
    assert int(rows[2][9]) == round(results[1].p50_ms * 1000)  # p50 in microseconds


def test_request_bound_gives_exactly_n(triton: EmbeddedServer, images: list[bytes]) -> None:
    target = make_target("detection", triton.grpc_url, images)
    try:
        run = LoadRun(target, LoadSpec(concurrency=3, duration_s=None, requests=7, warmup_s=0.5))
        run.start()
        result = run.wait(120)
    finally:
        target.close()
    assert result.completed == 7 and not result.errors and result.mismatches == 0


def test_failing_inputs_are_errors_grouped_by_cause(triton: EmbeddedServer, images: list[bytes]) -> None:
    target = make_target("pipeline", triton.grpc_url, [images[0], b"this is not an image"])
    try:
        run = LoadRun(target, LoadSpec(concurrency=2, duration_s=None, requests=8, warmup_s=0.5))
        run.start()
        result = run.wait(120)
    finally:
        target.close()
    assert result.completed > 0 and result.mismatches == 0
    assert len(result.errors) == 1, result.errors  # every bad request fails for the same reason
    (cause,) = result.errors
    assert cause.startswith("InvalidImage") and "decode" in cause


def _dead_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{sock.getsockname()[1]}"  # closed again: nothing listens there


@pytest.mark.parametrize("kind", ["pipeline", "detection"])
def test_dead_server_gives_causes_not_a_hang(images: list[bytes], kind: str) -> None:
    url = _dead_url()
    target = make_target(kind, url, images)
    monitor = ServerMonitor(url)
    try:
        run = LoadRun(target, LoadSpec(concurrency=4, duration_s=2.0, warmup_s=0.5), monitor)
        run.start()
        result = run.wait(30)
        sample = monitor.sample()
    finally:
        target.close()
        monitor.close()
    assert result.completed == 0  # and no hang: run.wait(30) above would have raised
    (cause,) = result.errors
    assert "ServerUnavailable" in cause and url in cause
    assert sample.error and sample.models == {}
