"""The pipeline's orchestration, shared by the Triton steps and the in-process engine."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scanner_app.contract import DET_INPUT, DET_OUTPUT, REC_INDICES, REC_INPUT, REC_PROBS
from scanner_app.ocr.detect import boxes_from_probability, preprocess_for_detection
from scanner_app.ocr.order import reading_order
from scanner_app.ocr.params import DetParams, RecParams
from scanner_app.ocr.recognize import crop_text_line, ctc_decode, plan_batches, preprocess_for_recognition


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
    """The decoded lines worth keeping (text, score >= drop_score), in reading order."""
    lines = []
    for i in reading_order(boxes):
        text, score = decoded[i]
        if text.strip() and score >= params.drop_score:
            lines.append(RecognizedLine(box=boxes[i], text=text, score=score))
    return lines


class InProcessEngine:
    """The whole pipeline in this process through ONNX Runtime: the reference and the baseline."""

    def __init__(
        self,
        det_model: str,
        rec_model: str,
        keys: Sequence[str],
        det_params: DetParams | None = None,
        rec_params: RecParams | None = None,
        threads: int = 0,
        providers: Sequence[Any] = ("CPUExecutionProvider",),
    ) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        self._det = ort.InferenceSession(det_model, options, providers=list(providers))
        self._rec = ort.InferenceSession(rec_model, options, providers=list(providers))
        self._keys = list(keys)
        self.det_params = det_params or DetParams()
        self.rec_params = rec_params or RecParams()

    def detect(self, image_bgr: np.ndarray) -> list[np.ndarray]:
        tensor, resized = preprocess_for_detection(image_bgr, self.det_params)
        (prob,) = self._det.run([DET_OUTPUT], {DET_INPUT: tensor[None]})
        return boxes_from_probability(prob[0, 0], resized, image_bgr.shape[:2], self.det_params)

    def __call__(self, image_bgr: np.ndarray) -> list[RecognizedLine]:
        boxes = self.detect(image_bgr)
        plan = plan_recognition(image_bgr, boxes, self.rec_params)
        outputs = [REC_INDICES, REC_PROBS]
        results = [tuple(self._rec.run(outputs, {REC_INPUT: batch})) for batch in plan.batches]
        return finish_recognition(boxes, plan, results, self._keys, self.rec_params)
