"""The one rate unit of the app's summaries (batch, watched folder, stress runs): images per second."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def rate_text(images_per_s: float) -> str:
    """``2.50 images/s`` in the UI language (each page sent counts as one image, as the CLI counts)."""
    return QCoreApplication.translate("Units", "{0:.2f} images/s").format(images_per_s)
