"""ocr_preprocess: encoded image bytes -> detection tensor in its shape bucket + the decoded image."""

from __future__ import annotations

from typing import Any

import numpy as np
import triton_python_backend_utils as pb_utils

from scanner_app.contract import DET_INPUT, IMAGE_INPUT, ORIGINAL_IMAGE, RESIZE_INFO
from scanner_app.ocr.decode import ImageDecodeError, decode_sized
from scanner_app.ocr.detect import preprocess_for_detection
from scanner_app.steps.common import abandoned_response, det_params_from, error_response, model_config
from scanner_app.steps.heap import stub_malloc


class TritonPythonModel:
    """Decode, EXIF-rotate, resize and normalise; one response per request, errors per request."""

    def initialize(self, args: dict[str, Any]) -> None:
        stub_malloc()  # the server fixed glibc's mmap threshold for itself (steps/heap.py)
        self.params = det_params_from(model_config(args))

    def execute(self, requests: list[Any]) -> list[Any]:
        return [self._one(request) for request in requests]

    def _one(self, request: Any) -> Any:
        abandoned = abandoned_response(request)
        if abandoned is not None:
            return abandoned
        encoded = pb_utils.get_input_tensor_by_name(request, IMAGE_INPUT).as_numpy().reshape(-1)
        if encoded.size != 1:
            return error_response(f"{IMAGE_INPUT} must hold exactly one encoded image, got {encoded.size}")
        data = encoded[0]
        if isinstance(data, str):
            data = data.encode("latin-1")
        try:
            decoded = decode_sized(bytes(data))  # checks bytes and pixels from the header first
        except ImageDecodeError as exc:
            return error_response(f"cannot decode {IMAGE_INPUT}: {exc}")
        image = decoded.pixels  # downscaled within MAX_WORK_PIXELS; boxes are scaled back
        tensor, (resized_h, resized_w) = preprocess_for_detection(image, self.params)
        info = np.array([[decoded.height, decoded.width, resized_h, resized_w]], dtype=np.float32)
        return pb_utils.InferenceResponse(
            output_tensors=[
                pb_utils.Tensor(DET_INPUT, tensor[None]),
                pb_utils.Tensor(ORIGINAL_IMAGE, image[None]),
                pb_utils.Tensor(RESIZE_INFO, info),
            ]
        )
