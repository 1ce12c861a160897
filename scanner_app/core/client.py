"""The Triton client: one shared gRPC channel, a deadline on every call, retries, errors mapped.

Only UNAVAILABLE and DEADLINE_EXCEEDED are retried (exponential backoff with jitter); TLS
handshake failures, refused images and unknown models never are.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
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
from scanner_app.core import tls as tlsmod
from scanner_app.core.errors import (
    InferenceFailed,
    InvalidImage,
    ScannerError,
    ServerContractError,
    ServerTimeout,
    ServerUnavailable,
    TlsError,
)
from scanner_app.core.results import PageResult, Receipt, TextLine

T = TypeVar("T")
# Read when the server has them (issue 11); a server without them: upright, one document per page.
# Requests name no outputs, so the server sends all it has and an older one still answers.
_OPTIONAL_OUTPUTS = (ORIENTATION_OUTPUT, DOCUMENTS_OUTPUT, LINE_DOCUMENTS_OUTPUT)


@dataclass(frozen=True)
class ClientOptions:
    """How the client talks to a server. TLS is on when `ssl` is set or any PEM file is given."""

    timeout_s: float = 60.0  # deadline of each call (each attempt)
    retries: int = 3  # extra attempts after UNAVAILABLE / DEADLINE_EXCEEDED
    backoff_base_s: float = 0.25  # first retry waits 0.5-1 x this, doubling up to backoff_max_s
    backoff_max_s: float = 2.0  # also caps gRPC's own reconnect backoff
    ssl: bool = False  # TLS with the system CAs when no root_certificates is given
    root_certificates: Path | None = None
    private_key: Path | None = None
    certificate_chain: Path | None = None
    ssl_target_name: str | None = None  # check the server certificate against this name

    def __post_init__(self) -> None:
        if self.timeout_s <= 0 or self.retries < 0 or self.backoff_base_s < 0:
            raise ValueError("timeout_s must be > 0, retries and backoff_base_s >= 0")
        if self.backoff_max_s < self.backoff_base_s:
            raise ValueError("backoff_max_s must be >= backoff_base_s")

    @property
    def tls(self) -> tlsmod.TlsSettings:
        files = (self.root_certificates, self.private_key, self.certificate_chain)
        return tlsmod.TlsSettings(
            enabled=self.ssl or any(f is not None for f in files),
            root_certificates=_path(self.root_certificates),
            private_key=_path(self.private_key),
            certificate_chain=_path(self.certificate_chain),
            target_name=self.ssl_target_name,
        )

    def grpc_client(self, url: str) -> grpcclient.InferenceServerClient:
        """The one way to open a tritonclient gRPC client: TLS files checked, name override, reconnects."""
        tls = self.tls
        if tls.enabled:
            tlsmod.check_files(tls)
        return grpcclient.InferenceServerClient(
            url=url,
            ssl=tls.enabled,
            root_certificates=_text(tls.root_certificates),
            private_key=_text(tls.private_key),
            certificate_chain=_text(tls.certificate_chain),
            channel_args=_channel_args(self),
        )

    def backoff(self, retry: int) -> float:
        """Seconds to wait before retry number `retry` (0-based): capped doubling, 50-100 % of it."""
        delay = min(self.backoff_max_s, self.backoff_base_s * 2.0**retry)
        return delay * random.uniform(0.5, 1.0)


def _path(value: Path | str | None) -> Path | None:
    return None if value is None else Path(value)


def _text(path: Path | None) -> str | None:
    return None if path is None else str(path)


@dataclass(frozen=True)
class TensorSpec:
    """A tensor as the client sends or reads it: shape with the batch dimension, -1 = any."""

    name: str
    datatype: str
    shape: tuple[int, ...]


@dataclass(frozen=True)
class InstanceGroup:
    kind: str  # KIND_CPU, KIND_GPU, KIND_MODEL, KIND_AUTO
    count: int
    gpus: tuple[int, ...] = ()


@dataclass(frozen=True)
class ModelFacts:
    """Scheduling facts of one model, from its configuration on the server."""

    name: str
    backend: str  # backend or platform: "python", "onnxruntime", "ensemble", ...
    max_batch_size: int
    dynamic_batching: bool
    instance_groups: tuple[InstanceGroup, ...]


@dataclass(frozen=True)
class PipelineInfo:
    """What the server said about the pipeline at connect time."""

    url: str
    server_version: str
    tls: bool
    inputs: tuple[TensorSpec, ...]
    outputs: tuple[TensorSpec, ...]
    pipeline: ModelFacts
    models: tuple[ModelFacts, ...]  # ensemble steps in order, then models they call (recognition)


# The pipeline as this client uses it: a batch of one image in, one page out.
PIPELINE_INPUTS = (TensorSpec(IMAGE_INPUT, "BYTES", (1, 1)),)
PIPELINE_OUTPUTS = (
    TensorSpec(BOXES_OUTPUT, "FP32", (1, -1, 4, 2)),
    TensorSpec(TEXTS_OUTPUT, "BYTES", (1, -1)),
    TensorSpec(SCORES_OUTPUT, "FP32", (1, -1)),
    TensorSpec(IMAGE_SIZE_OUTPUT, "INT32", (1, 2)),
)


class Recognizer(Protocol):
    """What callers need: OcrClient and EndpointPool both have it."""

    def recognize(self, encoded: bytes, name: str = "") -> PageResult: ...

    def close(self) -> None: ...


def contract_problems(inputs: Sequence[TensorSpec], outputs: Sequence[TensorSpec]) -> list[str]:
    """How the server's pipeline tensors differ from PIPELINE_INPUTS/OUTPUTS (empty when they fit)."""
    problems = []
    for kind, expected, served in (("input", PIPELINE_INPUTS, inputs), ("output", PIPELINE_OUTPUTS, outputs)):
        by_name = {t.name: t for t in served}
        for want in expected:
            got = by_name.get(want.name)
            if got is None:
                problems.append(f"no {kind} {want.name}")
            elif got.datatype != want.datatype:
                problems.append(f"{kind} {want.name} is {got.datatype}, expected {want.datatype}")
            elif len(got.shape) != len(want.shape) or any(
                w != -1 and g != -1 and w != g for w, g in zip(want.shape, got.shape, strict=True)
            ):
                problems.append(
                    f"{kind} {want.name} has shape {list(got.shape)}, expected {list(want.shape)}"
                )
    extra = sorted({t.name for t in inputs} - {t.name for t in PIPELINE_INPUTS})
    if extra:
        problems.append(f"extra inputs {extra} that this client does not send")
    return problems


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


