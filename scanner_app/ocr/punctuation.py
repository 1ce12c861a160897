"""A colon the detector dropped: find it just past a line's end (or just before its start).

Receipts often print a label's colon in an aligned column after a gap (``SALESPERSON    :``) or
start a value with one (``: CS00004040``); DB's probability map is ~0 on such an isolated colon,
so no box reaches it. ``colon_extension`` looks along the line's text direction, within about a
line height of its box (``ColonParams.gap``), for the first ink there; when that ink is two small
blobs stacked inside the line's band (a colon) with nothing else level with them, and no other box
of the row is as near (or holds them), it returns the box extended over them. The line then reads
``:`` there when the recogniser reads it in the extended crop, or reads nothing new there
(``colon_reading``; the hook is ``ocr.orientation.read_colons``). A colon that is the line's last ink
inside its own box, which the recogniser skipped, is found too (``ColonExtension.inside``; the box
stays). All sizes are fractions of the box's height.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from scanner_app.ocr.params import ColonParams
from scanner_app.ocr.recognize import is_vertical


@dataclass(frozen=True)
class ColonExtension:
    """A line's box extended over the colon found at one of its ends."""

    box: np.ndarray
    trailing: bool  # True: past the line's end; False: before its start
    gap: float  # the distance from the box to the colon, in pixels
    centre: tuple[float, float]  # the colon's centre, in page pixels
    spaced: bool  # the colon stands a space's width (ColonParams.space_gap) from the line's ink
    inside: bool = False  # the colon is the last ink inside the box (which stays as it is)


def colon_extensions(
    gray: np.ndarray,
    boxes: Sequence[np.ndarray],
    params: ColonParams,
    texts: Sequence[str] | None = None,
) -> dict[int, ColonExtension]:
    """Line index -> its box extended over a dropped colon, for the lines that have one.

    With ``texts`` (each box's reading), a line read as nothing is skipped, and so is the end
    where it already reads a colon. A colon two lines could claim (one's end, the next one's
    start) goes to the nearer.
    """
    found: dict[int, ColonExtension] = {}
    for index in range(len(boxes)):
        text = texts[index].strip() if texts is not None else None
        if text == "":
            continue
        ends = [True, False] if params.leading else [True]
        ends = [
            end for end in ends if text is None or not (text.endswith(":") if end else text.startswith(":"))
        ]
        if not ends:
            continue
        threshold = ink_threshold(gray, np.asarray(boxes[index], np.float64), params.ink_contrast)
        options = [
            ext for end in ends if (ext := colon_extension(gray, boxes, index, end, params, threshold))
        ]
        if options:
            found[index] = min(options, key=lambda ext: ext.gap)
    return _one_owner(found)


