"""Blank page detection for the back sides of duplex scans."""

from __future__ import annotations

import numpy as np
from PIL import Image

INK_LEVELS = 48  # grey levels away from the paper's own tone that count as ink
BLANK_INK_SHARE = 0.002  # at most this share of ink pixels: a blank side (scanner dust, paper grain)


def ink_share(image: Image.Image) -> float:
    """The share of pixels that differ from the page's paper tone (margins left out)."""
    small = image.convert("L")
    small.thumbnail((400, 400))  # ~50 dpi for an A4 page: enough for ink, cheap to count
    pixels = np.asarray(small, dtype=np.int16)
    h, w = pixels.shape
    my, mx = h // 20, w // 20  # edges of a sheet carry shadows, not content
    inner = pixels[my : h - my or h, mx : w - mx or w]
    if inner.size == 0:
        return 0.0
    paper = int(np.median(inner))
    return float(np.count_nonzero(np.abs(inner - paper) > INK_LEVELS)) / inner.size


def is_blank(image: Image.Image, threshold: float = BLANK_INK_SHARE) -> bool:
    """True for a side with nothing on it to read (a white back side, a uniform page)."""
    return ink_share(image) <= threshold
