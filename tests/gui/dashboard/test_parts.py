"""The dashboard's parts without a server: plans, labels, server totals, findings, table, charts, export."""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from scanner_app.contract import DETECTION_MODEL, PIPELINE_MODEL, RECOGNITION_MODEL
from scanner_app.core.client.triton import InstanceGroup, ModelFacts
from scanner_app.gui.dashboard.charts import RollingChart
from scanner_app.gui.dashboard.export import export_runs
from scanner_app.gui.dashboard.images import load_images
from scanner_app.gui.dashboard.plan import (
    ImageSource,
    RunStep,
    SessionPlan,
    parse_concurrency,
    run_label,
    server_tag,
)
from scanner_app.gui.dashboard.records import RunRecord, findings, ordered_for_speedup
from scanner_app.gui.dashboard.runs_table import RunsView
from scanner_app.load.report import PERF_CSV_COLUMNS, RunResult
from scanner_app.load.server_stats import ServerSample
from scanner_app.samples.documents import encode, render_text_lines


def _result(kind: str, throughput: float, p50: float, concurrency: int = 4, **extra: object) -> RunResult:
    values: dict = dict(
        target=kind, url="u", concurrency=concurrency, completed=40, errors={}, mismatches=0,
        throughput=throughput, mean_ms=p50, p50_ms=p50, p90_ms=p50 * 1.2, p95_ms=p50 * 1.3, p99_ms=p50 * 1.5,
        duration_s=10.0, stable=True, windows=(), server=None,
    )  # fmt: skip
    values.update(extra)
    return RunResult(**values)


def _record(label: str, kind: str, throughput: float, p50: float) -> RunRecord:
    return RunRecord(label, RunStep(kind, 4, () if kind == "baseline" else ("127.0.0.1:1",)),
                     _result(kind, throughput, p50))  # fmt: skip


def test_concurrency_text_becomes_levels() -> None:
    assert parse_concurrency("8") == (8,)
    assert parse_concurrency("1, 2 4,4") == (1, 2, 4)
    assert parse_concurrency("1-16") == (1, 2, 4, 8, 16)
    assert parse_concurrency("3-10") == (3, 6, 10)
    for bad, cause in (("", "give a concurrency"), ("0", "at least 1"), ("x", "not a whole number"),
                       ("8-2", "goes down"), ("1000", "over the limit")):  # fmt: skip
        with pytest.raises(ValueError, match=cause):
            parse_concurrency(bad)


def test_plan_refuses_a_triton_step_without_url() -> None:
    with pytest.raises(ValueError, match="needs a server URL"):
        SessionPlan(steps=(RunStep("pipeline", 2),))
    SessionPlan(steps=(RunStep("baseline", 2),))  # a local baseline server is started for it


def test_labels_name_the_server_configuration() -> None:
    def facts(name: str, batching: bool, count: int) -> ModelFacts:
        return ModelFacts(name, "python", 16, batching, (InstanceGroup("KIND_CPU", count),))

    same = [
        facts(PIPELINE_MODEL, False, 1),
        facts(DETECTION_MODEL, True, 2),
        facts(RECOGNITION_MODEL, True, 2),
    ]
    assert server_tag(same) == "dyn-batching on · 2 inst"
    mixed = [facts(DETECTION_MODEL, False, 1), facts(RECOGNITION_MODEL, True, 2)]
    assert server_tag(mixed) == "det batching off · rec batching on · det 1 inst · rec 2 inst"
    assert run_label("pipeline", 16, "dyn-batching off · 2 inst") == "Triton c=16 · dyn-batching off · 2 inst"
    assert run_label("baseline", 16, "ignored") == "baseline c=16"
    assert run_label("detection", 4) == "Triton detection c=4"


def _figures(inferences: int, executions: int, queue_us: float, compute_us: float) -> dict[str, float]:
    return {"inferences": inferences, "executions": executions, "avg_batch": inferences / executions,
            "requests": executions, "queue_us": queue_us, "compute_us": compute_us}  # fmt: skip


def test_a_record_takes_its_server_figures_from_the_run_result() -> None:
    server_models = {
        RECOGNITION_MODEL: _figures(30, 10, 20_000.0, 5_000.0),
        DETECTION_MODEL: _figures(10, 10, 100.0, 40_000.0),
        PIPELINE_MODEL: _figures(10, 10, 0.0, 50_000.0),
    }
    samples = tuple(ServerSample(float(k), {}, None, None, cpu) for k, cpu in enumerate((40.0, None, 60.0)))
    result = _result("pipeline", 3.0, 300.0, server_models=server_models, server_samples=samples)
    record = RunRecord("Triton c=4", RunStep("pipeline", 4, ("u",)), result)
    summaries = record.models
    assert [m.short_name for m in summaries] == ["det", "rec"]  # pipeline order, ensemble left out
    rec = summaries[1]
    assert (rec.avg_batch, rec.queue_ms, rec.compute_ms) == (3.0, pytest.approx(20.0), pytest.approx(5.0))
    assert record.mean_utilisation == 50.0 and record.utilisation_kind == "CPU"  # None is left out
    assert findings(summaries) == [("queue_bound", rec), ("grouped", rec)]
    assert findings(summaries, {RECOGNITION_MODEL}) == [("queue_bound", rec), ("batched", rec)]
    data = record.to_json()
    assert data["mean_cpu_util_percent"] == 50.0 and [m["model"] for m in data["models"]] == [
        DETECTION_MODEL, RECOGNITION_MODEL]  # fmt: skip
    assert len(data["server_samples"]) == 3
    on_gpu = replace(result, server_samples=(ServerSample(0.0, {}, 80.0, 1e9, 30.0),))
    gpu_record = RunRecord("Triton c=4", record.step, on_gpu)
    assert (gpu_record.utilisation_kind, gpu_record.mean_utilisation) == ("GPU", 80.0)


