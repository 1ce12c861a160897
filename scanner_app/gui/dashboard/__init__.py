"""The stress dashboard: a Stress tab with live charts, finished runs side by side, and the demo."""

from scanner_app.gui.dashboard.dashboard import StressDashboard

__all__ = ["StressDashboard"]
