"""Document edge detection and perspective correction for camera frames (numpy + OpenCV, no Qt).

``find_document_quad`` looks for the paper's outline on a downscaled copy of the frame (fast enough
for a live preview), ``flatten_document`` warps the quad to an upright rectangle of the paper's own
aspect, and ``scan_document`` does both. Enhancement is off by default: OCR reads the plain pixels best.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scanner_app.contract import MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE

DETECT_LONG_SIDE = 640  # quads are searched on a copy of the frame this long (or smaller)
MIN_INPUT_SIDE = 32  # smaller images have no document to find
MIN_AREA_FRACTION = 0.08  # a document covers at least this much of the frame
MAX_AREA_FRACTION = 0.98  # ... and less than this (the whole frame is no document edge)
MIN_CORNER_ANGLE = 35.0  # degrees; perspective makes corners less square, but not this much
MIN_FILL = 0.85  # the outline's area / the quad's area
MIN_CONTRAST = 2.0  # grey-level standard deviation below which a frame is blank
TYPICAL_FOCAL = 0.85  # focal length / the image's long side: ~65 degrees across, a phone or webcam
FOCAL_RANGE = (0.3, 4.0)  # focal lengths (same unit) believed when the corners imply one
NEAR_SQUARE = 0.85  # a quad this close to square may come out either way round


@dataclass(frozen=True)
class ScanResult:
    """A scanned frame: ``image`` is BGR, ``quad`` the document's corners in the frame (or None)."""

    image: np.ndarray
    quad: np.ndarray | None
    flattened: bool


def _grey(image: np.ndarray) -> np.ndarray | None:
    """The image as 8-bit grey, or None when it is not an image array."""
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        return None
    if image.dtype != np.uint8:
        if image.dtype == np.uint16:
            image = (image >> 8).astype(np.uint8)
        elif np.issubdtype(image.dtype, np.floating):
            image = np.clip(image * (255.0 if float(image.max(initial=0)) <= 1.0 else 1.0), 0, 255)
            image = image.astype(np.uint8)
        else:
            return None
    if image.ndim == 2:
        return image
    channels = image.shape[2]
    if channels == 1:
        return image[:, :, 0]
    if channels == 3:
        return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if channels == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)
    return None


def order_corners(points: np.ndarray) -> np.ndarray:
    """Four points clockwise (on screen) from top-left; the top edge is the one closest to pointing right."""
    pts = np.asarray(points, dtype=np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # y points down, so increasing angle is clockwise on screen

    def top_edge_tilt(start: int) -> float:
        dx, dy = pts[(start + 1) % 4] - pts[start]
        return abs(float(np.arctan2(dy, dx)))

    start = min(range(4), key=top_edge_tilt)
    return np.roll(pts, -start, axis=0).astype(np.float32)


def _corner_angles(quad: np.ndarray) -> list[float]:
    angles = []
    for i in range(4):
        a, b, c = quad[i - 1], quad[i], quad[(i + 1) % 4]
        u, v = a - b, c - b
        cos = float(np.dot(u, v) / (np.linalg.norm(u) * np.linalg.norm(v) + 1e-9))
        angles.append(float(np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))))
    return angles


def _plausible(quad: np.ndarray, contour_area: float, shape: tuple[int, ...], min_fraction: float) -> bool:
    """A convex, roughly rectangular quad of a sensible size that the outline fills."""
    height, width = shape
    area = float(cv2.contourArea(quad))
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2).astype(np.float32)):
        return False
    if not min_fraction * width * height <= area <= MAX_AREA_FRACTION * width * height:
        return False
    if not MIN_FILL <= contour_area / max(area, 1.0) <= 1.0 / MIN_FILL:
        return False
    if min(_corner_angles(quad)) < MIN_CORNER_ANGLE:
        return False
    on_border = (quad[:, 0] <= 1) | (quad[:, 0] >= width - 2) | (quad[:, 1] <= 1) | (quad[:, 1] >= height - 2)
    return int(on_border.sum()) < 3  # three corners on the frame's border: that is the frame


