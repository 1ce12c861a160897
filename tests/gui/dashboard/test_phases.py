"""Issue 14's demo, without a server: phases on the time axis, p95 against p99, the headline's call,
presentation mode and the one rate unit."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from PySide6.QtCore import Qt

from scanner_app.gui.connection.link import ServerConnection
from scanner_app.gui.dashboard import StressDashboard
from scanner_app.gui.dashboard.charts import DashboardCharts, Phase, RollingChart, phase_categories
from scanner_app.gui.dashboard.demo import DemoPanel, headline_texts
from scanner_app.gui.dashboard.feed import plot_live, plot_sample
from scanner_app.gui.dashboard.run_form import RunForm
from scanner_app.load.spread import SpeedupCall, Verdict


def _stats(throughput: float, p50: float, p95: float, p99: float) -> SimpleNamespace:
    return SimpleNamespace(throughput=throughput, completed=5, p50_ms=p50, p95_ms=p95, p99_ms=p99)


def _visible_markers(chart: RollingChart, name: str) -> int:
    return sum(1 for m in chart.chart().legend().markers() if m.isVisible() and m.label() == name)


def test_phases_are_labelled_and_no_line_joins_them(qtbot) -> None:
    charts = DashboardCharts()
    qtbot.addWidget(charts)
    charts.show()  # legend markers report visibility once shown
    charts.begin_phase("baseline c=4", 0.0)
    for x in (1.0, 2.0, 3.0):
        plot_live(charts, x, _stats(0.5, 2000, 2100, 2200))
    charts.begin_phase("Triton c=4 · dyn-batching off · 2 inst", 10.0)
    for x in (11.0, 12.0):
        plot_live(charts, x, _stats(1.5, 900, 1000, 1100))
    latency = charts.latency
    qtbot.waitUntil(lambda: _visible_markers(latency, "p99") > 0)  # the legend lays itself out
    assert latency.phase_labels() == ["baseline c=4", "Triton c=4 · dyn-batching off · 2 inst"]
    for name in ("p50", "p95", "p99"):
        assert latency.segment_count(name) == 2  # one line per phase: nothing drawn across the gap
        assert latency.point_count(name) == 5
        assert _visible_markers(latency, name) == 1  # named once in the legend
    p95, p99 = latency.pen("p95"), latency.pen("p99")
    assert p95 is not None and p99 is not None
    assert p95.color() != p99.color() and p95.style() != p99.style()  # p95 never hides under p99
    assert latency.last_value("p99") == 1100
    assert [p.label for p in latency.phases()] == ["baseline c=4", "Triton c=4 · dyn-batching off · 2 inst"]
    # Drawn at each phase's start, not elided to the phase's width: a label runs on into the gap.
    charts.resize(1500, 700)
    qtbot.waitUntil(lambda: latency.drawn_phase_labels()[:1] == ["baseline c=4"])
    assert latency.drawn_phase_labels()[1].startswith("Triton c=4")
    charts.clear()
    assert latency.point_count() == 0 and latency.phase_labels() == []


def test_phase_categories_leave_blank_gaps_with_distinct_labels() -> None:
    phases = [Phase("a", 0.0, 5.0), Phase("b", 9.0, 12.0), Phase("a", 12.0, 15.0)]
    assert phase_categories(phases) == [("a", 5.0), ("  ", 9.0), ("b", 12.0), ("a ", 15.0)]
    assert phase_categories([]) == []


def test_triton_s_own_cpu_is_charted_beside_the_baseline_s(qtbot) -> None:
    charts = DashboardCharts()
    qtbot.addWidget(charts)
    sample = SimpleNamespace(models={}, utilisation=("CPU", 48.0), process_cpu=(("Triton", 0.5),))
    plot_sample(charts, 1.0, sample, "baseline")
    assert charts.utilisation.last_value("baseline CPU %") == 48.0
    assert charts.utilisation.last_value("Triton CPU %") == 0.5


def _call(verdict: Verdict, ratio: float | None = 1.5, low: float | None = 1.2, high: float | None = 1.8):
    return SpeedupCall(ratio, low, high, verdict, 9, 6, 3, 3)


@pytest.mark.parametrize(
    ("verdict", "headline", "in_detail"),
    [
        (Verdict.TOO_SHORT, "Too short to call", "9 Triton vs 6 baseline responses"),
        (Verdict.UNCLEAR, "No clear difference", "includes 1.0"),
        (Verdict.FASTER, "Triton 1.5x", "95 % interval 1.20-1.80"),
        (Verdict.SLOWER, "Triton 1.5x", "(slower here)"),
    ],
)
def test_the_headline_says_how_sure_it_is(qtbot, verdict: Verdict, headline: str, in_detail: str) -> None:
    panel = DemoPanel()
    qtbot.addWidget(panel)
    head, detail = headline_texts(_call(verdict))
    assert head == headline
    assert in_detail in detail
    none_head, _ = headline_texts(_call(Verdict.NO_REFERENCE, None, None, None))
    assert none_head == "n/a"


def test_presentation_mode_opens_from_the_demo_and_says_when_it_cannot_start(qtbot) -> None:
    connection = ServerConnection(urls=["127.0.0.1:9"], start_embedded_if_unconfigured=False)
    dashboard = StressDashboard(connection)
    qtbot.addWidget(dashboard)
    try:
        qtbot.mouseClick(dashboard.demo.present_button, Qt.MouseButton.LeftButton)
        window = dashboard.presentation
        assert window is not None and window.isVisible()
        assert set(window.panels) == {"baseline", "pipeline"}
        assert window.headline.font().pointSizeF() > dashboard.demo.detail.font().pointSizeF() * 2
        assert "concurrency 4" in window.settings.text()
        assert not window.start()  # no ready server: one click, and it says why
        assert window.headline.text() == "Could not start"
        assert "ready Triton server" in window.detail.text()
        assert window.start_button.isEnabled()
    finally:
        dashboard.shutdown()
        connection.shutdown()


def test_the_stress_tab_uses_the_app_s_rate_unit(qtbot) -> None:
    form = RunForm()
    qtbot.addWidget(form)
    assert form.rate.suffix() == " images/s"
    assert "req/s" not in form.rate.suffix()
