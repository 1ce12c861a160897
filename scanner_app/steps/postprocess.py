"""ocr_postprocess: probability map -> boxes -> crops -> recognition by BLS -> lines."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import numpy as np
import triton_python_backend_utils as pb_utils

from scanner_app.contract import (
    BOXES_OUTPUT,
    DET_OUTPUT,
    IMAGE_SIZE_OUTPUT,
    KEYS_FILE,
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
from scanner_app.ocr.engine import Line, finish_recognition, plan_recognition
from scanner_app.ocr.params import RecParams
from scanner_app.steps.common import det_params_from, error_response, model_config, parameter


class RecognitionError(RuntimeError):
    """A BLS call to the recognition model failed."""


class TritonPythonModel:
    """DB post-processing, perspective crops, recognition in width-bucket chunks, CTC decoding."""

    def initialize(self, args: dict[str, Any]) -> None:
        config = model_config(args)
        self.det_params = det_params_from(config)
        self.rec_params = RecParams(max_batch=int(parameter(config, "rec_max_batch", "16")))
        keys_path = Path(args["model_repository"]).parent / RECOGNITION_MODEL / KEYS_FILE
        self.keys = json.loads(keys_path.read_text(encoding="utf-8"))

    async def execute(self, requests: list[Any]) -> list[Any]:
        return [await self._one(request) for request in requests]

    async def _one(self, request: Any) -> Any:
        prob = pb_utils.get_input_tensor_by_name(request, DET_OUTPUT).as_numpy()[0, 0]
        image = pb_utils.get_input_tensor_by_name(request, ORIGINAL_IMAGE).as_numpy()[0]
        info = pb_utils.get_input_tensor_by_name(request, RESIZE_INFO).as_numpy()[0].astype(int)
        boxes = boxes_from_probability(prob, (info[2], info[3]), (info[0], info[1]), self.det_params)
        try:
            lines = await self._recognize(image, boxes)
        except RecognitionError as exc:
            return error_response(str(exc), invalid_argument=False)
        return pb_utils.InferenceResponse(output_tensors=_line_tensors(lines, image.shape[:2]))

    async def _recognize(self, image: np.ndarray, boxes: list[np.ndarray]) -> list[Line]:
        plan = plan_recognition(image, boxes, self.rec_params)
        calls = [
            pb_utils.InferenceRequest(
                model_name=RECOGNITION_MODEL,
                requested_output_names=[REC_INDICES, REC_PROBS],
                inputs=[pb_utils.Tensor(REC_INPUT, batch)],
            ).async_exec()
            for batch in plan.batches
        ]
        results = []
        for response in await asyncio.gather(*calls):
            if response.has_error():
                raise RecognitionError(f"{RECOGNITION_MODEL} failed: {response.error().message()}")
            results.append(
                (
                    pb_utils.get_output_tensor_by_name(response, REC_INDICES).as_numpy(),
                    pb_utils.get_output_tensor_by_name(response, REC_PROBS).as_numpy(),
                )
            )
        return finish_recognition(boxes, plan, results, self.keys, self.rec_params)


def _line_tensors(lines: list[Line], image_size: tuple[int, int]) -> list[Any]:
    boxes = np.array([line.box for line in lines], dtype=np.float32).reshape(1, len(lines), 4, 2)
    texts = np.array([line.text.encode("utf-8") for line in lines], dtype=np.object_).reshape(1, len(lines))
    scores = np.array([line.score for line in lines], dtype=np.float32).reshape(1, len(lines))
    return [
        pb_utils.Tensor(BOXES_OUTPUT, boxes),
        pb_utils.Tensor(TEXTS_OUTPUT, texts),
        pb_utils.Tensor(SCORES_OUTPUT, scores),
        pb_utils.Tensor(IMAGE_SIZE_OUTPUT, np.array([image_size], dtype=np.int32)),
    ]
