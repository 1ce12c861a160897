"""What a load run sends: the whole pipeline, or the detection or recognition model alone.

Every target holds realistic inputs made by the app's own code from real images: encoded files
for the pipeline, det_input tensors from the real preprocessing for detection, and rec_input
crop batches from the real detection + cropping for recognition. `take_golden` records each
input's response at concurrency 1; `check` compares a later response with it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import tritonclient.grpc as grpcclient
from tritonclient.utils import InferenceServerException

from scanner_app.contract import (
    DET_INPUT,
    DET_OUTPUT,
    DETECTION_MODEL,
    PIPELINE_MODEL,
    REC_INDICES,
    REC_INPUT,
    RECOGNITION_MODEL,
)
from scanner_app.core.client.endpoints import EndpointPool
from scanner_app.core.client.triton import ClientOptions, OcrClient, map_error
from scanner_app.core.results import PageResult
from scanner_app.load.baseline_target import BaselineTarget
from scanner_app.load.golden import GoldenTarget, Timed
from scanner_app.ocr.decode import decode_image
from scanner_app.ocr.detect import boxes_from_probability, preprocess_for_detection
from scanner_app.ocr.engine import plan_recognition
from scanner_app.ocr.params import DetParams, RecParams

KINDS = ("pipeline", "detection", "recognition", "baseline")
BOX_TOLERANCE_PX = 3.0  # pipeline: a box may move this much and still match its golden
PROB_TOLERANCE = 2  # detection: map values (0..255) may differ this much ...
PROB_OUTLIERS = 1e-3  # ... except in at most this fraction of the pixels
REC_OUTLIERS = 5e-3  # recognition: fraction of time steps whose best class may differ


class Target(Protocol):
    """Something a load run can send numbered inputs to and check the responses of."""

    name: str  # "pipeline" | "detection" | "recognition" | "baseline"
    url: str

    def send(self, index: int) -> Any: ...  # blocking, thread-safe; input number index % len(inputs)

    def check(self, index: int, response: Any) -> bool: ...  # True when it matches that input's golden

    def take_golden(self) -> None: ...  # at concurrency 1, records golden responses for every input

    def close(self) -> None: ...


def load_options(options: ClientOptions | None) -> ClientOptions:
    """Load runs make one attempt per request, as perf_analyzer does: a failure is a failure."""
    return replace(options or ClientOptions(timeout_s=120.0), retries=0)


class PipelineTarget(GoldenTarget):
    """The whole pipeline as the app calls it (OcrClient, or EndpointPool over several servers)."""

    name = "pipeline"
    model = PIPELINE_MODEL

    def __init__(self, urls: Sequence[str], images: Sequence[bytes], options: ClientOptions | None = None):
        self.images = list(images)
        super().__init__(len(self.images))
        self.url = ",".join(urls)
        options = load_options(options)
        self._client = EndpointPool(urls, options) if len(urls) > 1 else OcrClient(urls[0], options)

    def send(self, index: int) -> Timed:
        started = time.perf_counter()
        page = self._client.recognize(self.images[index % self.count], f"input-{index % self.count}")
        outside = max(0.0, time.perf_counter() - started - page.elapsed_ms / 1000.0)
        return Timed(page, client_send_s=outside)  # request building and page decoding, together

    def _same(self, golden: PageResult, page: PageResult) -> bool:
        if [line.text for line in golden.lines] != [line.text for line in page.lines]:
            return False
        if (golden.width, golden.height) != (page.width, page.height):
            return False
        if not golden.lines:
            return True
        a = np.array([line.box for line in golden.lines], dtype=np.float64)
        b = np.array([line.box for line in page.lines], dtype=np.float64)
        return bool(np.abs(a - b).max() <= BOX_TOLERANCE_PX)

    def close(self) -> None:
        self._client.close()


class _TensorTarget(GoldenTarget):
    """One model called with ready-made tensors through tritonclient (shared, thread-safe client).

    The requests are built once, as perf_analyzer loads its data once: the client spends its CPU
    on sending, not on copying the same tensors again (the server shares this machine's cores).
    """

    input_name = ""
    output_name = ""
    datatype = ""

    def __init__(self, url: str, tensors: Sequence[np.ndarray], options: ClientOptions | None, model: str):
        self.tensors = [np.ascontiguousarray(t) for t in tensors]
        super().__init__(len(self.tensors))
        self.url = url
        self.model = model
        self.options = load_options(options)
        self._client = self.options.grpc_client(url)
        self._inputs = [self._input(t) for t in self.tensors]
        self._outputs = [grpcclient.InferRequestedOutput(self.output_name)]

    def _input(self, tensor: np.ndarray) -> grpcclient.InferInput:
        request = grpcclient.InferInput(self.input_name, list(tensor.shape), self.datatype)
        request.set_data_from_numpy(tensor)
        return request

    def send(self, index: int) -> Timed:
        started = time.perf_counter()
        request = self._inputs[index % self.count]  # read-only in infer(): safe to share between threads
        sent = time.perf_counter()
        try:
            result = self._client.infer(
                self.model, [request], outputs=self._outputs, client_timeout=self.options.timeout_s
            )
        except InferenceServerException as exc:
            raise map_error(exc, self.url, self.options.tls, self.model) from None
        received = time.perf_counter()
        value = result.as_numpy(self.output_name)
        return Timed(value, sent - started, time.perf_counter() - received)

    def close(self) -> None:
        self._client.close()


class DetectionTarget(_TensorTarget):
    """text_detection alone: det_input tensors made by the real preprocessing from the images."""

    name = "detection"
    input_name, output_name, datatype = DET_INPUT, DET_OUTPUT, "UINT8"

    def __init__(
        self, url: str, images: Sequence[bytes], options: ClientOptions | None = None,
        model: str = DETECTION_MODEL, params: DetParams | None = None,
    ) -> None:  # fmt: skip
        params = params or DetParams()
        tensors = [preprocess_for_detection(decode_image(data), params)[0][None] for data in images]
        super().__init__(url, tensors, options, model)

    def _same(self, golden: np.ndarray, value: np.ndarray) -> bool:
        if golden.shape != value.shape:
            return False
        if np.array_equal(golden, value):  # the usual case, and the cheapest check
            return True
        far = np.abs(golden.astype(np.int16) - value.astype(np.int16)) > PROB_TOLERANCE
        return bool(far.mean() <= PROB_OUTLIERS)


class RecognitionTarget(_TensorTarget):
    """text_recognition alone: the crop batches the pipeline sends, made by the real detection
    (the server's text_detection) and the real cropping and batching from the images."""

    name = "recognition"
    input_name, output_name, datatype = REC_INPUT, REC_INDICES, "FP32"

    def __init__(
        self, url: str, images: Sequence[bytes], options: ClientOptions | None = None,
        model: str = RECOGNITION_MODEL, det_model: str = DETECTION_MODEL,
    ) -> None:  # fmt: skip
        det_params, rec_params = DetParams(), RecParams()
        options = load_options(options)
        detector = DetectionTarget(url, images, options, det_model, det_params)
        try:
            batches = []
            for index, data in enumerate(images):
                image = decode_image(data)
                prob = detector.send(index).value
                _, resized = preprocess_for_detection(image, det_params)
                boxes = boxes_from_probability(prob[0, 0], resized, image.shape[:2], det_params)
                batches.extend(plan_recognition(image, boxes, rec_params).batches)
        finally:
            detector.close()
        if not batches:
            raise ValueError("no text was found in the images: nothing to send to text_recognition")
        super().__init__(url, batches, options, model)

    def _same(self, golden: np.ndarray, value: np.ndarray) -> bool:
        if golden.shape != value.shape:
            return False
        return bool((golden != value).mean() <= REC_OUTLIERS)


def make_target(
    kind: str,
    url: str | Sequence[str],
    images: Sequence[bytes],
    options: ClientOptions | None = None,
    *,
    model: str | None = None,
) -> Target:
    """A target of `kind` (see KINDS). Several urls spread the pipeline over an EndpointPool;
    `model` overrides the model a detection or recognition target calls."""
    urls = [url] if isinstance(url, str) else list(url)
    if not urls:
        raise ValueError("no server URL given")
    if kind == "pipeline":
        return PipelineTarget(urls, images, options)
    if len(urls) > 1:
        raise ValueError(f"the {kind} target takes one server URL, got {len(urls)}")
    if kind == "detection":
        return DetectionTarget(urls[0], images, options, model or DETECTION_MODEL)
    if kind == "recognition":
        return RecognitionTarget(urls[0], images, options, model or RECOGNITION_MODEL)
    if kind == "baseline":
        return BaselineTarget(urls[0], images)
    raise ValueError(f"unknown target {kind!r}: choose from {', '.join(KINDS)}")


def sample_images(count: int = 8, seed: int = 0) -> list[bytes]:
    """Rendered receipts (JPEG), distinct in every line: the default inputs of a load run."""
    from scanner_app.samples.documents import distinct_receipts, encode

    return [encode(doc.image, "JPEG") for doc in distinct_receipts(count, seed)]


@dataclass(frozen=True)
class FolderImages:
    """Pages of a folder's files, encoded as the app sends them, and what could not be used."""

    data: tuple[bytes, ...]
    names: tuple[str, ...]
    skipped: tuple[tuple[Path, str], ...]  # (file, cause)
    truncated: bool  # the folder held more pages than the limit


def images_from(folder: Path, limit: int = 64) -> FolderImages:
    """Up to `limit` pages of the files in `folder` (recursive); unreadable files skipped with the cause."""
    from scanner_app.core.errors import ScannerError
    from scanner_app.core.images import discover, encode_for_wire, iter_pages

    files, skipped = discover([folder])
    data: list[bytes] = []
    names: list[str] = []
    for path in files:
        if len(data) >= limit:
            return FolderImages(tuple(data), tuple(names), tuple(skipped), truncated=True)
        try:
            for page in iter_pages(path):
                data.append(encode_for_wire(page).data)
                names.append(page.name)
                if len(data) >= limit:
                    break
        except (ScannerError, OSError) as exc:
            skipped.append((path, str(exc)))
    return FolderImages(tuple(data), tuple(names), tuple(skipped), truncated=False)
