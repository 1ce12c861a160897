"""The Stress tab against the real embedded Triton: short runs fill the charts and the runs table."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from scanner_app.gui.dashboard import StressDashboard
from scanner_app.gui.dashboard.plan import ImageSource
from scanner_app.load.report import PERF_CSV_COLUMNS
from scanner_app.load.spread import Verdict

RUN_TIMEOUT_MS = 180_000


@pytest.fixture
def dashboard(qtbot, connection) -> Iterator[StressDashboard]:
    widget = StressDashboard(connection)
    qtbot.addWidget(widget)
    widget.resize(1400, 900)
    widget.show()
    yield widget
    widget.shutdown()


def _fill_form(dashboard: StressDashboard, concurrency: str, duration_s: float, requests: int = 0) -> None:
    """A short run: 4 generated receipts, 0.5 s warm-up; `requests` > 0 bounds it by requests instead."""
    form = dashboard.form
    form.target.setCurrentIndex(form.target.findData("pipeline"))
    form.generated.setChecked(True)
    form.generated_count.setValue(4)
    form.concurrency.setText(concurrency)
    form.duration.setValue(duration_s)
    form.by_requests.setChecked(requests > 0)
    form.requests.setValue(max(1, requests))
    form.warmup.setValue(0.5)


def test_short_run_feeds_charts_table_and_exports(qtbot, dashboard: StressDashboard, tmp_path: Path) -> None:
    # Bounded by requests rather than seconds: ~3 s on an idle 2-core machine, and still some responses
    # to measure when the machine is shared and one request takes seconds.
    _fill_form(dashboard, "2", 3.0, requests=6)
    statuses: list[str] = []
    phases: list[str] = []
    dashboard.controller.status_changed.connect(lambda code, _detail: statuses.append(code))
    dashboard.controller.live_point.connect(lambda _x, stats: phases.append(stats.phase))
    with qtbot.waitSignal(dashboard.controller.session_finished, timeout=RUN_TIMEOUT_MS) as finished:
        qtbot.mouseClick(dashboard.form.start_button, _left())
        assert not dashboard.form.start_button.isEnabled()  # widget reflects the running state
        assert dashboard.form.stop_button.isEnabled()
    assert finished.args == [False]
    # The GUI thread drew points while the run was measuring: the run works off it (a blocked event
    # loop would only see the final "done" figures). Stall times are measured in benchmarks/.
    assert "measuring" in phases and phases[-1] == "done"
    assert statuses[:3] == ["images", "golden", "run"]  # golden results were taken before the run

    charts = dashboard.charts
    assert charts.throughput.point_count() > 0
    for name in ("p50", "p95", "p99"):
        assert charts.latency.point_count(name) > 0
    assert charts.throughput.last_value(charts.throughput.series_names()[0]) > 0
    # The server sampler ran: a batch-size point for each model the pipeline executed.
    assert {"det", "rec", "pre", "post"} <= set(charts.batch.series_names())  # legend names that fit
    assert all(charts.batch.point_count(name) > 0 for name in charts.batch.series_names())
    assert charts.queue_compute.point_count() > 0
    assert charts.utilisation.point_count() > 0

    records = dashboard.runs.model.records
    assert len(records) == 1
    record = records[0]
    assert record.label.startswith("Triton c=2")
    assert record.result.concurrency == 2
    assert record.result.throughput > 0 and record.result.completed == 6
    assert record.result.mismatches == 0 and record.error_count == 0
    assert {m.short_name for m in record.models} >= {"det", "rec"}
    assert dashboard.form.start_button.isEnabled()
    assert "No golden-check mismatches" in dashboard.issues.mismatches.text()

    csv_path = tmp_path / "runs.csv"
    with qtbot.waitSignal(dashboard.export_finished, timeout=10_000) as exported:
        dashboard.export_to(csv_path)
    assert exported.args == [str(csv_path), ""]
    rows = list(csv.reader(csv_path.open(encoding="utf-8")))
    assert tuple(rows[0]) == PERF_CSV_COLUMNS and len(rows[0]) == 13
    assert len(rows) == 2 and rows[1][0] == "2" and float(rows[1][1]) > 0
    assert int(rows[1][9]) > 0  # p50 latency in microseconds

    json_path = tmp_path / "runs.json"
    with qtbot.waitSignal(dashboard.export_finished, timeout=10_000):
        dashboard.export_to(json_path)
    data = json.loads(json_path.read_text(encoding="utf-8"))
    assert data["runs"][0]["label"] == record.label
    assert data["runs"][0]["throughput"] == pytest.approx(record.result.throughput)


def test_stop_button_ends_a_long_run_promptly(qtbot, dashboard: StressDashboard) -> None:
    _fill_form(dashboard, "2", 120.0)
    with qtbot.waitSignal(dashboard.controller.run_started, timeout=RUN_TIMEOUT_MS):
        qtbot.mouseClick(dashboard.form.start_button, _left())
    qtbot.waitUntil(lambda: dashboard.charts.throughput.point_count() > 0, timeout=30_000)
    with qtbot.waitSignal(dashboard.controller.session_finished, timeout=30_000) as finished:
        qtbot.mouseClick(dashboard.form.stop_button, _left())
    assert finished.args == [True]
    records = dashboard.runs.model.records
    assert len(records) == 1 and records[0].label.endswith("(stopped)")
    assert records[0].result.duration_s < 60  # of the 120 s asked for


def test_bad_input_is_reported_in_the_form(qtbot, dashboard: StressDashboard, tmp_path: Path) -> None:
    dashboard.form.concurrency.setText("0")
    qtbot.mouseClick(dashboard.form.start_button, _left())
    assert "at least 1" in dashboard.form.error.text()
    assert not dashboard.controller.running

    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("not an image")
    dashboard.form.concurrency.setText("1")
    dashboard.form.folder.setText(str(empty))
    dashboard.form.folder_choice.setChecked(True)
    with qtbot.waitSignal(dashboard.controller.session_finished, timeout=30_000):
        qtbot.mouseClick(dashboard.form.start_button, _left())
    assert str(empty) in dashboard.form.error.text()
    assert "no readable images" in dashboard.status.text()
    assert dashboard.runs.model.rowCount() == 0


def _left():
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton


def test_demo_runs_baseline_then_triton_and_shows_the_speedup(qtbot, dashboard: StressDashboard) -> None:
    demo = dashboard.demo
    demo.concurrency.setValue(2)
    demo.duration.setValue(60.0)
    demo.warmup_s = 0.5
    demo.requests = 3  # each side ends after 3 measured requests (~2 s each here when the machine is idle)
    demo.images = ImageSource(generated_count=2)
    labels: list[str] = []
    dashboard.controller.run_started.connect(labels.append)
    with qtbot.waitSignal(dashboard.controller.session_finished, timeout=RUN_TIMEOUT_MS) as finished:
        qtbot.mouseClick(demo.button, _left())
    assert finished.args == [False], dashboard.status.text()
    assert labels[0] == "baseline c=2" and labels[1].startswith("Triton c=2")
    records = dashboard.runs.model.records
    assert [r.step.kind for r in records] == ["baseline", "pipeline"]
    for r in records:
        assert r.result.completed > 0 and r.result.mismatches == 0 and r.error_count == 0, (r.label, r.result)
    expected = records[1].result.throughput / records[0].result.throughput
    assert demo.ratio == pytest.approx(expected)
    call = demo.call
    assert call is not None and call.ratio == pytest.approx(expected)
    # 3 responses a side cannot carry a speed-up: the headline says so instead of a bare ratio (#14).
    assert call.verdict is Verdict.TOO_SHORT
    assert demo.speedup.text() == "Too short to call"
    counts = f"{records[1].result.completed} Triton vs {records[0].result.completed} baseline responses"
    assert f"{expected:.2f}x" in demo.detail.text() and counts in demo.detail.text()
    dashboard.runs.select_rows([0, 1])
    assert dashboard.runs.comparison.text().startswith(f"{records[1].label} vs baseline c=2: {expected:.2f}x")
    assert demo.button.isEnabled()
    # Each server's own process tree is charted: Triton's (tritonserver and its stubs) also while
    # only the baseline works, where it idles, in its own line per phase.
    utilisation = dashboard.charts.utilisation
    assert utilisation.point_count("baseline CPU %") > 0
    triton_lines = utilisation.segment_values("Triton CPU %")
    assert len(triton_lines) == 2, triton_lines
    assert max(triton_lines[0]) < 20.0, triton_lines  # the host reads ~100 % here; Triton's tree idles
    assert utilisation.phase_labels() == ["baseline c=2", "Triton c=2"]  # the config is in the table


def test_sweep_on_the_detection_model_takes_golden_results_once(qtbot, dashboard: StressDashboard) -> None:
    _fill_form(dashboard, "1,2", 30.0, requests=2)
    dashboard.form.target.setCurrentIndex(dashboard.form.target.findData("detection"))
    statuses: list[str] = []
    dashboard.controller.status_changed.connect(lambda code, _detail: statuses.append(code))
    with qtbot.waitSignal(dashboard.controller.session_finished, timeout=RUN_TIMEOUT_MS):
        qtbot.mouseClick(dashboard.form.start_button, _left())
    assert statuses.count("golden") == 1 and statuses.count("run") == 2
    records = dashboard.runs.model.records
    assert [r.label.split(" · ")[0] for r in records] == ["Triton detection c=1", "Triton detection c=2"]
    assert all(r.result.completed == 2 and r.result.mismatches == 0 for r in records)
    assert dashboard.charts.batch.point_count("det") > 0
