"""The Triton client: one shared gRPC channel, a deadline on every call, retries, errors mapped.

Only UNAVAILABLE and DEADLINE_EXCEEDED are retried (exponential backoff with jitter); TLS
handshake failures, refused images and unknown models never are. The options and the channel:
scanner_app.core.client.options; what connect() reports and checks: scanner_app.core.client.pipeline_info
(both re-exported here).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol, TypeVar

import numpy as np
import tritonclient.grpc as grpcclient
from tritonclient.utils import InferenceServerException

from scanner_app.contract import (
    ALL_MODELS,
    BOXES_OUTPUT,
    DOCUMENTS_OUTPUT,
    IMAGE_INPUT,
    IMAGE_SIZE_OUTPUT,
    LINE_DOCUMENTS_OUTPUT,
    ORIENTATION_OUTPUT,
    PIPELINE_MODEL,
    SCORES_OUTPUT,
    TEXTS_OUTPUT,
)
from scanner_app.core.client import tls as tlsmod
from scanner_app.core.client.options import ClientOptions
from scanner_app.core.client.options import _channel_args as _channel_args  # tests read it from here
from scanner_app.core.client.pipeline_info import (
    PIPELINE_INPUTS,
    PIPELINE_OUTPUTS,
    InstanceGroup,
    ModelFacts,
    PipelineInfo,
    TensorSpec,
    contract_problems,
    model_facts,
    tensor_spec,
)
from scanner_app.core.errors import (
    InferenceFailed,
    InvalidImage,
    ScannerError,
    ServerContractError,
    ServerTimeout,
    ServerUnavailable,
    TlsError,
)
from scanner_app.core.results import PageResult, TextLine, page_from_owned

__all__ = ["PIPELINE_INPUTS", "PIPELINE_OUTPUTS", "ClientOptions", "InstanceGroup", "ModelFacts", "OcrClient",
           "PipelineInfo", "Recognizer", "TensorSpec", "contract_problems", "map_error",
           "page_from_response"]  # fmt: skip

T = TypeVar("T")
# Read when the server has them (issue 11); a server without them: upright, one document per page.
# Requests name no outputs, so the server sends all it has and an older one still answers.
_OPTIONAL_OUTPUTS = (ORIENTATION_OUTPUT, DOCUMENTS_OUTPUT, LINE_DOCUMENTS_OUTPUT)


class Recognizer(Protocol):
    """What callers need: OcrClient and EndpointPool both have it."""

    def recognize(self, encoded: bytes, name: str = "") -> PageResult: ...

    def close(self) -> None: ...


def map_error(
    exc: InferenceServerException, url: str, tls: tlsmod.TlsSettings | None = None,
    model: str = PIPELINE_MODEL,
) -> ScannerError:  # fmt: skip
    """Turn a tritonclient exception from a call to `model` into the app's own error type."""
    status = (exc.status() or "").upper()
    message = exc.message() or str(exc)
    if "no available versions" in message:  # NOT_FOUND while the model loads or the server shuts down
        return ServerUnavailable(f"server {url} has no ready {model} (loading or stopping): {message}")
    if "NOT_FOUND" in status or "unknown model" in message.lower():
        return ServerContractError(f"server {url} has no model {model}: {message}")
    if "INVALID_ARG" in status:
        return InvalidImage(message)
    if "DEADLINE" in status:
        return ServerTimeout(f"server {url} did not answer in time ({message})")
    if "UNAVAILABLE" in status:
        human = tlsmod.explain(message, url, tls or tlsmod.TlsSettings())
        if human and tlsmod.is_handshake_failure(message):
            return TlsError(human)
        if human:
            return ServerUnavailable(f"{human} [{message}]")
        return ServerUnavailable(f"server {url} is unavailable: {message}")
    return InferenceFailed(f"server {url} failed: {message}")


