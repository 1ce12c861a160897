"""Page and line orientation: find how a page is turned, read it upright, fix upside-down lines.

A quarter turn in pixels is lossless, so once the angle is known the upright image is read
exactly as an upright scan would be. The angle is found cheaply:

1. the detected boxes' shape: most boxes tall means the page lies on its side (90 or 270);
2. the text-line classifier (0 or 180 degrees) on a sample of the longest line crops, as the
   recogniser would see them; a vote weighted by the classifier's confidence and the line's
   length decides between 0 and 180 (or, for a page on its side, between 90 and 270).

Single lines on an upright page: a line whose own recognition score is doubtful is classified,
and read again turned 180 degrees when the classifier leans that way; the turned reading is kept
only when the recogniser is clearly surer of it and confident (the classifier alone is right on
~90 % of lines; a smudge read turned must not become a new line).

``read_page`` holds the orchestration; the caller supplies the three models as async callables
(BLS calls in the Triton step, ONNX Runtime sessions in process), so both run the same logic.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from scanner_app.ocr.detect import boxes_from_probability, preprocess_for_detection
from scanner_app.ocr.engine import RecognizedLine, assemble_lines, decode_plan, plan_crops
from scanner_app.ocr.line_leader import join_leaders
from scanner_app.ocr.line_merge import merged_box, overlapping_groups
from scanner_app.ocr.line_split import split_at_blanks
from scanner_app.ocr.params import DetParams, RecParams
from scanner_app.ocr.punctuation import colon_extensions, colon_reading
from scanner_app.ocr.recognize import crop_text_line, is_vertical

CLS_HEIGHT, CLS_WIDTH = 48, 192  # the classifier's input, as PaddleOCR feeds it
ANGLES = (0, 90, 180, 270)

# (batch [N, 3, H, W] uint8 image) -> probability map; (crops tensor) -> probs [N, 2];
# (rec batch) -> (indices, probs).
Detect = Callable[[np.ndarray], Awaitable[np.ndarray]]
Classify = Callable[[np.ndarray], Awaitable[np.ndarray]]
Recognize = Callable[[np.ndarray], Awaitable[tuple[np.ndarray, np.ndarray]]]


@dataclass(frozen=True)
class OrientationParams:
    """How much the orientation search looks at, and when a line counts as doubtful."""

    enabled: bool = True
    sample: int = 12  # longest line crops classified for the page vote
    max_sample: int = 48  # crops classified when the first vote is close
    close_vote: float = 0.25  # |share(180) - share(0)| below this is close
    tall_share: float = 0.5  # more than this share of tall boxes: the page lies on its side
    line_doubt: float = 0.85  # lines scored below this are checked one by one
    line_flip: float = 0.5  # classifier probability of 180 for which a doubtful line is read turned
    # The turned reading is kept when it scores this much higher (and >= line_doubt). Short symmetric
    # lines (".S", "*") gain up to ~0.19 read turned on upright SROIE pages; a line really upside
    # down gains ~0.25 (tests/ocr/test_orientation.py).
    line_gain: float = 0.2
    max_batch: int = 64  # crops per classifier call (<= its max_batch_size)


@dataclass(frozen=True)
class PageRead:
    """Lines in reading order (boxes in the pixels of the image as sent) and the page angle."""

    lines: list[RecognizedLine]
    orientation: int  # degrees clockwise that turn the image as sent upright
    flipped_lines: int = 0  # single lines read turned 180 degrees


@dataclass(frozen=True)
class Models:
    """The three model calls read_page needs."""

    detect: Detect
    classify: Classify
    recognize: Recognize


def preprocess_for_classifier(crop: np.ndarray) -> np.ndarray:
    """A crop resized to the classifier's height (width at most 192), scaled to -1..1, padded."""
    h, w = crop.shape[:2]
    resized_w = max(1, min(CLS_WIDTH, math.ceil(CLS_HEIGHT * w / max(h, 1))))
    resized = cv2.resize(crop, (resized_w, CLS_HEIGHT), interpolation=cv2.INTER_LINEAR)
    tensor = np.zeros((3, CLS_HEIGHT, CLS_WIDTH), dtype=np.float32)
    tensor[:, :, :resized_w] = resized.astype(np.float32).transpose(2, 0, 1) / 127.5 - 1.0
    return tensor


