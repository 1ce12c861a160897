"""Helpers shared by the Triton Python steps: config parameters and error responses."""

from __future__ import annotations

import json
from typing import Any

import triton_python_backend_utils as pb_utils


def model_config(args: dict[str, Any]) -> dict[str, Any]:
    """The model's config as a dict (Triton passes it as JSON)."""
    return json.loads(args["model_config"])


def parameter(config: dict[str, Any], key: str, default: str) -> str:
    """A string parameter from the config's ``parameters`` block."""
    entry = config.get("parameters", {}).get(key)
    return entry["string_value"] if entry else default


def error_response(message: str, invalid_argument: bool = True) -> Any:
    """An InferenceResponse that carries an error (INVALID_ARG for bad input)."""
    code = getattr(pb_utils.TritonError, "INVALID_ARG" if invalid_argument else "INTERNAL", None)
    error = pb_utils.TritonError(message, code) if code is not None else pb_utils.TritonError(message)
    return pb_utils.InferenceResponse(output_tensors=[], error=error)


def abandoned_response(request: Any) -> Any | None:
    """An error response when the client gave up on `request` (cancelled, or past its deadline), else None.

    Checked before each step's work, so requests nobody waits for any more are dropped.
    """
    is_cancelled = getattr(request, "is_cancelled", None)
    if is_cancelled is None or not is_cancelled():
        return None
    code = getattr(pb_utils.TritonError, "CANCELLED", None)
    message = "request cancelled: the client gave up on it"
    error = pb_utils.TritonError(message, code) if code is not None else pb_utils.TritonError(message)
    return pb_utils.InferenceResponse(output_tensors=[], error=error)


def det_params_from(config: dict[str, Any]) -> Any:
    """DetParams from the config's parameters (the same keys in every step that needs them)."""
    from scanner_app.ocr.params import DetParams

    defaults = DetParams()
    return DetParams(
        limit_side_len=int(parameter(config, "det_limit_side_len", str(defaults.limit_side_len))),
        min_side_len=int(parameter(config, "det_min_side_len", str(defaults.min_side_len))),
        bucket_step=int(parameter(config, "det_bucket_step", str(defaults.bucket_step))),
    )