def _channel_args(options: ClientOptions) -> list[tuple[str, Any]]:
    """tritonclient's default channel arguments, plus a short reconnect backoff and the name override."""
    keep = grpcclient.KeepAliveOptions()
    args: list[tuple[str, Any]] = [
        ("grpc.max_send_message_length", grpcclient.MAX_GRPC_MESSAGE_SIZE),
        ("grpc.max_receive_message_length", grpcclient.MAX_GRPC_MESSAGE_SIZE),
        ("grpc.keepalive_time_ms", keep.keepalive_time_ms),
        ("grpc.keepalive_timeout_ms", keep.keepalive_timeout_ms),
        ("grpc.keepalive_permit_without_calls", keep.keepalive_permit_without_calls),
        ("grpc.http2.max_pings_without_data", keep.http2_max_pings_without_data),
        # gRPC otherwise waits up to 120 s before reconnecting to a server that was down.
        ("grpc.initial_reconnect_backoff_ms", max(100, int(options.backoff_base_s * 1000))),
        ("grpc.max_reconnect_backoff_ms", max(100, int(options.backoff_max_s * 1000))),
    ]
    if options.ssl_target_name:
        args.append(("grpc.ssl_target_name_override", options.ssl_target_name))
    return args


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
        inputs = tuple(_tensor(t) for t in metadata.get("inputs", []))
        outputs = tuple(_tensor(t) for t in metadata.get("outputs", []))
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
                models.append(_facts(self._config(name)))
            except ServerContractError:
                if name in steps:
                    raise
        return PipelineInfo(
            url=self.url,
            server_version=version,
            tls=self.options.tls.enabled,
            inputs=inputs,
            outputs=outputs,
            pipeline=_facts(config),
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
        response = self._call(
            self._client.infer, PIPELINE_MODEL, [request], timeout=timeout_us
        )
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        return page_from_response(response, name, elapsed_ms)


def _tensor(meta: dict[str, Any]) -> TensorSpec:
    return TensorSpec(str(meta["name"]), str(meta["datatype"]), tuple(int(d) for d in meta.get("shape", [])))


def _facts(config: dict[str, Any]) -> ModelFacts:
    groups = tuple(
        InstanceGroup(
            kind=str(g.get("kind", "KIND_AUTO")),
            count=int(g.get("count", 1)),
            gpus=tuple(int(x) for x in g.get("gpus", [])),
        )
        for g in config.get("instance_group", [])
    )
    return ModelFacts(
        name=str(config.get("name", "")),
        backend=str(config.get("backend") or config.get("platform") or ""),
        max_batch_size=int(config.get("max_batch_size", 0)),
        dynamic_batching="dynamic_batching" in config,
        instance_groups=groups,
    )


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
    receipts: tuple[Receipt, ...] = ()
    if len(outlines) > 1:  # one document is the whole page: the default
        receipts = tuple(
            Receipt(
                tuple((float(x), float(y)) for x, y in box), tuple(i for i, d in enumerate(owners) if d == k)
            )
            for k, box in enumerate(outlines)
        )
    return PageResult(name, width, height, lines, elapsed_ms, orientation, receipts)
