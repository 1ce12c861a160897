"""One document of a page in its own upright frame, as if it had been scanned alone.

A receipt on a scanner glass lies a few degrees askew somewhere on a large page. Readers of its
lines that work with rows and page proportions (the fields' layout: "same row", "lower third",
"top 40 %") then see a wide row's label and amount at different heights, and a page many times
taller than the receipt. Turning the lines by the outline's tilt and moving them to the outline's
corner gives them the geometry the same receipt has when scanned alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

Point = tuple[float, float]


def tilt_of(outline: Sequence[Point]) -> float:
    """The outline's tilt in radians (-pi/4, pi/4]: that of its edge nearest to horizontal."""
    best: float | None = None
    for i in range(len(outline)):
        (x0, y0), (x1, y1) = outline[i], outline[(i + 1) % len(outline)]
        if x1 < x0:
            x0, y0, x1, y1 = x1, y1, x0, y0
        if x1 == x0 and y1 == y0:
            continue
        angle = math.atan2(y1 - y0, x1 - x0)  # in [-pi/2, pi/2] after the swap
        if abs(angle) <= math.pi / 4 and (best is None or abs(angle) < abs(best)):
            best = angle
    return best or 0.0


def frame_transform(outline: Sequence[Point]) -> tuple[Callable[[float, float], Point], tuple[float, float]]:
    """A map from page pixels into the outline's upright frame, and that frame's (width, height)."""
    angle = tilt_of(outline)
    c, s = math.cos(-angle), math.sin(-angle)
    cx = sum(x for x, _ in outline) / len(outline)
    cy = sum(y for _, y in outline) / len(outline)

    def turn(x: float, y: float) -> Point:
        dx, dy = x - cx, y - cy
        return (dx * c - dy * s, dx * s + dy * c)

    corners = [turn(x, y) for x, y in outline]
    left, top = min(x for x, _ in corners), min(y for _, y in corners)
    right, bottom = max(x for x, _ in corners), max(y for _, y in corners)

    def to_frame(x: float, y: float) -> Point:
        tx, ty = turn(x, y)
        return (tx - left, ty - top)

    return to_frame, (right - left, bottom - top)
