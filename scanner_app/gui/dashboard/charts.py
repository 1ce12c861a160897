"""Live line charts (QtCharts): bounded rolling series, axes that follow the data.

Points are added by the controller's timers (a few per second), never per request. Each chart
keeps at most `max_points` per series and shows the last `window_s` seconds.
"""

from __future__ import annotations

import math

from PySide6.QtCharts import QChart, QChartView, QLineSeries, QValueAxis
from PySide6.QtCore import QMargins, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGridLayout, QWidget

MAX_POINTS = 600
WINDOW_S = 120.0


def nice_step(span: float) -> float:
    """The smallest of 1, 2, 5 x 10^k that is at least `span` (tick spacing)."""
    if span <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(span))
    return next(m * power for m in (1.0, 2.0, 5.0, 10.0) if m * power >= span * (1 - 1e-9))


class RollingChart(QChartView):
    """A time chart of named line series; x is seconds since the session started."""

    def __init__(self, title: str, y_title: str, parent: QWidget | None = None, *,
                 max_points: int = MAX_POINTS, window_s: float = WINDOW_S) -> None:  # fmt: skip
        chart = QChart()
        chart.setTitle(title)
        chart.setMargins(QMargins(2, 2, 2, 2))
        chart.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
        super().__init__(chart, parent)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setMinimumSize(280, 200)
        self.max_points = max_points
        self.window_s = window_s
        self._x_axis = QValueAxis()
        self._x_axis.setTitleText(self.tr("seconds"))
        self._x_axis.setLabelFormat("%.0f")
        self._y_axis = QValueAxis()
        self._y_axis.setTitleText(y_title)
        for axis in (self._x_axis, self._y_axis):
            axis.setTickType(QValueAxis.TickType.TicksDynamic)
            axis.setTickAnchor(0.0)
        chart.addAxis(self._x_axis, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(self._y_axis, Qt.AlignmentFlag.AlignLeft)
        self._series: dict[str, QLineSeries] = {}
        self._last_x = 0.0
        self.refresh_axes()

    def series_names(self) -> list[str]:
        return list(self._series)

    def point_count(self, name: str | None = None) -> int:
        """Points held by one series, or by all series together."""
        if name is not None:
            series = self._series.get(name)
            return series.count() if series is not None else 0
        return sum(s.count() for s in self._series.values())

    def last_value(self, name: str) -> float | None:
        series = self._series.get(name)
        if series is None or series.count() == 0:
            return None
        return series.at(series.count() - 1).y()

    def add_point(
        self, name: str, x: float, y: float, *, dashed: bool = False, color: QColor | None = None,
        in_legend: bool = True,
    ) -> None:  # fmt: skip
        """Append a point to series `name` (created on first use with this style)."""
        series = self._series.get(name) or self._new_series(name, dashed, color, in_legend)
        series.append(x, y)
        excess = series.count() - self.max_points
        if excess > 0:
            series.removePoints(0, excess)
        self._last_x = max(self._last_x, x)

    def refresh_axes(self) -> None:
        """Fit the axes to the visible points; call once per timer tick, after adding points."""
        right = max(self._last_x, 10.0)
        left = max(0.0, right - self.window_s)
        top = 0.0
        for series in self._series.values():
            for point in series.points():
                if point.x() >= left:
                    top = max(top, point.y())
        top = top * 1.15 if top > 0 else 1.0
        x_step, y_step = nice_step((right - left) / 5), nice_step(top / 4)
        self._x_axis.setTickInterval(x_step)
        self._x_axis.setRange(left, right)
        self._y_axis.setLabelFormat("%.0f" if y_step >= 1 else "%.1f" if y_step >= 0.1 else "%.2f")
        self._y_axis.setTickInterval(y_step)
        self._y_axis.setRange(0.0, top)

    def clear(self) -> None:
        for series in self._series.values():
            series.clear()
        self._last_x = 0.0
        self.refresh_axes()

    def _new_series(self, name: str, dashed: bool, color: QColor | None, in_legend: bool) -> QLineSeries:
        series = QLineSeries()
        series.setName(name)
        self.chart().addSeries(series)
        series.attachAxis(self._x_axis)
        series.attachAxis(self._y_axis)
        pen = QPen(series.pen())
        pen.setWidthF(2.0)
        if color is not None:
            pen.setColor(color)
        if dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        series.setPen(pen)
        if not in_legend:
            for marker in self.chart().legend().markers(series):
                marker.setVisible(False)
        self._series[name] = series
        return series


class DashboardCharts(QWidget):
    """The five live charts in a grid."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.throughput = RollingChart(self.tr("Throughput"), self.tr("images/s"))
        self.latency = RollingChart(self.tr("Latency"), self.tr("ms"))
        self.batch = RollingChart(self.tr("Average executed batch per model"), self.tr("requests"))
        self.queue_compute = RollingChart(
            self.tr("Compute (solid) vs queue (dashed) per model"), self.tr("ms per request")
        )
        self.utilisation = RollingChart(self.tr("CPU / GPU use (% of all cores)"), self.tr("%"))
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.throughput, 0, 0)
        layout.addWidget(self.latency, 0, 1)
        layout.addWidget(self.utilisation, 0, 2)
        layout.addWidget(self.batch, 1, 0)
        layout.addWidget(self.queue_compute, 1, 1, 1, 2)

    def all_charts(self) -> tuple[RollingChart, ...]:
        return (self.throughput, self.latency, self.batch, self.queue_compute, self.utilisation)

    def refresh_axes(self) -> None:
        for chart in self.all_charts():
            chart.refresh_axes()

    def clear(self) -> None:
        for chart in self.all_charts():
            chart.clear()
