"""The system's dark scheme is followed: a dark palette, and the app's meaning-carrying colours (amber
"look at this", red "failed", the connection's state) stay readable on it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from scanner_app.gui import theme
from scanner_app.gui.batch.table_model import FAILED_COLOUR
from scanner_app.gui.fields.model import FLAGGED
from scanner_app.gui.viewer.overlay import OverlayStyle


@pytest.fixture
def restored_look(qapp: QApplication) -> Iterator[QApplication]:
    """The palette and style are the application's: put them back for the next test."""
    style, palette = qapp.style().name(), QPalette(qapp.palette())
    yield qapp
    qapp.setStyle(style)
    qapp.setPalette(palette)


def _base() -> QColor:
    return QGuiApplication.palette().color(QPalette.ColorRole.Base)


def test_dark_choice_gives_a_dark_palette_with_readable_warning_colours(restored_look) -> None:
    follower = theme.ThemeFollower(restored_look, "dark")
    assert follower.dark and theme.is_dark()
    assert _base().lightnessF() < 0.2
    text = QGuiApplication.palette().color(QPalette.ColorRole.Text)
    assert theme.contrast(text, _base()) >= 7
    for colour in (QColor(*OverlayStyle().low_color), FAILED_COLOUR, QColor("#2e7d32"), QColor("#555555")):
        assert theme.contrast(colour, _base()) < theme.MIN_CONTRAST  # as defined: too dark on dark
        shown = theme.readable(colour)
        assert theme.contrast(shown, _base()) >= theme.MIN_CONTRAST
        assert colour.hslHue() == -1 or abs(shown.hslHue() - colour.hslHue()) <= 12  # still amber, red...
    flagged = theme.tinted(FLAGGED.color())
    assert flagged.lightnessF() < 0.3 and theme.contrast(text, flagged) >= theme.MIN_CONTRAST
    follower.close()


def test_light_palette_keeps_colours_that_are_already_readable(restored_look) -> None:
    assert not theme.is_dark()
    assert theme.readable(FAILED_COLOUR) == FAILED_COLOUR  # red on white has its contrast
    assert theme.tinted(FLAGGED.color()) == FLAGGED.color()
    amber = theme.readable(QColor(*OverlayStyle().low_color))
    assert theme.contrast(amber, _base()) >= theme.MIN_CONTRAST


def test_the_system_switching_to_dark_and_back_is_followed(restored_look, monkeypatch) -> None:
    """The offscreen platform reports no colour scheme, so the system's answer is given here (the
    switch itself arrives as Qt's real colorSchemeChanged signal)."""
    follower = theme.ThemeFollower(restored_look, "system")
    assert not follower.dark
    hints = QGuiApplication.styleHints()
    monkeypatch.setattr(theme, "system_is_dark", lambda started_dark=False: True)
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert follower.dark and theme.is_dark() and restored_look.style().name().lower() == "fusion"
    monkeypatch.setattr(theme, "system_is_dark", lambda started_dark=False: False)
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert not follower.dark and not theme.is_dark()
    follower.close()


def test_gui_command_offers_a_theme_choice() -> None:
    from scanner_app.gui.app import build_parser

    assert build_parser().parse_args(["--theme", "dark"]).theme == "dark"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--theme", "purple"])


def test_stress_charts_follow_the_palette_to_dark_and_back(restored_look, qtbot) -> None:
    from scanner_app.gui.dashboard.charts import LINE_CONTRAST, RollingChart

    chart = RollingChart("Throughput", "images/s")
    qtbot.addWidget(chart)
    chart.add_point("triton", 1.0, 2.0, color=QColor("#1f3a93"))  # a dark blue: fine on white
    light_background = QBrush(chart.chart().backgroundBrush())  # QtCharts' own (a gradient)
    follower = theme.ThemeFollower(restored_look, "dark")
    qtbot.waitUntil(lambda: chart.chart().backgroundBrush() == QBrush(_base()))  # on PaletteChange
    background = chart.chart().backgroundBrush().color()
    for axis in chart.chart().axes():
        assert theme.contrast(axis.labelsBrush().color(), background) >= theme.MIN_CONTRAST
    assert theme.contrast(chart.chart().titleBrush().color(), background) >= theme.MIN_CONTRAST
    line = chart.chart().series()[0].pen()
    assert theme.contrast(line.color(), background) >= LINE_CONTRAST and line.widthF() == 2.0
    chart.add_point("baseline", 2.0, 1.0, color=QColor("#8b0000"))  # a series added while dark
    assert theme.contrast(chart.chart().series()[-1].pen().color(), background) >= LINE_CONTRAST
    assert chart.pen("triton").color() == QColor("#1f3a93")  # the line's own colour is kept for light
    follower.choice = "light"
    follower.apply()
    qtbot.waitUntil(lambda: chart.chart().backgroundBrush() == light_background)
    assert chart.chart().series()[0].pen().color() == QColor("#1f3a93")
    follower.close()


def test_the_stress_tab_green_all_clear_is_readable_on_dark(restored_look, qtbot) -> None:
    import re

    from scanner_app.gui.dashboard.issues_panel import IssuesPanel

    follower = theme.ThemeFollower(restored_look, "dark")
    panel = IssuesPanel()
    qtbot.addWidget(panel)
    panel._show_counts(0, 0)  # what a clean run shows
    colour = QColor(re.search(r"color: (#[0-9a-f]{6})", panel.mismatches.styleSheet()).group(1))
    window = panel.palette().color(QPalette.ColorRole.Window)
    assert window.lightnessF() < 0.3 and theme.contrast(colour, window) >= theme.MIN_CONTRAST
    assert colour.hslHue() in range(100, 140)  # still green
    follower.close()
