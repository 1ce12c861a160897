"""The whole pipeline in this process through ONNX Runtime: the reference engine and the baseline's."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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
from scanner_app.ocr.detect import boxes_from_probability, preprocess_for_detection
from scanner_app.ocr.documents import DocumentParams, split_documents
from scanner_app.ocr.engine import RecognizedLine
from scanner_app.ocr.orientation import Models, OrientationParams, read_page
from scanner_app.ocr.params import DetParams, RecParams


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
