"""Detection pre- and post-processing: resize into a shape bucket, DB probability map to boxes."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pyclipper

from scanner_app.ocr.params import DET_MEAN, BoxFit, DetParams

# The uint8 colour that normalises to zero: the padding of detection inputs.
DET_PAD_VALUE = np.round(np.array(DET_MEAN) * 255.0).astype(np.uint8)


def detection_size(height: int, width: int, params: DetParams) -> tuple[int, int]:
    """The (height, width) an image is resized to before padding: aspect kept, multiple of 32.

    The short side is scaled up to ``min_side_len`` (at most 4x), the long side down to
    ``limit_side_len``; the limit wins.
    """
    ratio = 1.0
    if params.min_side_len and min(height, width) < params.min_side_len:
        ratio = min(params.min_side_len / min(height, width), 4.0)
    # The longest side never exceeds the limit, not even when the short side is scaled up.
    ratio = min(ratio, params.limit_side_len / max(height, width))
    resized_h = max(32, int(round(height * ratio / 32) * 32))
    resized_w = max(32, int(round(width * ratio / 32) * 32))
    return resized_h, resized_w


def bucket_size(resized_h: int, resized_w: int, step: int) -> tuple[int, int]:
    """The padded shape: each side rounded up to a multiple of ``step``."""
    return math.ceil(resized_h / step) * step, math.ceil(resized_w / step) * step


def preprocess_for_detection(image_bgr: np.ndarray, params: DetParams) -> tuple[np.ndarray, tuple[int, int]]:
    """Return the resized uint8 HWC (BGR) image padded to its bucket, and the unpadded size.

    Normalisation happens inside the detection graph (see scanner_app.server.onnx_rewrite), so
    the step moves a quarter of the bytes an FP32 tensor would. The padding is the mean colour,
    which normalises to (almost exactly) zero, as PaddleOCR's zero padding of the FP32 tensor.
    """
    h, w = image_bgr.shape[:2]
    resized_h, resized_w = detection_size(h, w, params)
    pad_h, pad_w = bucket_size(resized_h, resized_w, params.bucket_step)
    resized = cv2.resize(image_bgr, (resized_w, resized_h), interpolation=cv2.INTER_LINEAR)
    padded = np.empty((pad_h, pad_w, 3), dtype=np.uint8)
    padded[:] = DET_PAD_VALUE
    padded[:resized_h, :resized_w] = resized
    return padded, (resized_h, resized_w)


def boxes_from_probability(
    prob: np.ndarray,
    resized_size: tuple[int, int],
    original_size: tuple[int, ...],  # (height, width), e.g. image.shape[:2]
    params: DetParams,
) -> list[np.ndarray]:
    """DB post-processing: text boxes (4x2 float32, clockwise from top-left) in original pixels.

    ``prob`` is the (padded) probability map, float in 0..1 or uint8 in 0..255.
    """
    resized_h, resized_w = resized_size
    orig_h, orig_w = original_size
    pred = prob[:resized_h, :resized_w]
    if pred.dtype == np.uint8:
        pred = pred.astype(np.float32) * (1.0 / 255.0)
    mask: np.ndarray = (pred > params.thresh).astype(np.uint8)
    if params.use_dilation:
        mask = cv2.dilate(mask, np.ones((2, 2), dtype=np.uint8))
    contours, _ = cv2.findContours(mask * 255, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    scale = np.array([orig_w / resized_w, orig_h / resized_h], dtype=np.float32)
    boxes = []
    for contour in contours[: params.max_candidates]:
        points, short_side = _mini_box(contour)
        if short_side < params.min_size:
            continue
        region = points if params.score_mode == "fast" else contour.reshape(-1, 2)
        if _box_score(pred, region) < params.box_thresh:
            continue
        expanded = _unclip(points, params.unclip_ratio)
        if expanded is None:
            continue
        box, short_side = _mini_box(expanded.reshape(-1, 1, 2))
        if short_side < params.min_size + 2:
            continue
        box = box * scale
        box[:, 0] = np.clip(box[:, 0], 0, orig_w - 1)
        box[:, 1] = np.clip(box[:, 1], 0, orig_h - 1)
        box = order_points_clockwise(box)
        if np.linalg.norm(box[0] - box[1]) <= 3 or np.linalg.norm(box[0] - box[3]) <= 3:
            continue
        boxes.append(box.astype(np.float32))
    return boxes


def _mini_box(contour: np.ndarray) -> tuple[np.ndarray, float]:
    rect = cv2.minAreaRect(contour)
    points = sorted(cv2.boxPoints(rect).tolist(), key=lambda p: p[0])
    left = sorted(points[:2], key=lambda p: p[1])
    right = sorted(points[2:], key=lambda p: p[1])
    box = np.array([left[0], right[0], right[1], left[1]], dtype=np.float32)
    return box, min(rect[1])


def min_area_box(points: np.ndarray) -> np.ndarray:
    """The smallest rotated rectangle around ``points`` (N x 2), clockwise from top-left."""
    box, _ = _mini_box(np.asarray(points, dtype=np.float32).reshape(-1, 1, 2))
    return order_points_clockwise(box)


def _box_score(pred: np.ndarray, contour: np.ndarray) -> float:
    """Mean probability inside a polygon: the contour ("slow") or its min-area box ("fast")."""
    h, w = pred.shape
    x0 = int(np.clip(np.floor(contour[:, 0].min()), 0, w - 1))
    x1 = int(np.clip(np.ceil(contour[:, 0].max()), 0, w - 1))
    y0 = int(np.clip(np.floor(contour[:, 1].min()), 0, h - 1))
    y1 = int(np.clip(np.ceil(contour[:, 1].max()), 0, h - 1))
    mask = np.zeros((y1 - y0 + 1, x1 - x0 + 1), dtype=np.uint8)
    shifted = (contour - np.array([x0, y0])).reshape(1, -1, 2).astype(np.int32)
    cv2.fillPoly(mask, shifted, (1,))
    return float(cv2.mean(pred[y0 : y1 + 1, x0 : x1 + 1], mask)[0])


def _unclip(box: np.ndarray, ratio: float) -> np.ndarray | None:
    area = cv2.contourArea(box)
    length = cv2.arcLength(box, True)
    if length == 0:
        return None
    distance = area * ratio / length
    offset = pyclipper.PyclipperOffset()
    offset.AddPath(
        [tuple(p) for p in box.astype(np.int64).tolist()], pyclipper.JT_ROUND, pyclipper.ET_CLOSEDPOLYGON
    )
    paths = offset.Execute(distance)
    if len(paths) != 1:
        return None
    return np.array(paths[0], dtype=np.float32)


def order_points_clockwise(points: np.ndarray) -> np.ndarray:
    """Order 4 points top-left, top-right, bottom-right, bottom-left."""
    by_x = points[np.argsort(points[:, 0])]
    left, right = by_x[:2], by_x[2:]
    tl, bl = left[np.argsort(left[:, 1])]
    tr, br = right[np.argsort(right[:, 1])]
    return np.array([tl, tr, br, bl], dtype=np.float32)


def fit_box(box: np.ndarray, page_height: float, fit: BoxFit) -> np.ndarray:
    """The box reported for a line: ``box`` resized about its centre as ``fit`` says.

    Height runs along the box's left edge (top-left to bottom-left), length along its top edge,
    whatever their sizes (pages are upright by then; a short token taller than wide is still a
    row of text); ``page_height`` is the page's median line height (see page_line_height).
    """
    box = np.asarray(box, dtype=np.float32)
    tl, tr, _, bl = box.astype(np.float64)
    length, height = float(np.linalg.norm(tr - tl)), float(np.linalg.norm(bl - tl))
    if length < 1 or height < 1:
        return box
    along, across = (tr - tl) / length, (bl - tl) / height
    new_height = max(fit.height * height + fit.height_page * page_height, 1.0)
    new_length = max(length + fit.length_height * height + fit.length_page * page_height, 1.0)
    centre = box.astype(np.float64).mean(axis=0)
    corners = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    return np.array(
        [centre + a * new_length / 2 * along + c * new_height / 2 * across for a, c in corners],
        dtype=np.float32,
    )


def page_line_height(boxes: list[np.ndarray]) -> float:
    """The median height (left edge) of a page's line boxes; 0 for none."""
    if not boxes:
        return 0.0
    return float(np.median([np.linalg.norm(np.asarray(b)[3] - np.asarray(b)[0]) for b in boxes]))
