"""Which line is under a point: plain numpy, no Qt (boxes are convex quadrilaterals)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def boxes_array(boxes: Sequence[Sequence[Sequence[float]]]) -> np.ndarray:
    """Boxes as an (N, 4, 2) float array (empty input -> shape (0, 4, 2))."""
    if not boxes:
        return np.zeros((0, 4, 2), np.float64)
    return np.asarray(boxes, np.float64).reshape(len(boxes), -1, 2)


def lines_at(boxes: np.ndarray, x: float, y: float, tolerance: float = 0.0) -> np.ndarray:
    """Indices of the boxes containing (x, y), grown by ``tolerance`` pixels, smallest area first."""
    if len(boxes) == 0:
        return np.zeros(0, np.int64)
    grown = _grow(boxes, tolerance) if tolerance > 0 else boxes
    edges = np.roll(grown, -1, axis=1) - grown  # (N, K, 2)
    to_point = np.array([x, y]) - grown
    cross = edges[..., 0] * to_point[..., 1] - edges[..., 1] * to_point[..., 0]
    inside = np.all(cross >= 0, axis=1) | np.all(cross <= 0, axis=1)
    hits = np.flatnonzero(inside)
    return hits[np.argsort(_areas(boxes[hits]), kind="stable")]


def line_at(boxes: np.ndarray, x: float, y: float, tolerance: float = 0.0) -> int:
    """The smallest box containing the point, or -1."""
    hits = lines_at(boxes, x, y, tolerance)
    return int(hits[0]) if len(hits) else -1


def lines_in_rect(boxes: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> list[int]:
    """Indices of boxes whose centre lies in the rectangle (rubber-band selection)."""
    if len(boxes) == 0:
        return []
    centres = boxes.mean(axis=1)
    lo_x, hi_x = sorted((x0, x1))
    lo_y, hi_y = sorted((y0, y1))
    xs, ys = centres[:, 0], centres[:, 1]
    inside = (xs >= lo_x) & (xs <= hi_x) & (ys >= lo_y) & (ys <= hi_y)
    return [int(i) for i in np.flatnonzero(inside)]


def _areas(boxes: np.ndarray) -> np.ndarray:
    x, y = boxes[..., 0], boxes[..., 1]
    return 0.5 * np.abs(np.sum(x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y, axis=1))


def _grow(boxes: np.ndarray, amount: float) -> np.ndarray:
    """Push each corner away from the box centre by ``amount`` pixels."""
    centres = boxes.mean(axis=1, keepdims=True)
    offsets = boxes - centres
    norms = np.linalg.norm(offsets, axis=2, keepdims=True)
    return centres + offsets * (1 + amount / np.maximum(norms, 1e-9))