def rotate_upright(image: np.ndarray, orientation: int) -> np.ndarray:
    """The image turned ``orientation`` degrees clockwise (lossless)."""
    return np.ascontiguousarray(np.rot90(image, k=-(orientation // 90) % 4))


def boxes_to_sent(
    boxes: Sequence[np.ndarray], orientation: int, sent_size: tuple[int, ...]
) -> list[np.ndarray]:
    """Boxes found on the upright image, in the pixels of the image as sent.

    Each box keeps its corner order, so corner 0 is still where its text starts.
    """
    height, width = sent_size  # of the image as sent
    out = []
    for box in boxes:
        x, y = box[:, 0].astype(np.float32), box[:, 1].astype(np.float32)
        if orientation == 90:  # upright = sent turned clockwise: sent (x, y) = (y', W' - x'), W' = H
            points = np.stack([y, height - x], axis=1)
        elif orientation == 180:
            points = np.stack([width - x, height - y], axis=1)
        elif orientation == 270:
            points = np.stack([width - y, x], axis=1)
        else:
            points = np.stack([x, y], axis=1)
        out.append(points.astype(np.float32))
    return out


def sideways(boxes: Sequence[np.ndarray], params: OrientationParams) -> bool:
    """True when most boxes are tall: the text runs up or down the page."""
    if not boxes:
        return False
    return sum(is_vertical(box) for box in boxes) / len(boxes) > params.tall_share


def sample_indices(boxes: Sequence[np.ndarray], vertical: bool, count: int) -> list[int]:
    """Up to ``count`` boxes of the page's direction, longest first (long lines vote best)."""
    lengths = [_length(box) for box in boxes]
    chosen = [i for i, box in enumerate(boxes) if is_vertical(box) == vertical]
    return sorted(chosen, key=lambda i: -lengths[i])[:count]


def vote_flipped(probs: np.ndarray, weights: Sequence[float]) -> float:
    """Weighted share of 180 minus share of 0 (-1..1): each crop votes for its class."""
    probs = np.asarray(probs, dtype=np.float64).reshape(-1, 2)
    w = np.asarray(weights, dtype=np.float64)
    total = float(w.sum())
    if total <= 0 or len(probs) == 0:
        return 0.0
    picks = probs.argmax(axis=1)
    confidence = probs.max(axis=1)
    signed = np.where(picks == 1, 1.0, -1.0) * confidence * w
    return float(signed.sum() / total)


def page_angle(is_sideways: bool, flipped: bool) -> int:
    """The clockwise turn that makes the page upright.

    Tall crops are turned a quarter counter-clockwise before recognition (crop_text_line): when
    that reads upright, the page needs the same quarter turn, 270 degrees clockwise.
    """
    if is_sideways:
        return 90 if flipped else 270
    return 180 if flipped else 0


async def classify_crops(crops: Sequence[np.ndarray], classify: Classify, max_batch: int) -> np.ndarray:
    """Classifier probabilities [N, 2] (0, 180 degrees) for the crops, in calls of max_batch."""
    if not crops:
        return np.zeros((0, 2), dtype=np.float32)
    tensors = np.stack([preprocess_for_classifier(c) for c in crops])
    parts = [await classify(tensors[i : i + max_batch]) for i in range(0, len(tensors), max_batch)]
    return np.concatenate([np.asarray(p).reshape(-1, 2) for p in parts])


async def find_orientation(
    image: np.ndarray,
    boxes: Sequence[np.ndarray],
    classify: Classify,
    params: OrientationParams,
    margin: float,
) -> int:
    """The page's clockwise angle to upright, from the boxes' shape and a classifier vote."""
    if not boxes:
        return 0
    is_sideways = sideways(boxes, params)
    order = sample_indices(boxes, is_sideways, params.max_sample)
    if not order:
        return 0
    first = order[: params.sample]
    crops = [crop_text_line(image, boxes[i], margin) for i in first]
    probs = await classify_crops(crops, classify, params.max_batch)
    weights = [_length(boxes[i]) for i in first]
    vote = vote_flipped(probs, weights)
    if abs(vote) < params.close_vote and len(order) > len(first):
        more = order[len(first) :]
        crops = [crop_text_line(image, boxes[i], margin) for i in more]
        probs = np.concatenate([probs, await classify_crops(crops, classify, params.max_batch)])
        vote = vote_flipped(probs, weights + [_length(boxes[i]) for i in more])
    return page_angle(is_sideways, vote > 0)


async def read_upright(
    image: np.ndarray,
    boxes: Sequence[np.ndarray],
    models: Models,
    rec_params: RecParams,
    keys: Sequence[str],
    params: OrientationParams,
) -> tuple[list[RecognizedLine], int]:
    """Recognise the boxes of an upright image; doubtful lines are tried turned 180 degrees.

    A box with a wide blank inside is read as its parts (ocr.line_split); pieces of one row that
    reach into each other are then read as one line (ocr.line_merge), and so are pieces joined by a
    dotted leader (ocr.line_leader).
    """
    gray = _gray(image)  # the page's ink, for the split, the leaders and the colons
    if rec_params.split.enabled:
        boxes = split_at_blanks(gray, boxes, rec_params.split)
    crops = [crop_text_line(image, box, rec_params.margin) for box in boxes]
    decoded = await _read_crops(crops, models, rec_params, keys)
    flipped = 0
    if params.enabled:
        doubtful = [i for i in range(len(crops)) if decoded[i][1] < params.line_doubt]
        probs = await classify_crops([crops[i] for i in doubtful], models.classify, params.max_batch)
        turned = [i for i, p in zip(doubtful, probs, strict=True) if p[1] >= params.line_flip]
        if turned:
            again = [np.ascontiguousarray(np.rot90(crops[i], 2)) for i in turned]
            for j, (text, score) in (await _read_crops(again, models, rec_params, keys)).items():
                if score >= max(decoded[turned[j]][1] + params.line_gain, params.line_doubt):
                    decoded[turned[j]] = (text, score)
                    flipped += 1
    if rec_params.merge.enabled:
        boxes, decoded = await read_merged(image, boxes, decoded, models, rec_params, keys)
        boxes, decoded = join_leaders(gray, boxes, decoded, rec_params.merge, rec_params.drop_score)
    if rec_params.colon.enabled:
        boxes = await read_colons(image, gray, boxes, decoded, models, rec_params, keys)
    return assemble_lines(boxes, decoded, rec_params), flipped


async def read_merged(
    image: np.ndarray,
    boxes: Sequence[np.ndarray],
    decoded: dict[int, tuple[str, float]],
    models: Models,
    rec_params: RecParams,
    keys: Sequence[str],
) -> tuple[list[np.ndarray], dict[int, tuple[str, float]]]:
    """Overlapping pieces of one row that each read as text (ocr.line_merge), read as one line.

    Returns the boxes and their readings, renumbered: a group's merged box takes its first
    piece's place when its reading is kept (score >= drop_score); otherwise the pieces stay.
    """
    readable = [
        i for i in range(len(boxes)) if decoded[i][0].strip() and decoded[i][1] >= rec_params.drop_score
    ]
    groups = overlapping_groups(boxes, rec_params.merge, readable)
    if not groups:
        return list(boxes), decoded
    merged = [merged_box([boxes[i] for i in group]) for group in groups]
    again = await _read_crops(
        [crop_text_line(image, box, rec_params.margin) for box in merged], models, rec_params, keys
    )
    replaced: dict[int, tuple[np.ndarray, tuple[str, float]]] = {}
    dropped: set[int] = set()
    for k, group in enumerate(groups):
        if again[k][0].strip() and again[k][1] >= rec_params.drop_score:
            replaced[group[0]] = (merged[k], again[k])
            dropped.update(group[1:])
    kept = [i for i in range(len(boxes)) if i not in dropped]
    new_boxes = [replaced[i][0] if i in replaced else boxes[i] for i in kept]
    new_decoded = {n: replaced[i][1] if i in replaced else decoded[i] for n, i in enumerate(kept)}
    return new_boxes, new_decoded


async def read_colons(
    image: np.ndarray,
    gray: np.ndarray,
    boxes: Sequence[np.ndarray],
    decoded: dict[int, tuple[str, float]],
    models: Models,
    rec_params: RecParams,
    keys: Sequence[str],
) -> list[np.ndarray]:
    """Lines with a dropped colon at an end (ocr.punctuation) are read again over it.

    ``gray`` is ``image`` in grey. Where ``colon_reading`` gives the line a colon, that text replaces
    the line's (in ``decoded``) and the extended box its box; the boxes are returned.
    """
    boxes = list(boxes)
    texts = [decoded[i][0] if decoded[i][1] >= rec_params.drop_score else "" for i in range(len(boxes))]
    found = colon_extensions(gray, boxes, rec_params.colon, texts)
    if not found:
        return boxes
    order = [i for i in sorted(found) if not found[i].inside]  # a colon inside its box was read as that
    crops = [crop_text_line(image, found[i].box, rec_params.margin) for i in order]
    again = await _read_crops(crops, models, rec_params, keys) if order else {}
    readings = {index: again[j] for j, index in enumerate(order)}
    for index, ext in found.items():
        reading = readings.get(index, decoded[index])
        text = colon_reading(decoded[index][0], reading[0], ext)
        if text is not None:
            decoded[index] = (text, reading[1])
            boxes[index] = ext.box
    return boxes


async def read_page(
    image: np.ndarray,
    boxes: Sequence[np.ndarray],
    models: Models,
    det_params: DetParams,
    rec_params: RecParams,
    keys: Sequence[str],
    params: OrientationParams,
) -> PageRead:
    """Read a page whose boxes were detected as sent: upright, whatever way it was turned.

    A turned page is turned upright in pixels and detected again, so its reading (and reading
    order) is that of the upright page; boxes are mapped back to the image as sent.
    """
    angle = 0
    if params.enabled:
        angle = await find_orientation(image, boxes, models.classify, params, rec_params.margin)
    if angle:
        upright = rotate_upright(image, angle)
        tensor, resized = preprocess_for_detection(upright, det_params)
        prob = np.asarray(await models.detect(tensor[None])).reshape(tensor.shape[0], tensor.shape[1])
        boxes = boxes_from_probability(prob, resized, upright.shape[:2], det_params)
        lines, flipped = await read_upright(upright, boxes, models, rec_params, keys, params)
        sent = boxes_to_sent([line.box for line in lines], angle, image.shape[:2])
        lines = [
            RecognizedLine(box=b, text=ln.text, score=ln.score) for b, ln in zip(sent, lines, strict=True)
        ]
    else:
        lines, flipped = await read_upright(image, boxes, models, rec_params, keys, params)
    return PageRead(lines=lines, orientation=angle, flipped_lines=flipped)


async def _read_crops(
    crops: Sequence[np.ndarray], models: Models, rec_params: RecParams, keys: Sequence[str]
) -> dict[int, tuple[str, float]]:
    """Crop index -> (text, score): the crops recognised in width-bucket batches and CTC-decoded."""
    plan = plan_crops(crops, rec_params)
    return decode_plan(plan, await _recognize_all(models, plan.batches), keys)


async def _recognize_all(
    models: Models, batches: Sequence[np.ndarray]
) -> list[tuple[np.ndarray, np.ndarray]]:
    """All recognition batches at once (concurrent BLS calls batch together on the server)."""
    return list(await asyncio.gather(*(models.recognize(batch) for batch in batches)))


def _gray(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


def _length(box: np.ndarray) -> float:
    return float(max(np.linalg.norm(box[0] - box[1]), np.linalg.norm(box[0] - box[3])))