def test_speedup_puts_the_baseline_first() -> None:
    base, triton = (
        _record("baseline c=4", "baseline", 1.0, 900.0),
        _record("Triton c=4", "pipeline", 3.0, 300.0),
    )
    assert ordered_for_speedup([triton, base]) == (base, triton)
    slow, fast = _record("A", "pipeline", 2.0, 1.0), _record("B", "pipeline", 1.0, 1.0)
    assert ordered_for_speedup([slow, fast]) == (fast, slow)


def test_runs_table_compares_two_selected_rows_and_renames(qtbot) -> None:
    view = RunsView()
    qtbot.addWidget(view)
    view.model.add(_record("baseline c=4", "baseline", 1.0, 900.0))
    view.model.add(_record("Triton c=4", "pipeline", 3.1, 300.0))
    assert view.model.rowCount() == 2
    view.select_rows([0, 1])
    text = view.comparison.text()
    assert text.startswith("Triton c=4 vs baseline c=4: 3.10x the throughput")
    assert "p50 300 vs 900 ms" in text
    view.select_rows([1])
    assert "Select two runs" in view.comparison.text()
    index = view.model.index(1, 0)
    assert view.model.flags(index) & Qt.ItemFlag.ItemIsEditable
    assert view.model.setData(index, "dyn-batching off")
    assert view.model.records[1].label == "dyn-batching off"
    assert not view.model.setData(index, "  ")  # an empty label is refused


def test_rolling_chart_is_bounded_and_fits_its_axes(qtbot) -> None:
    chart = RollingChart("t", "y", max_points=5, window_s=10.0)
    qtbot.addWidget(chart)
    for x in range(12):
        chart.add_point("s", float(x), float(x * 10))
    chart.refresh_axes()
    assert chart.point_count("s") == 5 and chart.last_value("s") == 110.0
    axes = chart.chart().axes()
    x_axis = next(a for a in axes if a.orientation() == Qt.Orientation.Horizontal)
    y_axis = next(a for a in axes if a.orientation() == Qt.Orientation.Vertical)
    assert (x_axis.min(), x_axis.max()) == (1.0, 11.0)
    assert y_axis.max() >= 110.0
    chart.clear()
    assert chart.point_count() == 0


def test_export_writes_perf_analyzer_csv_and_json(tmp_path: Path) -> None:
    server = dict(client_send=10.0, network=20.0, queue=30.0, compute_input=40.0, compute_infer=50.0,
                  compute_output=60.0, client_recv=70.0)  # fmt: skip
    record = RunRecord(
        "Triton c=4", RunStep("pipeline", 4, ("u",)), _result("pipeline", 2.5, 400.0, server=server)
    )
    rows = list(csv.reader(export_runs([record], tmp_path / "runs.csv").open(encoding="utf-8")))
    assert tuple(rows[0]) == PERF_CSV_COLUMNS
    assert rows[1] == ["4", "2.5000", "10", "20", "30", "40", "50", "60", "70", "400000", "480000", "520000",
                       "600000"]  # fmt: skip
    data = json.loads(export_runs([record], tmp_path / "runs.json").read_text(encoding="utf-8"))
    assert data["runs"][0]["label"] == "Triton c=4" and data["runs"][0]["throughput"] == 2.5
    with pytest.raises(ValueError, match="no runs"):
        export_runs([], tmp_path / "none.csv")


def test_folder_images_are_loaded_and_bad_files_named(tmp_path: Path) -> None:
    (tmp_path / "page.png").write_bytes(encode(render_text_lines(["Total 12.50"]).image))
    (tmp_path / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 truncated")
    loaded = load_images(ImageSource(folder=tmp_path))
    assert loaded.names == ("page.png",) and len(loaded.data) == 1
    assert any("broken.jpg" in problem for problem in loaded.problems)
    generated = load_images(ImageSource(generated_count=2))
    assert len(generated.data) == 2 and generated.data[0] != generated.data[1]
    with pytest.raises(ValueError, match="not a folder"):
        load_images(ImageSource(folder=tmp_path / "missing"))
