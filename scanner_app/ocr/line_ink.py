"""Notes in another ink: lines whose colour stands apart from the page's print (a pen mark).

A clerk writes the total, a date or a name on a receipt in blue or red pen; the detector finds
those strokes like any other text, and read as lines they mix into the receipt's own text (a pen
"30.90" next to the printed total, a scribble taken for the vendor). Print is one ink per page
(thermal black, a copier's grey, a scan's slight tint); a pen is a saturated colour. Each line's ink
is the median CIELAB chroma (a*, b*) of its darker pixels; the page's print ink is the median over
all lines weighted by their ink pixels. A line is a mark when its ink lies far from the page's in
a*b* and is itself a colour (not black on a tinted page), and when marks stay a few lines and a
minority of the page's ink: a page printed in two colours is print, not notes (a fapiao's brown
form has 8-30 such lines; the pen notes on the 60 SROIE receipts are 1-3 lines a page).

Marks are not dropped: the server sends them as lines of no document (LINE_DOCUMENTS -1) and the
client keeps them apart (core.results.PageResult.marks).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class InkParams:
    """When a line's ink is not the page's print."""

    enabled: bool = True
    min_distance: float = 20.0  # a*b* distance from the page's print ink (pen ~21-33, print tints <= 16)
    min_chroma: float = 15.0  # and the line's ink is itself this colourful (black on a tinted page is print)
    ink_margin: float = 40.0  # a pixel is ink when this much darker than its line's paper (90th percentile)
    min_ink_pixels: int = 20  # fewer ink pixels: too little to tell
    min_lines: int = 3  # a page with fewer lines has no print ink to compare with
    max_share: float = 0.25  # marks are at most this share of the page's ink pixels
    max_lines: int = 4  # and at most this many lines (more in one colour: the form's own print)


def line_inks(
    image_bgr: np.ndarray, boxes: Sequence[np.ndarray], margin: float
) -> list[tuple[float, float, int]]:
    """Each box's ink as (a*, b*, ink pixel count): medians over the pixels ``margin`` darker than
    the box's paper; (0, 0, 0) for a box with no such pixels or outside the image."""
    if image_bgr.ndim != 3 or image_bgr.shape[2] != 3:
        return [(0.0, 0.0, 0) for _ in boxes]
    h, w = image_bgr.shape[:2]
    inks = []
    for box in boxes:
        pts = np.asarray(box, dtype=np.float32).reshape(-1, 2)
        x0, y0 = (max(0, int(np.floor(v))) for v in pts.min(axis=0))
        x1, y1 = min(w, int(np.ceil(pts[:, 0].max()))), min(h, int(np.ceil(pts[:, 1].max())))
        if x1 <= x0 or y1 <= y0:
            inks.append((0.0, 0.0, 0))
            continue
        crop = image_bgr[y0:y1, x0:x1]
        gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        ink = gray < np.percentile(gray, 90) - margin
        count = int(ink.sum())
        if not count:
            inks.append((0.0, 0.0, 0))
            continue
        lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
        a = float(np.median(lab[..., 1][ink])) - 128.0
        b = float(np.median(lab[..., 2][ink])) - 128.0
        inks.append((a, b, count))
    return inks


def _weighted_median(values: np.ndarray, weights: np.ndarray) -> float:
    order = np.argsort(values)
    cumulative = np.cumsum(weights[order])
    return float(values[order][np.searchsorted(cumulative, cumulative[-1] / 2.0)])


def foreign_ink(
    image_bgr: np.ndarray, boxes: Sequence[np.ndarray], params: InkParams | None = None
) -> list[bool]:
    """For each line box (image pixels), whether it is written in an ink apart from the page's print."""
    params = params or InkParams()
    none = [False] * len(boxes)
    if not params.enabled or len(boxes) < params.min_lines:
        return none
    inks = line_inks(image_bgr, boxes, params.ink_margin)
    a = np.array([i[0] for i in inks])
    b = np.array([i[1] for i in inks])
    count = np.array([i[2] for i in inks], dtype=np.float64)
    measured = count >= params.min_ink_pixels
    if measured.sum() < params.min_lines:
        return none
    page_a = _weighted_median(a[measured], count[measured])
    page_b = _weighted_median(b[measured], count[measured])
    distance = np.hypot(a - page_a, b - page_b)
    chroma = np.hypot(a, b)
    marks = measured & (distance >= params.min_distance) & (chroma >= params.min_chroma)
    if marks.sum() > params.max_lines or count[marks].sum() > params.max_share * count[measured].sum():
        return none  # that much colour is the page's own printing
    return [bool(m) for m in marks]
