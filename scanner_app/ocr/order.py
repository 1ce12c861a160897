"""Reading order of detected boxes: top to bottom, left to right within a line."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def reading_order(boxes: Sequence[np.ndarray]) -> list[int]:
    """Indices of ``boxes`` in reading order.

    Boxes whose vertical centres lie within half the smaller box height of each other are one
    line; lines go top to bottom and boxes in a line left to right.
    """
    if not boxes:
        return []
    centres = [float(np.mean(b[:, 1])) for b in boxes]
    heights = [max(float(np.ptp(b[:, 1])), 1.0) for b in boxes]
    lefts = [float(np.min(b[:, 0])) for b in boxes]
    by_top = sorted(range(len(boxes)), key=lambda i: (centres[i], lefts[i]))
    lines: list[list[int]] = []
    for i in by_top:
        line = lines[-1] if lines else None
        if line is not None:
            anchor = line[-1]
            tolerance = 0.5 * min(heights[i], heights[anchor])
            if abs(centres[i] - centres[anchor]) <= tolerance:
                line.append(i)
                continue
        lines.append([i])
    return [i for line in lines for i in sorted(line, key=lambda j: lefts[j])]
