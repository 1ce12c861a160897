"""The page viewer: canvas, overlay drawing, hit-testing."""

from scanner_app.gui.viewer.canvas import PageCanvas
from scanner_app.gui.viewer.panel import ViewerPanel

__all__ = ["PageCanvas", "ViewerPanel"]
