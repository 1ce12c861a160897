"""Scanner-glass pages: several receipts laid on a bed, each turned a little, with their outlines.

Used by the multi-receipt test and benchmarks/multi_receipt.py. An A4 bed at 300 DPI; receipts
side by side in columns, a few millimetres apart, scaled down only when they do not fit.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

A4_300DPI = (2480, 3508)
GREY_BED = (200, 200, 200)


@dataclass(frozen=True)
class GlassPage:
    """The page and, per receipt, its outline (4 points clockwise from top-left) and scale."""

    image: Image.Image
    outlines: list[list[tuple[float, float]]]
    scales: list[float]


def fit_scale(receipt: Image.Image, columns: int, size: tuple[int, int] = A4_300DPI, gap: int = 60) -> float:
    """The scale (<= 1) at which the receipt fits one of ``columns`` columns of the bed."""
    width, height = size
    column = (width - (columns + 1) * gap) / columns
    return min(1.0, column / receipt.width, (height - 2 * gap) / receipt.height)


def lay_on_glass(
    receipts: Sequence[Image.Image],
    *,
    bed: tuple[int, int, int] = GREY_BED,
    size: tuple[int, int] = A4_300DPI,
    max_tilt: float = 4.0,
    gap: int = 60,
    seed: int = 0,
) -> GlassPage:
    """Receipts in columns on a bed, each scaled to fit and turned up to ``max_tilt`` degrees."""
    rng = random.Random(seed)
    width, height = size
    page = Image.new("RGB", size, bed)
    column = (width - (len(receipts) + 1) * gap) / len(receipts)
    outlines, scales = [], []
    for i, receipt in enumerate(receipts):
        scale = fit_scale(receipt, len(receipts), size, gap) * 0.96  # room for the tilt
        scaled = receipt.convert("RGB").resize((round(receipt.width * scale), round(receipt.height * scale)))
        tilt = rng.uniform(-max_tilt, max_tilt)
        turned = scaled.rotate(tilt, expand=True, resample=Image.Resampling.BICUBIC, fillcolor=bed)
        mask = Image.new("L", scaled.size, 255).rotate(tilt, expand=True, resample=Image.Resampling.BICUBIC)
        left = gap + i * (column + gap) + (column - turned.width) / 2
        top = gap + rng.uniform(0, max(0.0, height - 2 * gap - turned.height) * 0.3)
        page.paste(turned, (round(left), round(top)), mask)
        cx, cy = left + turned.width / 2, top + turned.height / 2
        a = math.radians(-tilt)  # PIL turns counter-clockwise; image y points down
        corners = []
        for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            x, y = dx * scaled.width / 2, dy * scaled.height / 2
            corners.append((cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)))
        outlines.append(corners)
        scales.append(scale)
    return GlassPage(page, outlines, scales)
