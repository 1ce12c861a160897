"""Two lines the detector saw as one: a box with a wide blank inside is parted there.

The detector sometimes runs one box over two fields printed on one row with a wide blank between
them ("TEL : 07-5547360 / 016-7993391      FAX : 07-5624059"). Within a line, words stand about a
third of the line's height apart; a blank of ``SplitParams.gap`` heights or more parts the box,
before recognition, into boxes that each reach ``SplitParams.reach`` of the blank into it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from scanner_app.ocr.params import SplitParams
from scanner_app.ocr.punctuation import ink_blobs, ink_threshold, warp_strip
from scanner_app.ocr.recognize import is_vertical


def split_at_blanks(gray: np.ndarray, boxes: Sequence[np.ndarray], params: SplitParams) -> list[np.ndarray]:
    """``boxes`` with each box that holds a wide blank replaced by its parts, in its place."""
    out: list[np.ndarray] = []
    for box in boxes:
        box = np.asarray(box, dtype=np.float32)
        cuts = [] if not params.enabled or is_vertical(box) else blank_cuts(gray, box, params)
        out.extend(_parts(box, cuts) if cuts else [box])
    return out


def blank_cuts(gray: np.ndarray, box: np.ndarray, params: SplitParams) -> list[tuple[float, float]]:
    """(end of a part, start of the next) as fractions of the box's length, one per wide blank."""
    tl, tr, _, bl = box.astype(np.float64)
    length, height = float(np.linalg.norm(tr - tl)), float(np.linalg.norm(bl - tl))
    if height < 4 or length < 2 * params.gap * height:
        return []
    threshold = ink_threshold(gray, box.astype(np.float64), params.ink_contrast)
    if threshold < 0:
        return []
    size = (max(round(length), 1), max(round(height), 1))
    target = np.array([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]], dtype=np.float32)
    patch = warp_strip(gray, box, target, size)
    top, bottom = (round(f * size[1]) for f in params.band)
    band = np.ascontiguousarray(patch[top:bottom])
    if band.size == 0:
        return []
    inked = np.zeros(size[0], dtype=bool)
    for x, _, w, _ in ink_blobs(band, threshold, params.speck * height):
        inked[x : x + w] = True
    columns = np.flatnonzero(inked)
    if columns.size < 2:
        return []
    cuts = []
    for start, end in _blank_runs(inked[columns[0] : columns[-1] + 1]):
        if end - start >= params.gap * height:
            reach = params.reach * (end - start)
            first = columns[0] + start
            cuts.append(((first + reach) / size[0], (first + end - start - reach) / size[0]))
    return cuts


def _blank_runs(inked: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) of each run of blank columns."""
    edges = np.diff(np.concatenate([[1], inked.astype(np.int8), [1]]))
    return list(zip(np.flatnonzero(edges == -1).tolist(), np.flatnonzero(edges == 1).tolist(), strict=True))


def _parts(box: np.ndarray, cuts: Sequence[tuple[float, float]]) -> list[np.ndarray]:
    """The box cut into len(cuts) + 1 parts along its length."""
    tl, tr, br, bl = box.astype(np.float64)
    bounds = [0.0] + [f for cut in cuts for f in cut] + [1.0]
    parts = []
    for a, b in zip(bounds[::2], bounds[1::2], strict=True):
        top_a, top_b = tl + a * (tr - tl), tl + b * (tr - tl)
        bottom_a, bottom_b = bl + a * (br - bl), bl + b * (br - bl)
        parts.append(np.array([top_a, top_b, bottom_b, bottom_a], dtype=np.float32))
    return parts
