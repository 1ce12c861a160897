"""The Triton client: one shared gRPC connection, a timeout on every call, errors mapped."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import tritonclient.grpc as grpcclient
from tritonclient.utils import InferenceServerException

from scanner_app.contract import (
    BOXES_OUTPUT,
    IMAGE_INPUT,
    IMAGE_SIZE_OUTPUT,
    PIPELINE_MODEL,
    SCORES_OUTPUT,
    TEXTS_OUTPUT,
)
from scanner_app.core.errors import (
    InferenceFailed,
    InvalidImage,
    ScannerError,
    ServerContractError,
    ServerUnavailable,
)
from scanner_app.core.results import PageResult, TextLine

_OUTPUTS = (BOXES_OUTPUT, TEXTS_OUTPUT, SCORES_OUTPUT, IMAGE_SIZE_OUTPUT)


@dataclass(frozen=True)
class PipelineInfo:
    """What the server said about the pipeline at connect time."""

    url: str
    server_version: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]


def map_error(exc: InferenceServerException, url: str) -> ScannerError:
    """Turn a tritonclient exception into the app's own error type."""
    status = (exc.status() or "").upper()
    message = exc.message() or str(exc)
    if "INVALID_ARG" in status:
        return InvalidImage(message)
    if "UNAVAILABLE" in status or "DEADLINE" in status:
        return ServerUnavailable(f"server {url} is unavailable: {message}")
    if "NOT_FOUND" in status or "unknown model" in message:
        return ServerContractError(f"server {url} has no model {PIPELINE_MODEL}: {message}")
    return InferenceFailed(f"server {url} failed: {message}")


class OcrClient:
    """A connection to one Triton server that serves ``ocr_pipeline``."""

    def __init__(self, url: str, timeout_s: float = 60.0) -> None:
        self.url = url
        self.timeout_s = timeout_s
        self._client = grpcclient.InferenceServerClient(url=url)

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> OcrClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def connect(self) -> PipelineInfo:
        """Check that the server is ready and its pipeline has the tensors this client uses."""
        try:
            if not self._client.is_server_ready(client_timeout=self.timeout_s):
                raise ServerUnavailable(f"server {self.url} is up but not ready")
            metadata = self._client.get_model_metadata(
                PIPELINE_MODEL, as_json=True, client_timeout=self.timeout_s
            )
            version = self._client.get_server_metadata(as_json=True, client_timeout=self.timeout_s)["version"]
        except InferenceServerException as exc:
            raise map_error(exc, self.url) from None
        inputs = tuple(t["name"] for t in metadata["inputs"])
        outputs = tuple(t["name"] for t in metadata["outputs"])
        missing = [name for name in (IMAGE_INPUT, *_OUTPUTS) if name not in inputs + outputs]
        if missing:
            raise ServerContractError(f"{PIPELINE_MODEL} on {self.url} lacks tensors {missing}")
        return PipelineInfo(url=self.url, server_version=version, inputs=inputs, outputs=outputs)

    def recognize(self, encoded: bytes, name: str = "") -> PageResult:
        """Send one encoded image; return its lines (boxes in the image's own pixels)."""
        request = grpcclient.InferInput(IMAGE_INPUT, [1, 1], "BYTES")
        request.set_data_from_numpy(np.array([[encoded]], dtype=np.object_))
        outputs = [grpcclient.InferRequestedOutput(name) for name in _OUTPUTS]
        started = time.perf_counter()
        try:
            response = self._client.infer(
                PIPELINE_MODEL, [request], outputs=outputs, client_timeout=self.timeout_s
            )
        except InferenceServerException as exc:
            raise map_error(exc, self.url) from None
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        return page_from_response(response, name, elapsed_ms)


def page_from_response(response: grpcclient.InferResult, name: str, elapsed_ms: float) -> PageResult:
    """Build a PageResult from the pipeline's output tensors."""
    boxes = response.as_numpy(BOXES_OUTPUT).reshape(-1, 4, 2)
    texts = response.as_numpy(TEXTS_OUTPUT).reshape(-1)
    scores = response.as_numpy(SCORES_OUTPUT).reshape(-1)
    height, width = (int(v) for v in response.as_numpy(IMAGE_SIZE_OUTPUT).reshape(-1))
    lines = tuple(
        TextLine(
            box=tuple((float(x), float(y)) for x, y in box),
            text=text.decode("utf-8") if isinstance(text, bytes) else str(text),
            score=float(score),
        )
        for box, text, score in zip(boxes, texts, scores, strict=True)
    )
    return PageResult(image=name, width=width, height=height, lines=lines, elapsed_ms=elapsed_ms)
