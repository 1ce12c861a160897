"""Input limits of each inner model, checked before any work (pure: no Triton import).

Every composing model is reachable by any client, not only through the pipeline, so each one
checks what it was sent against the limits in scanner_app.contract. A check returns the message
for an INVALID_ARGUMENT answer, naming the limit, or None when the input is within limits.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from scanner_app import contract
from scanner_app.ocr.params import REC_HEIGHT

Check = Callable[[np.ndarray], "str | None"]


def _over(what: str, value: int, limit_name: str) -> str:
    limit = getattr(contract, limit_name)
    return f"{what} is {value}, over the limit of {limit} ({limit_name})"


def check_bytes(name: str, array: np.ndarray) -> str | None:
    """Any inner tensor: at most MAX_TENSOR_BYTES."""
    if array.nbytes > contract.MAX_TENSOR_BYTES:
        return _over(f"{name} size in bytes", array.nbytes, "MAX_TENSOR_BYTES")
    return None


def check_detection(array: np.ndarray) -> str | None:
    """text_detection's input: UINT8 [batch, height, width, 3]."""
    name = contract.DET_INPUT
    if array.ndim != 4 or array.shape[3] != 3:
        return f"{name} must be [batch, height, width, 3], got {list(array.shape)}"
    batch, height, width = (int(v) for v in array.shape[:3])
    if batch > contract.MAX_DET_BATCH:
        return _over(f"{name} batch", batch, "MAX_DET_BATCH")
    if max(height, width) > contract.MAX_DET_SIDE:
        return _over(f"{name} side ({height}x{width})", max(height, width), "MAX_DET_SIDE")
    if batch * height * width > contract.MAX_DET_REQUEST_PIXELS:
        return _over(f"{name} batch x height x width", batch * height * width, "MAX_DET_REQUEST_PIXELS")
    return check_bytes(name, array)


def check_recognition(array: np.ndarray) -> str | None:
    """text_recognition's input: FP32 [batch, 3, 48, width]."""
    name = contract.REC_INPUT
    if array.ndim != 4 or array.shape[1] != 3 or array.shape[2] != REC_HEIGHT:
        return f"{name} must be [batch, 3, {REC_HEIGHT}, width], got {list(array.shape)}"
    batch, width = int(array.shape[0]), int(array.shape[3])
    if batch > contract.MAX_REC_BATCH:
        return _over(f"{name} batch", batch, "MAX_REC_BATCH")
    if width > contract.MAX_REC_WIDTH:
        return _over(f"{name} width", width, "MAX_REC_WIDTH")
    if batch * REC_HEIGHT * width > contract.MAX_REC_REQUEST_PIXELS:
        return _over(f"{name} batch x height x width", batch * REC_HEIGHT * width, "MAX_REC_REQUEST_PIXELS")
    return check_bytes(name, array)


def check_image(array: np.ndarray) -> str | None:
    """A decoded image handed between steps: UINT8 [1, height, width, 3] within the working size."""
    name = contract.ORIGINAL_IMAGE
    if array.ndim != 4 or array.shape[0] != 1 or array.shape[3] != 3:
        return f"{name} must be [1, height, width, 3], got {list(array.shape)}"
    height, width = int(array.shape[1]), int(array.shape[2])
    if max(height, width) > contract.MAX_IMAGE_SIDE:
        return _over(f"{name} side ({height}x{width})", max(height, width), "MAX_IMAGE_SIDE")
    if height * width > contract.MAX_WORK_PIXELS:
        return _over(f"{name} pixels ({height}x{width})", height * width, "MAX_WORK_PIXELS")
    return None


def check_postprocess(prob: np.ndarray, image: np.ndarray, info: np.ndarray) -> str | None:
    """ocr_postprocess's three inputs, and that they agree with each other."""
    if prob.ndim != 4 or prob.shape[:2] != (1, 1):
        return f"{contract.DET_OUTPUT} must be [1, 1, height, width], got {list(prob.shape)}"
    prob_h, prob_w = int(prob.shape[2]), int(prob.shape[3])
    if max(prob_h, prob_w) > contract.MAX_DET_SIDE:
        return _over(f"{contract.DET_OUTPUT} side ({prob_h}x{prob_w})", max(prob_h, prob_w), "MAX_DET_SIDE")
    problem = check_image(image)
    if problem:
        return problem
    if info.shape != (1, 4) or not np.all(np.isfinite(info)):
        return f"{contract.RESIZE_INFO} must be 4 finite numbers, got {list(info.shape)}"
    orig_h, orig_w, resized_h, resized_w = (int(v) for v in info[0])
    # The image as sent may be larger than the decoded one (downscaled within MAX_WORK_PIXELS).
    side = contract.MAX_IMAGE_SIDE
    if not (image.shape[1] <= orig_h <= side and image.shape[2] <= orig_w <= side):
        return (
            f"{contract.RESIZE_INFO} says the image is {orig_h}x{orig_w}, which does not fit "
            f"{contract.ORIGINAL_IMAGE} ({image.shape[1]}x{image.shape[2]}) and MAX_IMAGE_SIDE"
        )
    if not (0 < resized_h <= prob_h and 0 < resized_w <= prob_w):
        return (
            f"{contract.RESIZE_INFO} resized size {resized_h}x{resized_w} does not fit "
            f"{contract.DET_OUTPUT} ({prob_h}x{prob_w})"
        )
    return None


def check_classifier(array: np.ndarray) -> str | None:
    """The text-line orientation classifier's input: FP32 [batch, 3, 48, width]."""
    name = getattr(contract, "CLS_INPUT", "cls_input")
    if array.ndim != 4 or array.shape[1] != 3 or array.shape[2] != REC_HEIGHT:
        return f"{name} must be [batch, 3, {REC_HEIGHT}, width], got {list(array.shape)}"
    if array.shape[0] > contract.MAX_REC_BATCH:
        return _over(f"{name} batch", int(array.shape[0]), "MAX_REC_BATCH")
    if array.shape[3] > contract.MAX_REC_WIDTH:
        return _over(f"{name} width", int(array.shape[3]), "MAX_REC_WIDTH")
    return check_bytes(name, array)


def onnx_input_check(model_name: str) -> Check:
    """The check of the ONNX runner's input for `model_name` (the runner serves every ONNX model)."""
    checks: dict[str, Check] = {
        contract.DETECTION_MODEL: check_detection,
        contract.RECOGNITION_MODEL: check_recognition,
        getattr(contract, "ORIENTATION_MODEL", "textline_orientation"): check_classifier,
    }
    return checks.get(model_name, lambda array: check_bytes(model_name, array))
