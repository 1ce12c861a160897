"""Turns LiveStats and ServerSamples into chart points (one call per timer tick)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QColor

from scanner_app.contract import ALL_MODELS, PIPELINE_MODEL

from .charts import DashboardCharts
from .plan import SHORT_MODEL_NAMES
from .records import model_order

# One colour per model in every chart (Okabe-Ito, colour-blind safe); other models cycle through them.
MODEL_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9")


# p95 dashed in its own colour, added after p99 so that it is drawn over it: never hidden under p99.
LATENCY_STYLES = {"p50": ("#0072B2", False), "p99": ("#D55E00", False), "p95": ("#009E73", True)}


def model_color(model: str) -> QColor:
    index = ALL_MODELS.index(model) if model in ALL_MODELS else sum(map(ord, model))
    return QColor(MODEL_COLORS[index % len(MODEL_COLORS)])


# Legend names short enough that four models fit under a third of the tab (the full names are in
# the runs table's tooltips and the findings).
CHART_NAMES = {"ocr_preprocess": "pre", "ocr_postprocess": "post", "textline_orientation": "orient"}


def short_model_name(model: str) -> str:
    return SHORT_MODEL_NAMES.get(model) or CHART_NAMES.get(model) or model.removeprefix("ocr_")


def plot_live(charts: DashboardCharts, x: float, stats: Any) -> None:
    """Throughput and p50/p95/p99 latency of the run being measured (LoadRun.live())."""
    charts.throughput.add_point(QCoreApplication.translate("ChartFeed", "images/s"), x, stats.throughput)
    if stats.completed:
        for name, value in (("p50", stats.p50_ms), ("p99", stats.p99_ms), ("p95", stats.p95_ms)):
            color, dashed = LATENCY_STYLES[name]
            charts.latency.add_point(name, x, value, color=QColor(color), dashed=dashed)
    charts.throughput.refresh_axes()
    charts.latency.refresh_axes()


def plot_sample(charts: DashboardCharts, x: float, sample: Any, server: str = "Triton") -> None:
    """Per-model average batch, queue vs compute, and CPU/GPU use from one ServerSample of a run.

    `server` names the utilisation series ("Triton", "baseline": the baseline's process tree).

    Models that executed nothing during the interval get no point (an average of nothing).
    The ensemble itself is left out: its figures are the sum of its steps.
    """
    for model, figures in sorted(sample.models.items(), key=lambda item: model_order(item[0])):
        if model == PIPELINE_MODEL or not figures.executions:
            continue
        name, color = short_model_name(model), model_color(model)
        compute = figures.compute_input_us + figures.compute_infer_us + figures.compute_output_us
        charts.batch.add_point(name, x, figures.avg_batch, color=color)
        charts.queue_compute.add_point(name, x, compute / 1000, color=color)
        charts.queue_compute.add_point(
            QCoreApplication.translate("ChartFeed", "{0} queue").format(name),
            x,
            figures.queue_us / 1000,
            dashed=True,
            color=color,
            in_legend=False,
        )
    kind, value = sample.utilisation
    if value is not None:
        charts.utilisation.add_point(
            QCoreApplication.translate("ChartFeed", "{0} {1} %").format(server, kind), x, value
        )
    for other, cpu in getattr(sample, "process_cpu", ()):  # e.g. Triton's tree while the baseline runs
        name = QCoreApplication.translate("ChartFeed", "{0} {1} %").format(other, "CPU")
        charts.utilisation.add_point(name, x, cpu)
    for chart in (charts.batch, charts.queue_compute, charts.utilisation):
        chart.refresh_axes()