def _quad_of(contour: np.ndarray) -> np.ndarray | None:
    """The outline simplified to four corners, when it simplifies that far."""
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for fraction in (0.015, 0.02, 0.03, 0.045, 0.06):
        approx = cv2.approxPolyDP(hull, fraction * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
        if len(approx) < 4:
            return None
    return None


def _edge_support(quad: np.ndarray, edges: np.ndarray, samples: int = 48) -> float:
    """The share of points along the quad's sides that lie on edge pixels."""
    t = np.linspace(0.03, 0.97, samples)[:, None]
    points = np.concatenate([quad[i] + t * (quad[(i + 1) % 4] - quad[i]) for i in range(4)])
    x = np.clip(np.round(points[:, 0]).astype(int), 0, edges.shape[1] - 1)
    y = np.clip(np.round(points[:, 1]).astype(int), 0, edges.shape[0] - 1)
    return float((edges[y, x] > 0).mean())


def _edge_maps(small: np.ndarray) -> list[tuple[np.ndarray, int]]:
    """Binary maps whose contours may outline the paper, with the contour retrieval mode for each."""
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (9, 9))
    textless = cv2.morphologyEx(small, cv2.MORPH_CLOSE, kernel)  # dark print on bright paper disappears
    blurred = cv2.GaussianBlur(textless, (5, 5), 0)
    median = float(np.median(blurred))
    edges = cv2.Canny(blurred, int(max(10, 0.5 * median)), int(max(30, min(255, 1.2 * median))))
    edges = cv2.dilate(edges, cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3)), iterations=2)
    _, bright = cv2.threshold(blurred, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    bright = cv2.morphologyEx(bright, cv2.MORPH_OPEN, kernel)  # cut thin bridges to bright background
    return [(edges, cv2.RETR_LIST), (bright, cv2.RETR_EXTERNAL)]


def find_document_quad(bgr: np.ndarray, *, min_area_fraction: float = MIN_AREA_FRACTION) -> np.ndarray | None:
    """The document's corners in ``bgr`` (4x2 float32, clockwise from top-left), or None.

    Accepts BGR, BGRA or grey uint8 arrays; anything else, blank frames and tiny images give None.
    """
    grey = _grey(bgr)
    if grey is None or min(grey.shape) < MIN_INPUT_SIDE:
        return None
    scale = min(1.0, DETECT_LONG_SIDE / max(grey.shape))
    small = grey if scale == 1.0 else cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    if float(small.std()) < MIN_CONTRAST:
        return None
    shape = small.shape[:2]
    frame_area = float(shape[0] * shape[1])
    best: np.ndarray | None = None
    best_score = 0.0
    largest: tuple[float, np.ndarray] | None = None
    maps = _edge_maps(small)
    edges = maps[0][0]
    for mask, mode in maps:
        contours, _ = cv2.findContours(mask, mode, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            area = float(cv2.contourArea(contour))
            if area < min_area_fraction * frame_area:
                continue
            if largest is None or area > largest[0]:
                largest = (area, contour)
            quad = _quad_of(contour)
            if quad is None or not _plausible(quad, area, shape, min_area_fraction):
                continue
            # Large, and outlined by real edges all round: a page merged with a neighbouring
            # object has hull edges that cut across the background.
            score = area * _edge_support(quad, edges) ** 4
            if score > best_score:
                best, best_score = quad, score
    if best is None and largest is not None:
        best = _rectangle_fallback(*largest, shape, min_area_fraction)
    if best is None:
        return None
    quad = order_corners((best + 0.5) / scale - 0.5)  # pixel centres of the small copy -> the frame's
    return refine_quad(grey, quad, search=int(np.ceil(3.0 / scale)) + 2)


def _line_through(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    vx, vy, x0, y0 = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(4)
    return np.array([x0, y0]), np.array([vx, vy])


def _intersection(line_a: tuple[np.ndarray, np.ndarray], line_b: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    (pa, da), (pb, db) = line_a, line_b
    t = np.linalg.solve(np.column_stack([da, -db]), pb - pa)[0]
    return pa + t * da


def refine_quad(grey: np.ndarray, quad: np.ndarray, search: int = 8, samples: int = 32) -> np.ndarray:
    """Move each edge of ``quad`` (ordered) onto the strongest grey step within ``search`` pixels of it.

    Edges are re-fitted as straight lines through those steps and intersected; the quad is returned
    unchanged when that fails or moves a corner further than the search allows.
    """
    top_left = np.maximum(np.floor(quad.min(axis=0)) - search - 4, 0).astype(int)
    bottom_right = np.ceil(quad.max(axis=0)).astype(int) + search + 4
    crop = grey[top_left[1] : bottom_right[1], top_left[0] : bottom_right[0]]
    if min(crop.shape) < 8:
        return quad
    blurred = cv2.GaussianBlur(crop, (5, 5), 0)
    quad = quad - top_left.astype(np.float32)
    offsets = np.arange(-search, search + 1, dtype=np.float32)
    lines = []
    for i in range(4):
        start, end = quad[i].astype(np.float64), quad[(i + 1) % 4].astype(np.float64)
        length = float(np.linalg.norm(end - start))
        if length < 4 * search:
            return quad + top_left
        direction = (end - start) / length
        normal = np.array([-direction[1], direction[0]])
        along = start + np.linspace(0.1, 0.9, samples)[:, None] * (end - start)
        points = along[:, None, :] + offsets[None, :, None] * normal
        profile = cv2.remap(blurred, points[..., 0].astype(np.float32), points[..., 1].astype(np.float32),
                            cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)  # fmt: skip
        steps = np.abs(np.diff(profile.astype(np.float32), axis=1))
        best = steps.argmax(axis=1)
        strength = steps.max(axis=1)
        keep = strength >= max(4.0, 0.5 * float(np.median(strength)))
        if keep.sum() < samples // 3:
            return quad + top_left
        edge = along[keep] + (offsets[best[keep]] + 0.5)[:, None] * normal
        lines.append(_line_through(edge))
    try:
        refined = np.array([_intersection(lines[i - 1], lines[i]) for i in range(4)], dtype=np.float32)
    except np.linalg.LinAlgError:
        return quad + top_left
    if not np.isfinite(refined).all() or np.abs(refined - quad).max() > 2 * search:
        return quad + top_left
    return order_corners(refined + top_left)


def _rectangle_fallback(
    area: float, contour: np.ndarray, shape: tuple[int, ...], min_fraction: float
) -> np.ndarray | None:
    """The largest outline's minimum-area rectangle, when the outline fills it like a page."""
    rect = cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)
    return rect if _plausible(rect, area, shape, min_fraction) else None


def _edge_lengths(quad: np.ndarray) -> tuple[float, float]:
    """(width, height): the longer of the top/bottom edges and of the left/right edges."""
    tl, tr, br, bl = quad
    width = max(float(np.linalg.norm(tr - tl)), float(np.linalg.norm(br - bl)))
    height = max(float(np.linalg.norm(bl - tl)), float(np.linalg.norm(br - tr)))
    return width, height


def projected_aspect(quad: np.ndarray, image_size: tuple[int, int]) -> float | None:
    """Width / height of the rectangle that a pinhole camera saw as ``quad`` (clockwise from top-left).

    The principal point is taken at the image centre (``image_size`` is (width, height)). None for a
    degenerate quad.
    """
    estimate = _camera_aspect(quad, image_size)
    return None if estimate is None else estimate[0]


def _camera_aspect(quad: np.ndarray, image_size: tuple[int, int]) -> tuple[float, bool] | None:
    """(aspect, whether the focal length came from the corners). The corners give the focal length
    when the rectangle's edges being perpendicular determines it; else a typical lens is assumed."""
    width, height = image_size
    centre = np.array([width / 2.0, height / 2.0], dtype=np.float32)
    centred = np.asarray(quad, dtype=np.float32).reshape(4, 2) - centre
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)
    try:
        h = cv2.getPerspectiveTransform(square, centred).astype(np.float64)
    except cv2.error:
        return None
    h1, h2 = h[:, 0], h[:, 1]
    long_side = float(max(width, height))
    focal, measured = TYPICAL_FOCAL * long_side, False
    if abs(h1[2] * h2[2]) > 1e-12:
        f_sq = -(h1[0] * h2[0] + h1[1] * h2[1]) / (h1[2] * h2[2])
        if np.isfinite(f_sq) and (FOCAL_RANGE[0] * long_side) ** 2 < f_sq < (FOCAL_RANGE[1] * long_side) ** 2:
            focal, measured = float(np.sqrt(f_sq)), True
    scale = np.array([1.0 / focal, 1.0 / focal, 1.0])
    across, down = float(np.linalg.norm(h1 * scale)), float(np.linalg.norm(h2 * scale))
    if not (np.isfinite(across) and np.isfinite(down)) or across <= 0 or down <= 0:
        return None
    return across / down, measured


def _output_size(
    quad: np.ndarray, image_size: tuple[int, int], max_side: int, max_pixels: int
) -> tuple[int, int]:
    """The flattened size: the quad's longer edges, the shorter side stretched to the camera model's aspect.

    A focal length measured from the corners is trusted to change the apparent aspect up to 2.5x
    (a page tilted away looks wider than it is); an assumed one only up to 2x, and it never turns a
    clearly portrait quad landscape or the other way (only the corner order decides which way is up).
    """
    width, height = _edge_lengths(quad)
    width, height = max(width, 1.0), max(height, 1.0)
    apparent = width / height
    estimate = _camera_aspect(quad, image_size)
    if estimate is not None:
        aspect, measured = estimate
        change = max(aspect / apparent, apparent / aspect)
        same_way = (aspect > 1.0) == (apparent > 1.0) or NEAR_SQUARE < apparent < 1.0 / NEAR_SQUARE
        believable = change < 2.5 if measured else (change < 2.0 and same_way)
        if believable:
            if aspect > apparent:
                width = height * aspect
            else:
                height = width / aspect
    shrink = min(1.0, max_side / max(width, height), float(np.sqrt(max_pixels / (width * height))))
    return max(1, round(width * shrink)), max(1, round(height * shrink))


def flatten_document(
    bgr: np.ndarray, quad: np.ndarray, *, max_side: int = MAX_IMAGE_SIDE, max_pixels: int = MAX_IMAGE_PIXELS
) -> np.ndarray:
    """Warp the quad's contents to an upright rectangle of the document's own aspect ratio.

    The quad may be in any corner order; it is put clockwise from top-left first, so a quad seen
    portrait comes out portrait. The size follows the quad's longer edges (within the server's limits).
    """
    if not isinstance(bgr, np.ndarray) or bgr.ndim not in (2, 3) or min(bgr.shape[:2]) < 1:
        raise ValueError("flatten_document needs an image array")
    corners = order_corners(quad)
    width, height = _output_size(corners, (bgr.shape[1], bgr.shape[0]), max_side, max_pixels)
    target = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(corners, target)
    return cv2.warpPerspective(bgr, matrix, (width, height), flags=cv2.INTER_CUBIC,
                               borderMode=cv2.BORDER_REPLICATE)  # fmt: skip


def enhance_document(bgr: np.ndarray, strength: float = 0.7) -> np.ndarray:
    """Even out shadows and uneven light (each channel divided by its blurred paper background)."""
    channels = bgr.reshape(*bgr.shape[:2], -1)
    out = []
    for i in range(channels.shape[2]):
        channel = channels[:, :, i]
        background = cv2.medianBlur(cv2.dilate(channel, np.ones((7, 7), np.uint8)), 21)
        flat = cv2.divide(channel, background, scale=255)
        out.append(cv2.addWeighted(flat, strength, channel, 1.0 - strength, 0))
    merged = cv2.merge(out) if len(out) > 1 else out[0]
    return merged.reshape(bgr.shape)


def scan_document(bgr: np.ndarray, *, enhance: bool = False, quad: np.ndarray | None = None) -> ScanResult:
    """Find the document (unless ``quad`` is given) and flatten it; the frame itself when none is found."""
    if quad is None:
        quad = find_document_quad(bgr)
    if quad is None:
        image = bgr.copy()
    else:
        quad = order_corners(quad)
        image = flatten_document(bgr, quad)
    if enhance:
        image = enhance_document(image)
    return ScanResult(image=image, quad=quad, flattened=quad is not None)
