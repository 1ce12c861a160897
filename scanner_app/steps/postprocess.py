"""ocr_postprocess: probability map -> boxes -> orientation -> crops -> recognition by BLS -> lines.

The page's orientation is found and undone here (scanner_app.ocr.orientation): a turned page is
turned upright in pixels and detected again by BLS; doubtful lines are checked one by one.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import triton_python_backend_utils as pb_utils

from scanner_app.contract import (
    BOXES_OUTPUT,
    CLS_INPUT,
    CLS_PROBS,
    DET_INPUT,
    DET_OUTPUT,
    DETECTION_MODEL,
    DOCUMENTS_OUTPUT,
    IMAGE_SIZE_OUTPUT,
    KEYS_FILE,
    LINE_DOCUMENTS_OUTPUT,
    ORIENTATION_MODEL,
    ORIENTATION_OUTPUT,
    ORIGINAL_IMAGE,
    REC_INDICES,
    REC_INPUT,
    REC_PROBS,
    RECOGNITION_MODEL,
    RESIZE_INFO,
    SCORES_OUTPUT,
    TEXTS_OUTPUT,
)
from scanner_app.ocr.detect import boxes_from_probability
from scanner_app.ocr.documents import DocumentParams, split_documents
from scanner_app.ocr.engine import RecognizedLine
from scanner_app.ocr.line_ink import InkParams
from scanner_app.ocr.orientation import Models, OrientationParams, read_page
from scanner_app.ocr.params import RecParams
from scanner_app.steps.common import (
    abandoned_response,
    det_params_from,
    error_response,
    model_config,
    parameter,
)
from scanner_app.steps.heap import stub_malloc
from scanner_app.steps.limits import check_postprocess


class RecognitionError(RuntimeError):
    """A BLS call to the recognition, detection or orientation model failed."""


class TritonPythonModel:
    """DB post-processing, perspective crops, recognition in width-bucket chunks, CTC decoding."""

    def initialize(self, args: dict[str, Any]) -> None:
        stub_malloc()  # the server fixed glibc's mmap threshold for itself (steps/heap.py)
        config = model_config(args)
        self.det_params = det_params_from(config)
        self.rec_params = RecParams(max_batch=int(parameter(config, "rec_max_batch", "16")))
        keys_path = Path(args["model_repository"]).parent / RECOGNITION_MODEL / KEYS_FILE
        self.keys = json.loads(keys_path.read_text(encoding="utf-8"))
        # "off" reads every page as sent (the before of benchmarks/orientation.py).
        self.orientation = OrientationParams(enabled=parameter(config, "orientation", "on") != "off")
        # "off": every page is one document (no search for receipts on a bed).
        # "marks" "off": lines in another ink (pen notes) stay the page's lines (ocr.line_ink).
        self.documents = DocumentParams(
            enabled=parameter(config, "documents", "on") != "off",
            ink=InkParams(enabled=parameter(config, "marks", "on") != "off"),
        )
        self.models = Models(detect=self._detect, classify=self._classify, recognize=self._recognize_batch)

    async def execute(self, requests: list[Any]) -> list[Any]:
        return [await self._one(request) for request in requests]

    async def _one(self, request: Any) -> Any:
        abandoned = abandoned_response(request)
        if abandoned is not None:
            return abandoned
        prob = pb_utils.get_input_tensor_by_name(request, DET_OUTPUT).as_numpy()
        image = pb_utils.get_input_tensor_by_name(request, ORIGINAL_IMAGE).as_numpy()
        raw_info = pb_utils.get_input_tensor_by_name(request, RESIZE_INFO).as_numpy()
        problem = check_postprocess(prob, image, raw_info)  # before any work
        if problem:
            return error_response(problem)
        prob, image, info = prob[0, 0], image[0], raw_info[0].astype(int)
        boxes = boxes_from_probability(prob, (info[2], info[3]), image.shape[:2], self.det_params)
        asked = _request_parameters(request)
        # "orientation" / "documents" = "off" in a request reads that page as before issue 11.
        orientation = replace(
            self.orientation, enabled=_switch(asked, "orientation", self.orientation.enabled)
        )
        documents = replace(
            self.documents,
            enabled=_switch(asked, "documents", self.documents.enabled),
            ink=replace(self.documents.ink, enabled=_switch(asked, "marks", self.documents.ink.enabled)),
        )
        try:
            page = await read_page(
                image, boxes, self.models, self.det_params, self.rec_params, self.keys, orientation
            )
        except RecognitionError as exc:
            return error_response(str(exc), invalid_argument=False)
        docs = split_documents(image, page.lines, page.orientation, documents)
        sent_size = (int(info[0]), int(info[1]))  # the image as sent: `image` may be downscaled
        tensors = _line_tensors(_rescaled(docs.lines, image.shape[:2], sent_size), sent_size)
        outline_lines = [RecognizedLine(box=box, text="", score=0.0) for box in docs.outlines]
        outlines = [line.box for line in _rescaled(outline_lines, image.shape[:2], sent_size)]
        owners = np.array(docs.line_documents, dtype=np.int32).reshape(1, -1)
        tensors += [
            pb_utils.Tensor(ORIENTATION_OUTPUT, np.array([[page.orientation]], dtype=np.int32)),
            pb_utils.Tensor(DOCUMENTS_OUTPUT, np.array(outlines, dtype=np.float32).reshape(1, -1, 4, 2)),
            pb_utils.Tensor(LINE_DOCUMENTS_OUTPUT, owners),
        ]
        return pb_utils.InferenceResponse(output_tensors=tensors)

    async def _recognize_batch(self, batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        indices, probs = await _call(RECOGNITION_MODEL, REC_INPUT, batch, (REC_INDICES, REC_PROBS))
        return indices, probs

    async def _classify(self, batch: np.ndarray) -> np.ndarray:
        (probs,) = await _call(ORIENTATION_MODEL, CLS_INPUT, batch, (CLS_PROBS,))
        return probs

    async def _detect(self, batch: np.ndarray) -> np.ndarray:
        (prob,) = await _call(DETECTION_MODEL, DET_INPUT, batch, (DET_OUTPUT,))
        return prob


def _request_parameters(request: Any) -> dict[str, Any]:
    """The request's own parameters (an ensemble forwards the client's to each step), {} when none."""
    raw = getattr(request, "parameters", None)
    try:
        asked = json.loads(raw() or "{}") if raw is not None else {}
    except ValueError:
        return {}
    return asked if isinstance(asked, dict) else {}


def _switch(asked: dict[str, Any], key: str, default: bool) -> bool:
    """A request's "on"/"off" for `key` (orientation, documents, marks), else the model's setting."""
    value = str(asked.get(key, "")).lower()
    return {"on": True, "off": False}.get(value, default)


async def _call(model: str, input_name: str, batch: np.ndarray, outputs: tuple[str, ...]) -> list[np.ndarray]:
    """One BLS call; its outputs as arrays, or RecognitionError naming the model."""
    response = await pb_utils.InferenceRequest(
        model_name=model,
        requested_output_names=list(outputs),
        inputs=[pb_utils.Tensor(input_name, np.ascontiguousarray(batch))],
    ).async_exec()
    if response.has_error():
        raise RecognitionError(f"{model} failed: {response.error().message()}")
    return [pb_utils.get_output_tensor_by_name(response, name).as_numpy() for name in outputs]


def _rescaled(
    lines: list[RecognizedLine], decoded: tuple[int, int], sent: tuple[int, int]
) -> list[RecognizedLine]:
    """Boxes from the decoded image's pixels into the pixels of the image as sent."""
    if decoded == sent:
        return lines
    scale = np.array([sent[1] / decoded[1], sent[0] / decoded[0]], dtype=np.float32)
    return [replace(line, box=np.asarray(line.box, dtype=np.float32) * scale) for line in lines]


def _line_tensors(lines: list[RecognizedLine], image_size: tuple[int, int]) -> list[Any]:
    boxes = np.array([line.box for line in lines], dtype=np.float32).reshape(1, len(lines), 4, 2)
    texts = np.array([line.text.encode("utf-8") for line in lines], dtype=np.object_).reshape(1, len(lines))
    scores = np.array([line.score for line in lines], dtype=np.float32).reshape(1, len(lines))
    return [
        pb_utils.Tensor(BOXES_OUTPUT, boxes),
        pb_utils.Tensor(TEXTS_OUTPUT, texts),
        pb_utils.Tensor(SCORES_OUTPUT, scores),
        pb_utils.Tensor(IMAGE_SIZE_OUTPUT, np.array([image_size], dtype=np.int32)),
    ]
