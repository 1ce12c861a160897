"""The pipeline's orchestration, shared by the Triton steps and the in-process engine."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from scanner_app.contract import (
    CLS_INPUT,
    CLS_PROBS,
    DET_INPUT,
    DET_OUTPUT,
    REC_INDICES,
    REC_INPUT,
    REC_PROBS,
)
from scanner_app.ocr.detect import boxes_from_probability, fit_box, page_line_height, preprocess_for_detection
from scanner_app.ocr.order import reading_order
from scanner_app.ocr.params import DetParams, RecParams
from scanner_app.ocr.recognize import crop_text_line, ctc_decode, plan_batches, preprocess_for_recognition

if TYPE_CHECKING:  # imported where used: orientation and documents build on this module
    from scanner_app.ocr.documents import DocumentParams
    from scanner_app.ocr.orientation import OrientationParams


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
    the box fitted to its text (detect.fit_box; the crop box is what was recognised)."""
    kept = [i for i in reading_order(boxes) if decoded[i][0].strip() and decoded[i][1] >= params.drop_score]
    page_height = page_line_height([boxes[i] for i in kept])
    return [
        RecognizedLine(
            box=fit_box(boxes[i], page_height, params.box_fit), text=decoded[i][0], score=decoded[i][1]
        )
        for i in kept
    ]


@dataclass(frozen=True)
class EngineRead:
    """One page as the in-process engine read it: lines grouped document by document, the page's
    angle (as ORIENTATION) and the documents' outlines with each line's document (as DOCUMENTS)."""

    lines: list[RecognizedLine]
    orientation: int = 0
    outlines: tuple[np.ndarray, ...] = ()
    line_documents: tuple[int, ...] = ()


class InProcessEngine:
    """The whole pipeline in this process through ONNX Runtime: the reference and the baseline.

    With ``cls_model`` (the text-line orientation classifier) it finds and undoes the page's
    orientation as the server does (scanner_app.ocr.orientation); documents on a bed are found as
    the server does (scanner_app.ocr.documents). Both follow their params' ``enabled``.
    """

    def __init__(
        self,
        det_model: str,
        rec_model: str,
        keys: Sequence[str],
        det_params: DetParams | None = None,
        rec_params: RecParams | None = None,
        threads: int = 0,
        providers: Sequence[Any] = ("CPUExecutionProvider",),
        cls_model: str | None = None,
        orientation: OrientationParams | None = None,
        documents: DocumentParams | None = None,
    ) -> None:
        import onnxruntime as ort

        from scanner_app.ocr.documents import DocumentParams
        from scanner_app.ocr.orientation import OrientationParams

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        self._det = ort.InferenceSession(det_model, options, providers=list(providers))
        self._rec = ort.InferenceSession(rec_model, options, providers=list(providers))
        self._cls = ort.InferenceSession(cls_model, options, providers=list(providers)) if cls_model else None
        self._keys = list(keys)
        self.det_params = det_params or DetParams()
        self.rec_params = rec_params or RecParams()
        self.orientation = orientation or OrientationParams(enabled=self._cls is not None)
        if self.orientation.enabled and self._cls is None:
            raise ValueError("orientation needs the text-line orientation classifier (cls_model)")
        self.documents = documents or DocumentParams()

    def detect(self, image_bgr: np.ndarray) -> list[np.ndarray]:
        tensor, resized = preprocess_for_detection(image_bgr, self.det_params)
        (prob,) = self._det.run([DET_OUTPUT], {DET_INPUT: tensor[None]})
        return boxes_from_probability(prob[0, 0], resized, image_bgr.shape[:2], self.det_params)

    def read(self, image_bgr: np.ndarray) -> EngineRead:
        """The page read as the server reads it: orientation, lines, documents."""
        from scanner_app.ocr.documents import split_documents
        from scanner_app.ocr.orientation import Models, read_page

        boxes = self.detect(image_bgr)
        models = Models(detect=self._detect_tensor, classify=self._classify, recognize=self._recognize)
        keys = self._keys
        page = asyncio.run(
            read_page(image_bgr, boxes, models, self.det_params, self.rec_params, keys, self.orientation)
        )
        docs = split_documents(image_bgr, page.lines, page.orientation, self.documents)
        return EngineRead(docs.lines, page.orientation, tuple(docs.outlines), tuple(docs.line_documents))

    def __call__(self, image_bgr: np.ndarray) -> list[RecognizedLine]:
        return self.read(image_bgr).lines

    async def _detect_tensor(self, batch: np.ndarray) -> np.ndarray:
        (prob,) = self._det.run([DET_OUTPUT], {DET_INPUT: batch})
        return prob

    async def _recognize(self, batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        indices, probs = self._rec.run([REC_INDICES, REC_PROBS], {REC_INPUT: batch})
        return indices, probs

    async def _classify(self, batch: np.ndarray) -> np.ndarray:
        if self._cls is None:
            raise ValueError("no text-line orientation classifier loaded")
        (probs,) = self._cls.run([CLS_PROBS], {CLS_INPUT: batch})
        return probs