class OcrClient:
    """A connection to one Triton server that serves ``ocr_pipeline``; safe to share between threads."""

    def __init__(
        self, url: str, options: ClientOptions | None = None, *, timeout_s: float | None = None
    ) -> None:
        """`timeout_s`, when given, overrides options.timeout_s (the older call style)."""
        options = options or ClientOptions()
        if timeout_s is not None:
            options = replace(options, timeout_s=timeout_s)
        self.url = url
        self.options = options
        self.timeout_s = options.timeout_s
        self.last_error: ScannerError | None = None
        self._lock = threading.Lock()
        self._attempts = 0
        self._client = options.grpc_client(url)

    @property
    def attempts(self) -> int:
        """RPC attempts made so far (every retry and probe counts)."""
        return self._attempts

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> OcrClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _call(
        self, method: Callable[..., T], *args: Any, retries: int | None = None, model: str = PIPELINE_MODEL,
        **kwargs: Any,
    ) -> T:  # fmt: skip
        """Call a tritonclient method about `model` with the deadline, retrying what is worth retrying."""
        retries = self.options.retries if retries is None else retries
        kwargs.setdefault("client_timeout", self.options.timeout_s)
        attempt = 0
        while True:
            with self._lock:
                self._attempts += 1
            try:
                return method(*args, **kwargs)
            except InferenceServerException as exc:
                error = map_error(exc, self.url, self.options.tls, model)
            self.last_error = error
            if not isinstance(error, ServerUnavailable) or attempt >= retries:
                if attempt:
                    error = type(error)(f"{error} (after {attempt + 1} attempts)")
                raise error
            time.sleep(self.options.backoff(attempt))
            attempt += 1

    def is_live(self, timeout_s: float | None = None) -> bool:
        """One probe, no retries: True when the server answers live."""
        return self._probe(self._client.is_server_live, timeout_s)

    def is_ready(self, timeout_s: float | None = None) -> bool:
        """One probe, no retries: True when the server and all its models are ready."""
        return self._probe(self._client.is_server_ready, timeout_s)

    def _probe(self, method: Callable[..., bool], timeout_s: float | None) -> bool:
        try:
            return bool(self._call(method, retries=0, client_timeout=timeout_s or self.options.timeout_s))
        except ScannerError:
            return False

    def connect(self) -> PipelineInfo:
        """Check that the server is ready and serves the pipeline this client expects; describe it."""
        if not self._call(self._client.is_server_ready):
            raise ServerUnavailable(f"server {self.url} is up but not ready (a model is loading or failed)")
        version = str(self._call(self._client.get_server_metadata, as_json=True).get("version", "?"))
        try:
            metadata = self._call(self._client.get_model_metadata, PIPELINE_MODEL, as_json=True)
        except ServerContractError:
            raise ServerContractError(
                f"server {self.url} does not serve {PIPELINE_MODEL}{self._served()}. "
                "Start it with this app's model_repository."
            ) from None
        inputs = tuple(tensor_spec(t) for t in metadata.get("inputs", []))
        outputs = tuple(tensor_spec(t) for t in metadata.get("outputs", []))
        problems = contract_problems(inputs, outputs)
        if problems:
            raise ServerContractError(
                f"{PIPELINE_MODEL} on {self.url} does not match this client: {'; '.join(problems)}. "
                "The server's model_repository is from another version of the app."
            )
        config = self._config(PIPELINE_MODEL)
        steps = [s["model_name"] for s in config.get("ensemble_scheduling", {}).get("step", [])]
        names = dict.fromkeys([*steps, *(m for m in ALL_MODELS if m != PIPELINE_MODEL)])
        models = []
        for name in names:
            try:
                models.append(model_facts(self._config(name)))
            except ServerContractError:
                if name in steps:
                    raise
        return PipelineInfo(
            url=self.url,
            server_version=version,
            tls=self.options.tls.enabled,
            inputs=inputs,
            outputs=outputs,
            pipeline=model_facts(config),
            models=tuple(models),
        )

    def _served(self) -> str:
        """' (it serves: a, b)', or '' where the model list is closed to clients (a restricted API)."""
        try:
            index = self._call(self._client.get_model_repository_index, as_json=True, retries=0)
        except ScannerError:
            return ""
        served = sorted({m["name"] for m in index.get("models", []) if m.get("state") == "READY"})
        return f" (it serves: {', '.join(served) or 'no models'})"

    def _config(self, model: str) -> dict[str, Any]:
        return self._call(self._client.get_model_config, model, as_json=True, model=model).get("config", {})

    def recognize(self, encoded: bytes, name: str = "") -> PageResult:
        """Send one encoded image; return its lines (boxes in the image's own pixels)."""
        request = grpcclient.InferInput(IMAGE_INPUT, [1, 1], "BYTES")
        request.set_data_from_numpy(np.array([[encoded]], dtype=np.object_))
        started = time.perf_counter()
        # The deadline also travels as the request's timeout: the server drops it once nobody waits.
        timeout_us = int(self.options.timeout_s * 1_000_000)
        response = self._call(self._client.infer, PIPELINE_MODEL, [request], timeout=timeout_us)
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
    angle, documents, owned = (response.as_numpy(key) for key in _OPTIONAL_OUTPUTS)
    orientation = int(angle.reshape(-1)[0]) if angle is not None else 0
    outlines = documents.reshape(-1, 4, 2) if documents is not None and owned is not None else []
    owners = owned.reshape(-1).tolist() if owned is not None else []
    boxes_of = [tuple((float(x), float(y)) for x, y in box) for box in outlines]
    return page_from_owned(name, (width, height), lines, owners, boxes_of, elapsed_ms, orientation)
