"""Recognition pre- and post-processing: perspective crops, width buckets, CTC decoding."""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from scanner_app.ocr.params import RecParams

VERTICAL_RATIO = 1.5  # a box this many times taller than wide holds text running down the page


def is_vertical(box: np.ndarray) -> bool:
    """True when the box is tall: crop_text_line turns its crop a quarter counter-clockwise."""
    width = float(max(np.linalg.norm(box[0] - box[1]), np.linalg.norm(box[2] - box[3])))
    tall = max(np.linalg.norm(box[0] - box[3]), np.linalg.norm(box[1] - box[2]))
    return bool(tall / max(width, 1e-6) >= VERTICAL_RATIO)


def crop_text_line(image_bgr: np.ndarray, box: np.ndarray, margin: float = 0.0) -> np.ndarray:
    """Cut the quadrilateral ``box`` out of the image, flattened; tall crops are turned upright.

    ``margin`` widens the crop along the text direction by that fraction of the line height at
    each end (the detector's boxes can cut into a line's first and last characters).
    """
    box = box.astype(np.float32)
    width = float(max(np.linalg.norm(box[0] - box[1]), np.linalg.norm(box[2] - box[3])))
    tall = max(np.linalg.norm(box[0] - box[3]), np.linalg.norm(box[1] - box[2]))
    rotate = bool(tall / max(width, 1e-6) >= VERTICAL_RATIO)
    if margin > 0:
        box = _widen(box, margin, rotate)
        width = float(max(np.linalg.norm(box[0] - box[1]), np.linalg.norm(box[2] - box[3])))
        tall = max(np.linalg.norm(box[0] - box[3]), np.linalg.norm(box[1] - box[2]))
    out_w, out_h = max(int(width), 1), max(int(tall), 1)
    target = np.array([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(box, target)
    crop = cv2.warpPerspective(
        image_bgr, matrix, (out_w, out_h), borderMode=cv2.BORDER_REPLICATE, flags=cv2.INTER_CUBIC
    )
    if rotate:
        crop = np.rot90(crop)
    return crop


def _widen(box: np.ndarray, margin: float, vertical: bool) -> np.ndarray:
    """Move the box's ends outwards along the text direction by ``margin`` line heights."""
    tl, tr, br, bl = box
    if vertical:  # text runs top to bottom: extend the top and bottom edges
        along = ((bl - tl) + (br - tr)) / 2
        across = (np.linalg.norm(tr - tl) + np.linalg.norm(br - bl)) / 2
        step = along / max(np.linalg.norm(along), 1e-6) * margin * across
        return np.array([tl - step, tr - step, br + step, bl + step], dtype=np.float32)
    along = ((tr - tl) + (br - bl)) / 2
    across = (np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2
    step = along / max(np.linalg.norm(along), 1e-6) * margin * across
    return np.array([tl - step, tr + step, br + step, bl - step], dtype=np.float32)


def width_bucket(crop_h: int, crop_w: int, params: RecParams) -> int:
    """The padded input width for a crop: the smallest bucket that holds it at the rec height."""
    needed = math.ceil(params.height * crop_w / max(crop_h, 1))
    for bucket in params.width_buckets:
        if needed <= bucket:
            return bucket
    return params.width_buckets[-1]


def preprocess_for_recognition(crop: np.ndarray, bucket: int, params: RecParams) -> np.ndarray:
    """Resize a crop to the rec height (squeezing only past the widest bucket), normalise, pad."""
    h, w = crop.shape[:2]
    resized_w = min(bucket, math.ceil(params.height * w / max(h, 1)))
    resized = cv2.resize(crop, (max(resized_w, 1), params.height), interpolation=cv2.INTER_LINEAR)
    tensor = np.zeros((3, params.height, bucket), dtype=np.float32)
    tensor[:, :, : resized.shape[1]] = (resized.astype(np.float32).transpose(2, 0, 1) / 127.5) - 1.0
    return tensor


def plan_batches(crops: Sequence[np.ndarray], params: RecParams) -> list[tuple[int, list[int]]]:
    """Group crop indices by width bucket, in chunks of at most ``params.max_batch``."""
    by_bucket: dict[int, list[int]] = {}
    for index, crop in enumerate(crops):
        by_bucket.setdefault(width_bucket(crop.shape[0], crop.shape[1], params), []).append(index)
    plan = []
    for bucket in sorted(by_bucket):
        indices = by_bucket[bucket]
        for start in range(0, len(indices), params.max_batch):
            plan.append((bucket, indices[start : start + params.max_batch]))
    return plan


def ctc_decode(indices: np.ndarray, probs: np.ndarray, keys: Sequence[str]) -> tuple[str, float]:
    """Greedy CTC: collapse repeats, drop blanks (index 0); score is the mean kept probability."""
    indices = np.asarray(indices).reshape(-1)
    probs = np.asarray(probs).reshape(-1)
    keep = indices != 0
    if len(indices) > 1:
        keep[1:] &= indices[1:] != indices[:-1]
    kept = indices[keep]
    if kept.size == 0:
        return "", 0.0
    text = "".join(keys[i] if i < len(keys) else "" for i in kept.tolist())
    return text, float(probs[keep].mean())
