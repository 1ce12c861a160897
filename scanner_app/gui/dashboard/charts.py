"""Live line charts (QtCharts): bounded rolling series, axes that follow the data.

Points are added by the controller's timers (a few per second), never per request. Each chart
keeps at most `max_points` per series and shows the last `window_s` seconds. A session's runs are
phases (`begin_phase`): each gets its label under the time axis, and no line joins one phase's
points to the next (the gap between them is the baseline's stop and Triton's warm-up). On a dark
palette (scanner_app.gui.theme) the chart's panel, text and grid follow it, and each line's colour is
lightened until it stands out (3:1, as WCAG asks of graphics); back on light, QtCharts' own look.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCharts import QCategoryAxis, QChart, QChartView, QLineSeries, QValueAxis
from PySide6.QtCore import QEvent, QMargins, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetrics, QPainter, QPalette, QPen, QResizeEvent
from PySide6.QtWidgets import QGraphicsSimpleTextItem, QGridLayout, QWidget

from scanner_app.gui import theme

MAX_POINTS = 600
WINDOW_S = 120.0
MAX_SESSION_VIEW_S = 900.0  # up to this long, the time axis shows the whole session's phases
LINE_CONTRAST = 3.0  # WCAG's minimum for graphics against their background


@dataclass
class Phase:
    """One run of the session on the time axis: from its start to its last point."""

    label: str
    start: float
    end: float


def phase_categories(phases: list[Phase]) -> list[tuple[str, float]]:
    """(label, end) pairs for a QCategoryAxis starting at the first phase's start; gaps get blank,
    distinct labels (a category axis needs unique labels)."""
    out: list[tuple[str, float]] = []
    last = phases[0].start if phases else 0.0
    for i, phase in enumerate(phases):
        if phase.start > last:
            out.append((" " * (i + 1), phase.start))
        label = phase.label
        while any(existing == label for existing, _ in out):
            label += " "
        out.append((label, max(phase.end, phase.start + 1e-6)))
        last = out[-1][1]
    return out


def nice_step(span: float) -> float:
    """The smallest of 1, 2, 5 x 10^k that is at least `span` (tick spacing)."""
    if span <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(span))
    return next(m * power for m in (1.0, 2.0, 5.0, 10.0) if m * power >= span * (1 - 1e-9))


@dataclass(frozen=True)
class _Look:
    background: QBrush
    title: QBrush
    legend: QColor
    axes: tuple[tuple[QBrush, QBrush, QColor, QColor], ...]  # labels, title, grid, line per axis


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
        self._phase_axis = QCategoryAxis()  # one category per phase: its grid lines mark the phases
        self._phase_axis.setLabelsPosition(QCategoryAxis.AxisLabelsPosition.AxisLabelsPositionCenter)
        self._phase_axis.setLineVisible(False)
        self._phase_axis.setLabelsVisible(False)  # grid lines only: the labels are _phase_items
        self._phase_items: list[QGraphicsSimpleTextItem] = []
        self._phase_axis.setVisible(False)
        phase_font = self._phase_axis.labelsFont()
        phase_font.setPointSizeF(max(6.5, phase_font.pointSizeF() - 1.5))
        phase_font.setBold(True)
        self._phase_axis.setLabelsFont(phase_font)
        chart.addAxis(self._phase_axis, Qt.AlignmentFlag.AlignBottom)
        legend = chart.legend()
        legend.setShowToolTips(True)  # a name the legend must elide shows whole on hover
        font = legend.font()
        font.setPointSizeF(max(7.0, font.pointSizeF() - 1))
        legend.setFont(font)
        self._series: dict[str, QLineSeries] = {}  # the current phase's series by name
        self._segments: list[tuple[str, QLineSeries]] = []  # earlier phases' series (not joined)
        self._pens: dict[str, QPen] = {}
        self._phases: list[Phase] = []
        self._last_x = 0.0
        self._light_look = self._look()
        self._dark = False
        self.refresh_axes()
        self._follow_palette()

    # The palette -------------------------------------------------------------------------------
    def _axes(self) -> tuple[QValueAxis | QCategoryAxis, ...]:
        return (self._x_axis, self._y_axis, self._phase_axis)

    def _look(self) -> _Look:
        """The colours the chart is drawn with (QtCharts' light theme, as first built)."""
        chart = self.chart()
        axes = tuple((a.labelsBrush(), a.titleBrush(), a.gridLineColor(), a.linePenColor())
                     for a in self._axes())
        return _Look(chart.backgroundBrush(), chart.titleBrush(), chart.legend().labelColor(), axes)

    def _follow_palette(self) -> None:
        chart, dark = self.chart(), theme.is_dark()
        if dark:
            palette = self.palette()
            text, grid = palette.color(QPalette.ColorRole.WindowText), palette.color(QPalette.ColorRole.Light)
            look = _Look(QBrush(palette.color(QPalette.ColorRole.Base)), QBrush(text), text,
                         tuple((QBrush(text), QBrush(text), grid, grid) for _ in self._axes()))  # fmt: skip
        else:
            look = self._light_look
        if dark or self._dark:  # a light chart that never went dark keeps QtCharts' look untouched
            chart.setBackgroundBrush(look.background)
            chart.setTitleBrush(look.title)
            chart.legend().setLabelColor(look.legend)
            for axis, (labels, title, grid_colour, line) in zip(self._axes(), look.axes, strict=True):
                axis.setLabelsBrush(labels)
                axis.setTitleBrush(title)
                axis.setGridLineColor(grid_colour)
                axis.setLinePenColor(line)
        self._dark = dark
        for name, series in self._all():
            series.setPen(self._drawn_pen(self._pens[name]))
        for item in self._phase_items:
            item.setBrush(self._x_axis.labelsBrush())

    def _drawn_pen(self, pen: QPen) -> QPen:
        """``pen`` as drawn on the current palette: on a dark one, lightened until it stands out."""
        if not self._dark:
            return pen
        background = self.chart().backgroundBrush().color()
        colour = QColor(pen.color())
        while theme.contrast(colour, background) < LINE_CONTRAST and colour.lightnessF() < 1.0:
            colour = QColor.fromHslF(max(colour.hslHueF(), 0.0), colour.hslSaturationF(),
                                     min(1.0, colour.lightnessF() + 0.04))  # fmt: skip
        drawn = QPen(pen)
        drawn.setColor(colour)
        return drawn

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._follow_palette()
        super().changeEvent(event)

    def _all(self) -> list[tuple[str, QLineSeries]]:
        return [*self._segments, *self._series.items()]

    def series_names(self) -> list[str]:
        return list(dict.fromkeys(name for name, _ in self._all()))

    def point_count(self, name: str | None = None) -> int:
        """Points held by one series (all its phases), or by all series together."""
        return sum(s.count() for n, s in self._all() if name is None or n == name)

    def segment_count(self, name: str) -> int:
        """Separate lines drawn for `name`: one per phase it has points in."""
        return len(self.segment_values(name))

    def segment_values(self, name: str) -> list[list[float]]:
        """The y values of each line drawn for `name`, phase by phase."""
        return [[p.y() for p in s.points()] for n, s in self._all() if n == name and s.count()]

    def last_value(self, name: str) -> float | None:
        for n, series in reversed(self._all()):
            if n == name and series.count():
                return series.at(series.count() - 1).y()
        return None

    def pen(self, name: str) -> QPen | None:
        """The pen `name` is drawn with (the same in every phase)."""
        return self._pens.get(name)

    def phases(self) -> list[Phase]:
        return list(self._phases)

    def phase_labels(self) -> list[str]:
        """The labels shown at the phases' starts (full text; a narrow chart may elide the drawn one)."""
        labels = [label for label in self._phase_axis.categoriesLabels() if label.strip()]
        return [p.label for p, _ in zip(self._phases, labels, strict=False)]

    def drawn_phase_labels(self) -> list[str]:
        """The phase labels as drawn now (visible ones only)."""
        return [item.text() for item in self._phase_items if item.isVisible()]

    def begin_phase(self, label: str, x: float) -> None:
        """A new run starts at `x`: label it under the time axis; its lines start afresh."""
        self._segments.extend(self._series.items())
        self._series = {}
        self._phases.append(Phase(label, x, x))
        self._last_x = max(self._last_x, x)

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
        if self._phases:
            self._phases[-1].end = max(self._phases[-1].end, x)

    def refresh_axes(self) -> None:
        """Fit the axes to the visible points; call once per timer tick, after adding points."""
        right = max(self._last_x, 10.0)
        left = max(0.0, right - self.window_s)
        if self._phases and right - self._phases[0].start <= MAX_SESSION_VIEW_S:
            left = min(left, self._phases[0].start)  # a demo's phases stay in view side by side
        top = 0.0
        for _, series in self._all():
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
        self._refresh_phases(left, right)

    def _refresh_phases(self, left: float, right: float) -> None:
        """Phase boundaries as the category axis's grid lines; labels as text at each phase's start.

        A category label would be elided to its phase's width ("Triton c..."); the text items run on
        into the gap after the phase instead, up to the next phase's label.
        """
        axis = self._phase_axis
        for label in axis.categoriesLabels():
            axis.remove(label)
        categories = phase_categories(self._phases)
        axis.setVisible(bool(categories))
        if categories:
            axis.setStartValue(self._phases[0].start)
            for label, end in categories:
                axis.append(label, end)
        axis.setRange(left, right)
        self._place_phase_labels(left, right)

    def _place_phase_labels(self, left: float, right: float) -> None:
        while len(self._phase_items) < len(self._phases):
            item = QGraphicsSimpleTextItem(self.chart())
            item.setFont(self._phase_axis.labelsFont())
            item.setBrush(self._x_axis.labelsBrush())
            self._phase_items.append(item)
        plot = self.chart().plotArea()
        span = max(right - left, 1e-9)
        starts = [plot.left() + (max(p.start, left) - left) / span * plot.width() for p in self._phases]
        previous_end = plot.left()
        for i, (phase, item) in enumerate(zip(self._phases, self._phase_items, strict=False)):
            metrics = QFontMetrics(item.font())
            limit = (starts[i + 1] if i + 1 < len(starts) else plot.right()) - 4
            x = starts[i] + 3
            width = metrics.horizontalAdvance(phase.label)
            if x + width > limit:  # no room before the next phase: shift back into the gap before it
                x = max(previous_end + 8, limit - width)
            text = metrics.elidedText(phase.label, Qt.TextElideMode.ElideRight, max(0, int(limit - x)))
            item.setText(text)
            item.setPos(x, plot.top() + 2)
            item.setVisible(phase.end >= left and plot.width() > 0)
            previous_end = x + metrics.horizontalAdvance(text)
        for item in self._phase_items[len(self._phases):]:
            item.setVisible(False)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.refresh_axes()  # the plot area moved: so do the phase labels

    def clear(self) -> None:
        for series in self._series.values():
            series.clear()
        for _, series in self._segments:
            self.chart().removeSeries(series)
        self._segments.clear()
        self._phases.clear()
        self._last_x = 0.0
        self.refresh_axes()

    def _new_series(self, name: str, dashed: bool, color: QColor | None, in_legend: bool) -> QLineSeries:
        series = QLineSeries()
        series.setName(name)
        self.chart().addSeries(series)
        series.attachAxis(self._x_axis)
        series.attachAxis(self._y_axis)
        pen = self._pens.get(name)
        if pen is None:  # the first phase's style: every later phase draws `name` the same way
            pen = QPen(series.pen())
            pen.setWidthF(2.0)
            if color is not None:
                pen.setColor(color)
            if dashed:
                pen.setStyle(Qt.PenStyle.DashLine)
            self._pens[name] = pen
        else:
            in_legend = False  # named in the legend once
        series.setPen(self._drawn_pen(pen))
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
        self.utilisation = RollingChart(self.tr("CPU per server process"), self.tr("% of all cores"))
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

    def begin_phase(self, label: str, x: float) -> None:
        """A run starts: every chart labels it and starts its lines afresh."""
        for chart in self.all_charts():
            chart.begin_phase(label, x)
            chart.refresh_axes()

    def clear(self) -> None:
        for chart in self.all_charts():
            chart.clear()