def colon_extension(
    gray: np.ndarray,
    boxes: Sequence[np.ndarray],
    index: int,
    trailing: bool,
    params: ColonParams,
    threshold: float | None = None,
) -> ColonExtension | None:
    """The box ``boxes[index]`` extended over a colon at its end (``trailing``) or start, or None.

    ``threshold``: the line's ink grey (``ink_threshold``), when the caller has it already.
    """
    box = np.asarray(boxes[index], dtype=np.float64)
    if is_vertical(box):  # pages are upright by now: a tall box is a stray mark, not a label
        return None
    tl, tr, br, bl = box
    height = float(np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2
    along = (tr - tl) + (br - bl)
    if height < 4 or np.linalg.norm(along) < 1:
        return None
    along = along / np.linalg.norm(along)
    reach = float(max(round(params.gap * height), 1))  # whole pixels: the strip is sampled 1:1
    # The strip beyond the box's end, as a patch whose column 0 touches the box.
    start_top, start_bottom = (tr, br) if trailing else (tl, bl)
    step = along if trailing else -along
    quad = np.array([start_top, start_top + reach * step, start_bottom + reach * step, start_bottom])
    patch_w, patch_h = int(reach), max(int(height + 0.5), 1)
    target = np.array([[0, 0], [patch_w, 0], [patch_w, patch_h], [0, patch_h]], dtype=np.float32)
    patch = warp_strip(gray, quad, target, (patch_w, patch_h))
    threshold = ink_threshold(gray, box, params.ink_contrast) if threshold is None else threshold
    back = reach * step
    inner = np.array([start_top - back, start_top, start_bottom, start_bottom - back])
    dots = _colon_in(patch, threshold, height, params)
    if dots is None:
        return _colon_inside(
            gray, box, inner, target, (patch_w, patch_h), threshold, height, trailing, params
        )
    near, far = dots  # columns of the colon's ends, from the box
    centre = _strip_point(quad, (near + far) / 2 / patch_w)
    if _nearer_other(boxes, index, np.asarray(centre), along, (near + far) / 2):
        return None
    end = (far + params.pad * height) * step
    extended = np.array([tl, tr + end, br + end, bl] if trailing else [tl + end, tr, br, bl + end])
    inside = _ink_depth(gray, inner, target, (patch_w, patch_h), threshold, params.speck * height)
    return ColonExtension(
        box=extended.astype(np.float32),
        trailing=trailing,
        gap=float(near),
        centre=centre,
        spaced=bool(inside + near >= params.space_gap * height),
    )


def _colon_inside(
    gray: np.ndarray,
    box: np.ndarray,
    inner: np.ndarray,
    target: np.ndarray,
    size: tuple[int, int],
    threshold: float,
    height: float,
    trailing: bool,
    params: ColonParams,
) -> ColonExtension | None:
    """The colon that is the line's last ink inside the box's end (the strip ``inner``), if any.

    Nothing may lie between it and the box's end, and the line's ink resumes within
    ``ColonParams.inside_gap`` of it (a mark far from the text is not the line's colon).
    """
    flipped = np.ascontiguousarray(
        warp_strip(gray, inner, target, size)[:, ::-1]
    )  # column 0 at the box's end
    dots = _colon_in(flipped, threshold, height, params)
    if dots is None:
        return None
    near, far = dots
    blobs = ink_blobs(flipped, threshold, params.speck * height)
    pair = [b for b in blobs if near <= b[0] and b[0] + b[2] <= far]
    if len(pair) != 2 or not _two_dots(*sorted(pair, key=lambda b: b[1])):
        return None
    top, bottom = min(b[1] for b in pair), max(b[1] + b[3] for b in pair)
    level = [b for b in blobs if b not in pair and b[1] < bottom and top < b[1] + b[3]]  # the line's own row
    if any(b[0] < near for b in level):  # ink past the colon, towards the box's end
        return None
    rest = [b[0] - far for b in level]
    if not rest or min(rest) > params.inside_gap * height:  # no line next to it
        return None
    centre = _strip_point(inner, 1.0 - (near + far) / 2 / size[0])
    return ColonExtension(
        box=box.astype(np.float32),
        trailing=trailing,
        gap=0.0,
        centre=centre,
        spaced=bool(min(rest) >= params.space_gap * height),
        inside=True,
    )


def _two_dots(upper: tuple[int, ...], lower: tuple[int, ...]) -> bool:
    """Whether two blobs (x, y, w, h) look like a colon's dots, not a broken stroke or a dot and a speck."""
    small, large = sorted((upper[2] * upper[3], lower[2] * lower[3]))
    return large <= 3 * small and lower[1] - (upper[1] + upper[3]) >= 0.5 * max(upper[3], lower[3])


def colon_reading(line: str, extended: str, ext: ColonExtension) -> str | None:
    """The line's text with the colon ``ext`` found, or None to keep the line as it was read.

    The extended crop's reading is taken when it is the line plus ``:`` (and at most one space) at
    that end. When it is the line again (give or take a space there), the recogniser has dropped
    the isolated colon once more, and the two dots found stand for it: spaced as measured, after a
    line that ends like a label (a letter, ``)`` or ``.``) or before one that starts with a letter
    (a value such as ``: CS00004040``); digits next to the dots may be a time or a ratio instead.
    """
    if not line.strip():
        return None
    if ext.trailing:
        if line.endswith(":"):
            return None
        if extended in (line + ":", line + " :"):
            return extended
        if extended.rstrip() == line.rstrip() and (line[-1].isalpha() or line[-1] in ")."):
            return line.rstrip() + (" :" if ext.spaced else ":")
        return None
    if line.startswith(":"):
        return None
    if extended in (":" + line, ": " + line):
        return extended
    if extended.lstrip() == line.lstrip() and line.lstrip()[:1].isalpha():
        return (": " if ext.spaced else ":") + line.lstrip()
    return None


def ink_threshold(gray: np.ndarray, box: np.ndarray, contrast: float) -> float:
    """The grey below which a pixel is ink: ``contrast`` of the way from the line's paper to its ink.

    Paper and ink are the line's own (its bounding rectangle's 90th and 2nd percentiles), so a
    colon printed fainter than the letters still counts; -1 where the line has no contrast.
    """
    x0, y0 = np.floor(box.min(axis=0)).astype(int)
    x1, y1 = np.ceil(box.max(axis=0)).astype(int)
    region = gray[max(y0, 0) : max(y1, 0) + 1, max(x0, 0) : max(x1, 0) + 1]
    if region.size < 4:
        return -1.0
    ink, paper = np.percentile(region[::2, ::2], [2, 90])  # every 4th pixel is plenty
    if paper - ink < 32:
        return -1.0
    return float(paper - contrast * (paper - ink))


def _colon_in(
    patch: np.ndarray, threshold: float, height: float, params: ColonParams
) -> tuple[float, float] | None:
    """(near, far) columns of a colon that is the first ink in the patch, or None."""
    if threshold < 0:
        return None
    ink = (patch < threshold).astype(np.uint8)
    count, _, stats, centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
    speck = params.speck * height
    blobs = []
    for label in range(1, count):
        x, y, w, h, _area = stats[label]
        if x == 0:  # the line's own ink running over its box: not past it
            continue
        if w < speck and h < speck:
            continue
        blobs.append((int(x), int(y), int(w), int(h), float(centroids[label][0]), float(centroids[label][1])))
    if len(blobs) < 2:
        return None
    blobs.sort(key=lambda b: b[0])
    first = blobs[0]
    # The colon's two dots: the first blob and the one overlapping it most in the line's direction.
    pair = [b for b in blobs[1:] if b[0] < first[0] + first[2] and first[0] < b[0] + b[2]]
    if len(pair) != 1:
        return None
    a, b = sorted([first, pair[0]], key=lambda blob: blob[5])
    others = [blob for blob in blobs if blob is not a and blob is not b]
    right = max(a[0] + a[2], b[0] + b[2])
    if any(blob[0] < right for blob in others):  # more ink level with the colon: a letter, not a colon
        return None
    lo, hi = params.dot_min * height, params.dot_max * height
    for _, y, w, h, _, _ in (a, b):
        if not (lo <= w <= hi and lo <= h <= hi) or y == 0 or y + h >= patch.shape[0]:
            return None
    spacing = b[5] - a[5]
    if not (params.dot_spacing[0] * height <= spacing <= params.dot_spacing[1] * height):
        return None
    if abs(a[4] - b[4]) > params.dot_offset * height:
        return None
    if a[5] > 0.6 * height or b[5] < 0.4 * height:  # one dot above the band's middle, one below
        return None
    return float(min(a[0], b[0])), float(right)


def _ink_depth(
    gray: np.ndarray,
    quad: np.ndarray,
    target: np.ndarray,
    size: tuple[int, int],
    threshold: float,
    speck: float,
) -> float:
    """How far inside the box's end (the strip ``quad``, its last column at the end) its last ink lies."""
    ends = [x + w for x, _, w, _ in ink_blobs(warp_strip(gray, quad, target, size), threshold, speck)]
    return float(size[0] - max(ends)) if ends else float(size[0])


def warp_strip(gray: np.ndarray, quad: np.ndarray, target: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The strip ``quad`` of the page, sampled 1:1 onto ``target`` (its corners in a ``size`` patch)."""
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    return cv2.warpPerspective(gray, matrix, size, flags=cv2.INTER_NEAREST, borderValue=255)


def ink_blobs(patch: np.ndarray, threshold: float, speck: float) -> list[tuple[int, int, int, int]]:
    """(x, y, w, h) of the patch's ink blobs that are not specks (smaller than ``speck`` both ways)."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(
        (patch < threshold).astype(np.uint8), connectivity=8
    )
    return [(int(x), int(y), int(w), int(h)) for x, y, w, h, _ in stats[1:count] if w >= speck or h >= speck]


def _strip_point(quad: np.ndarray, fraction: float) -> tuple[float, float]:
    """The point ``fraction`` along the strip ``quad``, at mid-height, in page pixels."""
    centre = (quad[0] + (quad[1] - quad[0]) * fraction + quad[3] + (quad[2] - quad[3]) * fraction) / 2
    return float(centre[0]), float(centre[1])


def _nearer_other(
    boxes: Sequence[np.ndarray], index: int, point: np.ndarray, along: np.ndarray, distance: float
) -> bool:
    """True when another box of the same row is as near ``point`` along the line (or holds it).

    A colon between a label and its value belongs to the nearer of the two, whether or not the
    other one reaches it (``TOTAL SALES :   327.00``: the label's box ends just before the colon).
    """
    across = np.array([-along[1], along[0]])
    for other, box in enumerate(boxes):
        if other == index:
            continue
        corners = np.asarray(box, np.float64) - point
        side, ahead = corners @ across, corners @ along
        if side.min() > 0 or side.max() < 0:  # not in this row
            continue
        if ahead.min() <= 0 <= ahead.max() or min(abs(ahead.min()), abs(ahead.max())) <= distance:
            return True
    return False


def _one_owner(found: dict[int, ColonExtension]) -> dict[int, ColonExtension]:
    """Where two lines reach over the same colon (centres within a pixel), the nearer one keeps it."""
    kept: dict[int, ColonExtension] = {}
    for index, ext in sorted(found.items(), key=lambda item: item[1].gap):
        if all(
            np.hypot(ext.centre[0] - k.centre[0], ext.centre[1] - k.centre[1]) > 1.0 for k in kept.values()
        ):
            kept[index] = ext
    return kept
