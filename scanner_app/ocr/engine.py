"""The pipeline's line math, shared by the Triton steps and the in-process engine (ocr.in_process)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scanner_app.ocr.detect import fit_box, page_line_height
from scanner_app.ocr.order import reading_order
from scanner_app.ocr.params import RecParams
from scanner_app.ocr.recognize import crop_text_line, ctc_decode, plan_batches, preprocess_for_recognition
from scanner_app.ocr.text_repair import repair_text


@dataclass(frozen=True)
class RecognizedLine:
    """One line as the OCR math recognised it: quadrilateral (numpy, original pixels), text and
    confidence. The client's result type is core.results.TextLine (boxes as tuples, JSON)."""

    box: np.ndarray
    text: str
    score: float


@dataclass(frozen=True)
class RecognitionPlan:
    """Crops grouped into recognition batches: ``batches[k]`` holds the crops ``groups[k]``."""

    groups: list[list[int]]
    batches: list[np.ndarray]


def plan_recognition(
    image_bgr: np.ndarray, boxes: Sequence[np.ndarray], params: RecParams
) -> RecognitionPlan:
    """Crop every box and pack the crops into width-bucket batches of at most ``max_batch``."""
    return plan_crops([crop_text_line(image_bgr, box, params.margin) for box in boxes], params)


def plan_crops(crops: Sequence[np.ndarray], params: RecParams) -> RecognitionPlan:
    """Pack crops (already cut and turned) into width-bucket batches of at most ``max_batch``."""
    plan = plan_batches(crops, params)
    batches = [
        np.stack([preprocess_for_recognition(crops[i], bucket, params) for i in indices])
        for bucket, indices in plan
    ]
    return RecognitionPlan(groups=[indices for _, indices in plan], batches=batches)


def finish_recognition(
    boxes: Sequence[np.ndarray],
    plan: RecognitionPlan,
    results: Sequence[tuple[np.ndarray, np.ndarray]],
    keys: Sequence[str],
    params: RecParams,
) -> list[RecognizedLine]:
    """CTC-decode each batch's (indices, probs), drop weak lines, return them in reading order."""
    return assemble_lines(boxes, decode_plan(plan, results, keys), params)


def decode_plan(
    plan: RecognitionPlan, results: Sequence[tuple[np.ndarray, np.ndarray]], keys: Sequence[str]
) -> dict[int, tuple[str, float]]:
    """Crop index -> (text, score), CTC-decoded from each batch's (indices, probs)."""
    decoded: dict[int, tuple[str, float]] = {}
    for indices, (best, probs) in zip(plan.groups, results, strict=True):
        for row, crop_index in enumerate(indices):
            decoded[crop_index] = ctc_decode(best[row], probs[row], keys)
    return decoded


def assemble_lines(
    boxes: Sequence[np.ndarray], decoded: dict[int, tuple[str, float]], params: RecParams
) -> list[RecognizedLine]:
    """The decoded lines worth keeping (text, score >= drop_score), in reading order, each with
    the box fitted to its text (detect.fit_box; the crop box is what was recognised) and, with
    ``params.repair_text``, the recogniser's slips put back (ocr.text_repair: zeros, brackets)."""
    kept = [i for i in reading_order(boxes) if decoded[i][0].strip() and decoded[i][1] >= params.drop_score]
    page_height = page_line_height([boxes[i] for i in kept])
    return [
        RecognizedLine(
            box=fit_box(boxes[i], page_height, params.box_fit),
            text=repair_text(decoded[i][0]) if params.repair_text else decoded[i][0],
            score=decoded[i][1],
        )
        for i in kept
    ]
