"""Presentation mode: the demo's two phases side by side in large type, one click from start to result.

A window over the Stress tab's own demo: the same controller, plan and records; it only renders.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from scanner_app.gui.units import rate_text

from .charts import RollingChart
from .records import RunRecord

PHASES = ("baseline", "pipeline")


def _big(label: QLabel, scale: float, bold: bool = True) -> QLabel:
    font = QFont(label.font())
    font.setPointSizeF(max(10.0, font.pointSizeF() * scale))
    font.setBold(bold)
    label.setFont(font)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setWordWrap(True)
    return label


class PhasePanel(QWidget):
    """One side: its title, throughput in large type, latency and CPU, a throughput chart."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = _big(QLabel(title), 2.0)
        self.rate = _big(QLabel("—"), 3.5)
        self.latency = _big(QLabel(""), 1.5, bold=False)
        self.cpu = _big(QLabel(""), 1.5, bold=False)
        self.state = _big(QLabel(self.tr("waiting")), 1.3, bold=False)
        self.chart = RollingChart(self.tr("Throughput"), self.tr("images/s"))
        self.chart.setMinimumSize(360, 240)
        self._x0: float | None = None  # the session time of this phase's first point: x is phase time
        layout = QVBoxLayout(self)
        for widget in (self.title, self.state, self.rate, self.latency, self.cpu):
            layout.addWidget(widget)
        layout.addWidget(self.chart, 1)

    def reset(self) -> None:
        self.rate.setText("—")
        self.latency.setText("")
        self.cpu.setText("")
        self.state.setText(self.tr("waiting"))
        self.chart.clear()
        self._x0 = None

    def show_live(self, x: float, stats: Any) -> None:
        warming = getattr(stats, "warming_up", False)
        self.state.setText(self.tr("warming up") if warming else self.tr("measuring"))
        self.rate.setText(rate_text(stats.throughput))
        if stats.completed:
            self.latency.setText(self.tr("p50 {0:.0f} · p95 {1:.0f} · p99 {2:.0f} ms").format(
                stats.p50_ms, stats.p95_ms, stats.p99_ms))  # fmt: skip
        if self._x0 is None:
            self._x0 = x
        self.chart.add_point(self.tr("images/s"), x - self._x0, stats.throughput)
        self.chart.refresh_axes()

    def show_cpu(self, percent: float) -> None:
        self.cpu.setText(self.tr("server process CPU {0:.0f} % of all cores").format(percent))

    def show_record(self, record: RunRecord) -> None:
        r = record.result
        self.state.setText(self.tr("done: {0} responses").format(r.completed))
        self.rate.setText(rate_text(r.throughput))
        self.latency.setText(self.tr("p50 {0:.0f} · p95 {1:.0f} · p99 {2:.0f} ms").format(
            r.p50_ms, r.p95_ms, r.p99_ms))  # fmt: skip
        if record.mean_utilisation is not None:
            self.show_cpu(record.mean_utilisation)


class PresentationWindow(QWidget):
    """Start button, the headline with its interval, and the baseline beside Triton."""

    def __init__(self, dashboard: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle(self.tr("Baseline vs Triton - presentation"))
        self.dashboard = dashboard
        self.start_button = QPushButton(self.tr("Run the demo"))
        font = QFont(self.start_button.font())
        font.setPointSizeF(font.pointSizeF() * 1.8)
        self.start_button.setFont(font)
        self.settings = _big(QLabel(), 1.3, bold=False)
        self.headline = _big(QLabel(self.tr("Press Run to compare the serial baseline with Triton")), 3.0)
        self.detail = _big(QLabel(""), 1.3, bold=False)
        self.panels = {
            "baseline": PhasePanel(self.tr("Serial baseline (one request at a time)")),
            "pipeline": PhasePanel(self.tr("Triton")),
        }
        top = QHBoxLayout()
        top.addWidget(self.start_button)
        top.addWidget(self.settings, 1)
        sides = QHBoxLayout()
        for panel in self.panels.values():
            sides.addWidget(panel, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.headline)
        layout.addWidget(self.detail)
        layout.addLayout(sides, 1)
        self.start_button.clicked.connect(self.start)
        c = dashboard.controller
        c.live_point.connect(self._on_live)
        c.server_point.connect(self._on_server)
        c.session_finished.connect(self._on_finished)
        dashboard.runs.model.rowsInserted.connect(self._on_rows)
        dashboard.demo.result_shown.connect(self._on_result)
        self._show_settings()

    def _show_settings(self) -> None:
        demo = self.dashboard.demo
        self.settings.setText(self.tr("Same images, concurrency {0}, {1:.0f} s per side").format(
            demo.concurrency.value(), demo.duration.value()))  # fmt: skip

    def start(self) -> bool:
        """One click: the dashboard's demo starts; the panels follow it."""
        self._show_settings()
        for panel in self.panels.values():
            panel.reset()
        self.headline.setText(self.tr("Measuring..."))
        self.detail.setText("")
        started = bool(self.dashboard.start_demo())
        if not started:
            self.headline.setText(self.tr("Could not start"))
            self.detail.setText(self.dashboard.demo.detail.text())
        self.start_button.setEnabled(not started)
        return started

    def _panel(self) -> PhasePanel | None:
        if not self.dashboard.demo.active:
            return None
        return self.panels.get(self.dashboard.controller.current_kind)

    def _on_live(self, x: float, stats: Any) -> None:
        panel = self._panel()
        if panel is not None:
            panel.show_live(x, stats)

    def _on_server(self, _x: float, sample: Any, _server: str) -> None:
        panel = self._panel()
        kind, value = sample.utilisation
        if panel is not None and value is not None and kind == "CPU":
            panel.show_cpu(value)

    def _on_rows(self, *_: object) -> None:
        records = self.dashboard.runs.model.records
        if records and self.dashboard.demo.active:
            record = records[-1]
            panel = self.panels.get(record.step.kind)
            if panel is not None:
                panel.show_record(record)

    def _on_result(self, headline: str, detail: str) -> None:
        self.headline.setText(headline)
        self.detail.setText(detail)

    def _on_finished(self, _stopped: bool) -> None:
        self.start_button.setEnabled(True)
