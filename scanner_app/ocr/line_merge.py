"""One line the detector cut in two: pieces of a row that overlap are read as one box.

The detector sometimes splits a line where its print thins out ("Date:" and "04/01/2018", "Tax"
and "Invoice"), and the two boxes, unclipped around each piece, reach well into each other. Read
apart, each crop holds the other's first or last letter ("Date: 0" beside "04/01/2018"). Pieces of
one row (same slant, same height, centres on one line) that both read as text and whose lengths
overlap by more than ``MergeParams.overlap`` of their height are read again as one box around both
(scanner_app.ocr.orientation.read_merged). Pieces that only touch or stand apart are left alone:
on receipts those are mostly table columns ("Qty  Price  Amount"), which annotations keep apart.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from scanner_app.ocr.detect import min_area_box
from scanner_app.ocr.params import MergeParams
from scanner_app.ocr.recognize import is_vertical


@dataclass(frozen=True)
class Frame:
    """A box seen along its own text direction."""

    centre: np.ndarray
    along: np.ndarray  # unit vector, left to right along the text
    across: np.ndarray  # unit vector, top to bottom
    height: float
    angle: float  # degrees, of ``along``


def overlapping_groups(
    boxes: Sequence[np.ndarray], params: MergeParams, among: Iterable[int] | None = None
) -> list[list[int]]:
    """Groups (two or more, ascending indices) of ``boxes`` that are overlapping pieces of one row.

    Only the indices in ``among`` (default: all) are considered; tall boxes never join a group.
    """
    if not params.enabled:
        return []
    frames = row_frames(boxes, among)
    parent = {i: i for i in frames}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    candidates = sorted(frames)
    for a, i in enumerate(candidates):
        for j in candidates[a + 1 :]:
            if _one_line(boxes[i], frames[i], boxes[j], frames[j], params):
                parent[root(j)] = root(i)
    groups: dict[int, list[int]] = {}
    for i in candidates:
        groups.setdefault(root(i), []).append(i)
    return sorted(g for g in groups.values() if len(g) > 1)


def merged_box(boxes: Sequence[np.ndarray]) -> np.ndarray:
    """One box around all of ``boxes`` (the smallest rotated rectangle)."""
    return min_area_box(np.concatenate([np.asarray(b, dtype=np.float32) for b in boxes]))


def row_frames(boxes: Sequence[np.ndarray], among: Iterable[int] | None = None) -> dict[int, Frame]:
    """Index -> frame of the boxes (those in ``among``, default all) that are not tall."""
    indices = sorted(range(len(boxes)) if among is None else set(among))
    return {i: f for i in indices if not is_vertical(boxes[i]) and (f := _frame(boxes[i])) is not None}


def same_row(a: Frame, b: Frame, params: MergeParams) -> bool:
    """Whether two boxes could be pieces of one row: one slant, one height, centres on one line."""
    if abs(a.angle - b.angle) > params.max_angle:
        return False
    if max(a.height, b.height) > params.height_ratio * min(a.height, b.height):
        return False
    height = (a.height + b.height) / 2
    return abs(float((b.centre - a.centre) @ a.across)) <= params.row_offset * height


def span(box: np.ndarray, frame: Frame) -> tuple[float, float]:
    """Where ``box`` starts and ends along ``frame``'s text direction (from its centre)."""
    along = (np.asarray(box, dtype=np.float64) - frame.centre) @ frame.along
    return float(along.min()), float(along.max())


def _frame(box: np.ndarray) -> Frame | None:
    tl, tr, br, bl = box.astype(np.float64)
    along = (tr - tl) + (br - bl)
    across = (bl - tl) + (br - tr)
    length, height = float(np.linalg.norm(along)), float(np.linalg.norm(across)) / 2
    if length < 1e-6 or height < 1:
        return None
    along = along / length
    return Frame(
        centre=box.astype(np.float64).mean(axis=0),
        along=along,
        across=np.array([-along[1], along[0]]),
        height=height,
        angle=math.degrees(math.atan2(along[1], along[0])),
    )


def _one_line(box_a: np.ndarray, a: Frame, box_b: np.ndarray, b: Frame, params: MergeParams) -> bool:
    """Whether two boxes are pieces of one row that reach into each other."""
    if not same_row(a, b, params):
        return False
    (start_a, end_a), (start_b, end_b) = span(box_a, a), span(box_b, a)
    overlap = min(end_a, end_b) - max(start_a, start_b)
    return overlap > params.overlap * (a.height + b.height) / 2
