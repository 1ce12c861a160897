"""Pieces of one line joined by a dotted leader: ``TOTAL AMT................. RM``.

Receipts print a label, a run of dots and a value or currency on one line. The dots are small and
often faint, so DB's probability map breaks on them: the detector returns ``TOTAL AMT....`` and
``RM`` a blank apart, or ``CASH.`` and ``.. RM``. Table columns stand a blank apart too, so a
blank alone does not join two pieces (ocr.line_merge leaves them apart). Two pieces of one row are
one line across a leader when the left one reads as ending in dots or the right one as starting
with them, and the page between them holds only dots: small blobs in the lower half of the line,
with no stretch of paper wider than ``MergeParams.leader_space`` line heights. The recogniser reads
a long run of dots as two or three, so the joined line is not read again: its text is the pieces'
words with the dots counted on the page between them, and its box is the box around both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scanner_app.ocr.line_merge import Frame, merged_box, row_frames, same_row, span
from scanner_app.ocr.params import MergeParams
from scanner_app.ocr.punctuation import ink_blobs, ink_threshold, warp_strip

DOTS = ".·…"  # what the recogniser reads a leader's dots as
MIN_DOTS = 2  # a single full stop ends a word ("CASH."); it takes two to start a leader


@dataclass(frozen=True)
class Leader:
    """Two pieces of a row and the run of dots that joins them."""

    left: int
    right: int
    dots: int  # the dots counted on the page, from the left piece's last letter to the right's first
    space_before: bool  # a word space between the left piece's last letter and the first dot
    space_after: bool  # and between the last dot and the right piece's first letter
    gap: float  # the blank between the two boxes, in pixels (negative: they overlap)


def find_leaders(
    gray: np.ndarray,
    boxes: Sequence[np.ndarray],
    texts: Sequence[str],
    params: MergeParams,
) -> list[Leader]:
    """The leaders between pieces of ``boxes`` (each piece's reading in ``texts``; "" for none).

    A piece joins at most one piece on each side: its nearest to the right within
    ``leader_reach`` line heights.
    """
    if not (params.enabled and params.leader):
        return []
    frames = row_frames(boxes, [i for i, text in enumerate(texts) if text.strip()])
    found: dict[int, Leader] = {}  # right piece -> its leader
    for i in frames:
        nearest = _next_in_row(boxes, frames, i, params)
        if nearest is None:
            continue
        j, gap = nearest
        ends_in_dots = _dot_count(texts[i].rstrip()[::-1]) >= MIN_DOTS
        if not (ends_in_dots or _dot_count(texts[j].lstrip()) >= MIN_DOTS):
            continue
        leader = _leader_between(gray, boxes, frames, i, j, gap, params)
        if leader is not None and (j not in found or found[j].gap > gap):
            found[j] = leader
    return sorted(found.values(), key=lambda leader: leader.left)


def join_leaders(
    gray: np.ndarray,
    boxes: Sequence[np.ndarray],
    decoded: dict[int, tuple[str, float]],
    params: MergeParams,
    drop_score: float,
) -> tuple[list[np.ndarray], dict[int, tuple[str, float]]]:
    """``boxes`` and their readings with the pieces of each leader's line made one line.

    Pieces that read below ``drop_score`` take no part. A chain (``SUB TOTAL.... RM .... 5.00``)
    becomes one line. Returns the boxes and readings renumbered, a joined line in its first
    piece's place; its score is its pieces' lowest.
    """
    texts = [decoded[i][0] if decoded[i][1] >= drop_score else "" for i in range(len(boxes))]
    leaders = {leader.left: leader for leader in find_leaders(gray, boxes, texts, params)}
    if not leaders:
        return list(boxes), decoded
    heads = set(leaders) - {leader.right for leader in leaders.values()}
    joined: dict[int, tuple[np.ndarray, tuple[str, float]]] = {}
    dropped: set[int] = set()
    for head in sorted(heads):
        chain, text, score = [head], decoded[head][0], decoded[head][1]
        while chain[-1] in leaders:
            leader = leaders[chain[-1]]
            text = joined_text(text, decoded[leader.right][0], leader)
            score = min(score, decoded[leader.right][1])
            chain.append(leader.right)
        joined[head] = (merged_box([boxes[i] for i in chain]), (text, score))
        dropped.update(chain[1:])
    kept = [i for i in range(len(boxes)) if i not in dropped]
    new_boxes = [joined[i][0] if i in joined else boxes[i] for i in kept]
    new_decoded = {n: joined[i][1] if i in joined else decoded[i] for n, i in enumerate(kept)}
    return new_boxes, new_decoded


def joined_text(left: str, right: str, leader: Leader) -> str:
    """The two pieces' words with the leader's counted dots between them.

    The spaces around the dots are the page's (``Leader.space_before``/``after``): the recogniser
    reads them no better than the dots (``..RM`` for ``.. RM``).
    """
    head, tail = left.rstrip().rstrip(DOTS).rstrip(), right.lstrip().lstrip(DOTS).lstrip()
    before = " " if leader.space_before and head else ""
    after = " " if leader.space_after and tail else ""
    return f"{head}{before}{'.' * leader.dots}{after}{tail}"


def _dot_count(text: str) -> int:
    """How many leader dots ``text`` starts with (an ellipsis counts as three)."""
    count = 0
    for char in text:
        if char not in DOTS:
            break
        count += 3 if char == "…" else 1
    return count


def _next_in_row(
    boxes: Sequence[np.ndarray], frames: dict[int, Frame], index: int, params: MergeParams
) -> tuple[int, float] | None:
    """The nearest piece of the same row that starts past ``index``'s end, with the blank between."""
    a = frames[index]
    start, end = span(boxes[index], a)
    best: tuple[int, float] | None = None
    for j, b in frames.items():
        if j == index or not same_row(a, b, params):
            continue
        other_start, other_end = span(boxes[j], a)
        if other_end <= end or other_start <= start:  # not to the right of this piece
            continue
        gap = other_start - end
        if gap <= params.leader_reach * (a.height + b.height) / 2 and (best is None or gap < best[1]):
            best = (j, gap)
    return best


def _leader_between(
    gray: np.ndarray,
    boxes: Sequence[np.ndarray],
    frames: dict[int, Frame],
    left: int,
    right: int,
    gap: float,
    params: MergeParams,
) -> Leader | None:
    """The leader from ``left``'s last letter to ``right``'s first, or None where there is none.

    The row is sampled as one strip from the left box's start to the right box's end; its ink blobs
    in the blank between the boxes must all be dots, and the dots around the blank are counted.
    """
    a, b = frames[left], frames[right]
    height = (a.height + b.height) / 2
    (start, left_end), (right_start, end) = span(boxes[left], a), span(boxes[right], a)
    width, rows = round(end - start), max(round(height), 1)
    half = a.across * height / 2
    middle = a.centre + a.across * float((b.centre - a.centre) @ a.across) / 2  # between the two rows
    quad = np.array([
        middle + a.along * start - half, middle + a.along * end - half,
        middle + a.along * end + half, middle + a.along * start + half,
    ])  # fmt: skip
    threshold = ink_threshold(gray, quad, params.leader_contrast)
    if threshold < 0 or width < 2:  # no contrast on the line: nothing can be told
        return None
    target = np.array([[0, 0], [width, 0], [width, rows], [0, rows]], dtype=np.float32)
    strip = warp_strip(gray, quad, target, (width, rows))
    blobs = sorted(ink_blobs(strip, threshold, params.leader_speck * height))
    limit = params.leader_dot * height
    dots = [w <= limit and h <= limit and y + h / 2 >= rows / 2 for _x, y, w, h in blobs]
    blank = (left_end - start, right_start - start)  # in the strip's columns
    inside = [k for k, (x, _y, w, _h) in enumerate(blobs) if blank[0] < x + w / 2 < blank[1]]
    if gap > params.leader_touch * height:
        if not inside or not all(dots[k] for k in inside):
            return None
        edges = [blank[0], *[x for k in inside for x in (blobs[k][0], _right_edge(blobs[k]))], blank[1]]
        stretches = zip(edges[::2], edges[1::2], strict=True)  # the paper between the blobs
        if any(later - earlier > params.leader_space * height for earlier, later in stretches):
            return None
    junction, space = (blank[0] + blank[1]) / 2, params.leader_space * height
    near = [k for k, (x, _y, w, _h) in enumerate(blobs) if abs(x + w / 2 - junction) <= space]
    seeds = [k for k in inside or near if dots[k]]
    if not seeds:
        return None
    first, last = min(seeds), max(seeds)
    while first > 0 and dots[first - 1] and blobs[first][0] - _right_edge(blobs[first - 1]) <= space:
        first -= 1
    while last < len(blobs) - 1 and dots[last + 1] and blobs[last + 1][0] - _right_edge(blobs[last]) <= space:
        last += 1
    if last - first + 1 < MIN_DOTS:
        return None
    pitch = [blobs[k + 1][0] - _right_edge(blobs[k]) for k in range(first, last)]
    word_space = max(params.leader_word_space * height, 1.5 * float(np.median(pitch)))
    # The ink nearest the dots on each side: blobs are in order of their left edges, and a letter
    # may end past a speck that starts after it.
    ink_before, ink_after = blobs[:first], blobs[last + 1 :]
    before = bool(ink_before) and blobs[first][0] - max(map(_right_edge, ink_before)) > word_space
    after = bool(ink_after) and min(b[0] for b in ink_after) - _right_edge(blobs[last]) > word_space
    return Leader(left, right, last - first + 1, before, after, gap)


def _right_edge(blob: tuple[int, int, int, int]) -> int:
    return blob[0] + blob[2]
