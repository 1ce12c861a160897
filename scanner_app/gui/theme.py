"""The system's light or dark colour scheme, followed: a palette for it and colours readable on it.

Qt 6 reports the scheme (``QStyleHints.colorScheme``, and ``colorSchemeChanged`` when the user
switches); many Linux styles keep a light palette anyway, so on a dark scheme the app takes the
Fusion style with a dark palette. Fixed colours that carry meaning (amber "look at this", red
"failed") go through ``readable`` (text) and ``tinted`` (backgrounds), so they keep their meaning
and their contrast on either palette.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

MIN_CONTRAST = 4.5  # WCAG AA for body text
THEMES = ("system", "light", "dark")
SETTING = "ui/theme"  # "system" (default) follows the desktop; "light" / "dark" override it
_DARK = {
    QPalette.ColorRole.Window: "#2b2b2b", QPalette.ColorRole.WindowText: "#e6e6e6",
    QPalette.ColorRole.Base: "#1f1f1f", QPalette.ColorRole.AlternateBase: "#2a2a2a",
    QPalette.ColorRole.ToolTipBase: "#333333", QPalette.ColorRole.ToolTipText: "#e6e6e6",
    QPalette.ColorRole.PlaceholderText: "#8c8c8c", QPalette.ColorRole.Text: "#e6e6e6",
    QPalette.ColorRole.Button: "#353535", QPalette.ColorRole.ButtonText: "#e6e6e6",
    QPalette.ColorRole.BrightText: "#ff6e6e", QPalette.ColorRole.Light: "#4a4a4a",
    QPalette.ColorRole.Midlight: "#3e3e3e", QPalette.ColorRole.Mid: "#303030",
    QPalette.ColorRole.Dark: "#1a1a1a", QPalette.ColorRole.Shadow: "#000000",
    QPalette.ColorRole.Highlight: "#2f6fb3", QPalette.ColorRole.HighlightedText: "#ffffff",
    QPalette.ColorRole.Link: "#7fb8ff", QPalette.ColorRole.LinkVisited: "#c39bff",
}  # fmt: skip


def system_is_dark(started_dark: bool = False) -> bool:
    """True when the system asks for a dark scheme; ``started_dark`` (the platform's own palette was
    dark) where it says neither."""
    if QGuiApplication.instance() is None:
        return False
    scheme = QGuiApplication.styleHints().colorScheme()
    return scheme == Qt.ColorScheme.Dark if scheme != Qt.ColorScheme.Unknown else started_dark


def is_dark() -> bool:
    """True while the app's palette is dark (what colours must be readable on)."""
    if QGuiApplication.instance() is None:
        return False
    return QGuiApplication.palette().color(QPalette.ColorRole.Base).lightnessF() < 0.5


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, colour in _DARK.items():
        palette.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7a7a7a"))
    return palette


class ThemeFollower(QObject):
    """Applies the palette for the system's scheme now and whenever the scheme changes."""

    def __init__(self, app: QApplication, choice: str = "system") -> None:
        super().__init__(app)
        self._app = app
        self._light_style = app.style().name()
        self.choice = choice if choice in THEMES else "system"
        self._started_dark = is_dark()
        self.dark = self._started_dark
        self.apply()
        QGuiApplication.styleHints().colorSchemeChanged.connect(self._on_scheme_changed)

    def close(self) -> None:
        """Stop following the system (the palette stays as it is)."""
        QGuiApplication.styleHints().colorSchemeChanged.disconnect(self._on_scheme_changed)

    def _on_scheme_changed(self, _scheme: Qt.ColorScheme) -> None:
        self.apply()

    def apply(self) -> None:
        dark = self.choice == "dark" or (self.choice == "system" and system_is_dark(self._started_dark))
        if dark:
            self._app.setStyle("Fusion")  # draws with the palette it is given, on every platform
            self._app.setPalette(dark_palette())
        elif self.dark:  # back to light: the style and palette the app started with
            self._app.setStyle(self._light_style)
            self._app.setPalette(self._app.style().standardPalette())
        self.dark = dark


def _luminance(colour: QColor) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(v) for v in (colour.redF(), colour.greenF(), colour.blueF()))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def readable(colour: QColor, background: QColor | None = None) -> QColor:
    """``colour`` as text on ``background`` (default: the palette's base): lightened or darkened, hue
    kept, until it reaches MIN_CONTRAST."""
    base = background or QGuiApplication.palette().color(QPalette.ColorRole.Base)
    hue, saturation, lightness = colour.hslHueF(), colour.hslSaturationF(), colour.lightnessF()
    step = 0.04 if base.lightnessF() < 0.5 else -0.04
    result = QColor(colour)
    while contrast(result, base) < MIN_CONTRAST and 0.0 < lightness < 1.0:
        lightness = min(1.0, max(0.0, lightness + step))
        result = QColor.fromHslF(max(hue, 0.0), saturation, lightness)
    return result


def tinted(colour: QColor) -> QColor:
    """A background ``colour`` for the current palette: as it is on a light one, a dark shade of its hue
    on a dark one (so the palette's light text stays readable over it)."""
    if not is_dark():
        return QColor(colour)
    return QColor.fromHslF(colour.hslHueF(), min(1.0, colour.hslSaturationF() * 0.8), 0.24)
