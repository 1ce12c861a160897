"""What a batch stores for one page: its own PDF text layer's lines, or the server's answer in the
page's own pixels; and how a failure names its file."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from scanner_app.core import images
from scanner_app.core.results import PageResult


def failure_cause(path: Path, exc: BaseException) -> str:
    """The exception's message, with the file's name in front unless the message names the file."""
    text = str(exc) or type(exc).__name__
    return text if str(path) in text else f"{path.name}: {text}"


def text_layer_result(page: images.Page) -> PageResult | None:
    """The page's result from its own PDF text layer when that is real text, else None (OCR it)."""
    layer = page.text_layer
    if layer is None or not layer.usable:
        return None
    width, height = page.image.size
    lines, turn = layer.lines, layer.orientation
    exact = page.exact_fields  # an e-invoice's own field values (core.einvoice.pages)
    return PageResult(
        page.name, width, height, lines, orientation=turn, source="text-layer", exact_fields=exact
    )


def in_page_pixels(result: PageResult, scale: float, page: images.Page) -> PageResult:
    """The result for an encoded page with boxes and size in the page's own pixels."""
    width, height = page.image.size
    return replace(result.rescaled(scale), image=page.name, width=width, height=height)
