"""ocr_preprocess: encoded image bytes -> detection tensor in its shape bucket + the decoded image."""

from __future__ import annotations

from typing import Any

import numpy as np
import triton_python_backend_utils as pb_utils

from scanner_app.contract import DET_INPUT, IMAGE_INPUT, ORIGINAL_IMAGE, RESIZE_INFO
from scanner_app.ocr.decode import ImageDecodeError, decode_image
from scanner_app.ocr.detect import preprocess_for_detection
from scanner_app.steps.common import det_params_from, error_response, model_config


class TritonPythonModel:
    """Decode, EXIF-rotate, resize and normalise; one response per request, errors per request."""

    def initialize(self, args: dict[str, Any]) -> None:
        self.params = det_params_from(model_config(args))

    def execute(self, requests: list[Any]) -> list[Any]:
        return [self._one(request) for request in requests]

    def _one(self, request: Any) -> Any:
        encoded = pb_utils.get_input_tensor_by_name(request, IMAGE_INPUT).as_numpy().reshape(-1)
        if encoded.size != 1:
            return error_response(f"{IMAGE_INPUT} must hold exactly one encoded image, got {encoded.size}")
        data = encoded[0]
        if isinstance(data, str):
            data = data.encode("latin-1")
        try:
            image = decode_image(bytes(data))
        except ImageDecodeError as exc:
            return error_response(f"cannot decode {IMAGE_INPUT}: {exc}")
        tensor, (resized_h, resized_w) = preprocess_for_detection(image, self.params)
        info = np.array([[image.shape[0], image.shape[1], resized_h, resized_w]], dtype=np.float32)
        return pb_utils.InferenceResponse(
            output_tensors=[
                pb_utils.Tensor(DET_INPUT, tensor[None]),
                pb_utils.Tensor(ORIGINAL_IMAGE, image[None]),
                pb_utils.Tensor(RESIZE_INFO, info),
            ]
        )
