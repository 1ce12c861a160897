"""The in-process OCR of the model repository: the same ONNX models and settings the server uses."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from google.protobuf import text_format
from tritonclient.grpc import model_config_pb2

from scanner_app.contract import (
    DETECTION_MODEL,
    KEYS_FILE,
    ORIENTATION_MODEL,
    POSTPROCESS_MODEL,
    PREPROCESS_MODEL,
    RECOGNITION_MODEL,
)
from scanner_app.core.results import PageResult, TextLine, page_from_owned
from scanner_app.ocr.decode import decode_image
from scanner_app.ocr.documents import DocumentParams
from scanner_app.ocr.in_process import EngineRead, InProcessEngine
from scanner_app.ocr.line_ink import InkParams
from scanner_app.ocr.orientation import OrientationParams
from scanner_app.ocr.params import DetParams, RecParams
from scanner_app.steps.providers import execution_providers

LOCAL_CONFIG = Path("configs") / "local.pbtxt"  # the embedded server's configs


@dataclass(frozen=True)
class PipelineSettings:
    """What the server's Python steps read from their configs, read from the same files."""

    det: DetParams
    rec: RecParams
    orientation: bool = True  # ocr_postprocess's "orientation" (on unless "off")
    documents: bool = True  # ocr_postprocess's "documents"
    marks: bool = True  # ocr_postprocess's "marks"


def _parameters(repository: Path, model: str) -> dict[str, str]:
    path = repository / model / LOCAL_CONFIG
    config = text_format.Parse(path.read_text(encoding="utf-8"), model_config_pb2.ModelConfig())
    return {key: value.string_value for key, value in config.parameters.items()}


def pipeline_settings(repository: Path) -> PipelineSettings:
    """Detection sizes from ocr_preprocess's config, the recognition chunk from ocr_postprocess's."""
    pre, post = _parameters(repository, PREPROCESS_MODEL), _parameters(repository, POSTPROCESS_MODEL)
    det = DetParams()
    det = DetParams(
        limit_side_len=int(pre.get("det_limit_side_len", det.limit_side_len)),
        min_side_len=int(pre.get("det_min_side_len", det.min_side_len)),
        bucket_step=int(pre.get("det_bucket_step", det.bucket_step)),
    )
    return PipelineSettings(
        det=det,
        rec=RecParams(max_batch=int(post.get("rec_max_batch", "16"))),
        orientation=post.get("orientation", "on") != "off",
        documents=post.get("documents", "on") != "off",
        marks=post.get("marks", "on") != "off",
    )


def build_engine(repository: Path, threads: int = 0, device: str = "cpu") -> InProcessEngine:
    """An InProcessEngine on the repository's model.onnx files; `threads` 0 is ONNX Runtime's default.

    `device` "gpu" runs both models with CUDA on GPU 0 (ProviderError without onnxruntime-gpu), so
    the serial baseline and Triton compare on the same device.
    """
    repository = Path(repository)
    models = (DETECTION_MODEL, RECOGNITION_MODEL)
    missing = [m for m in models if not (repository / m / "1" / "model.onnx").is_file()]
    if missing:
        files = ", ".join(f"{m}/1/model.onnx" for m in missing)
        raise FileNotFoundError(f"{repository} lacks {files}; run `scanner-app models fetch` first")
    keys = json.loads((repository / RECOGNITION_MODEL / KEYS_FILE).read_text(encoding="utf-8"))
    settings = pipeline_settings(repository)
    classifier = repository / ORIENTATION_MODEL / "1" / "model.onnx"
    if settings.orientation and not classifier.is_file():
        raise FileNotFoundError(
            f"{repository} lacks {ORIENTATION_MODEL}/1/model.onnx (orientation is on in "
            f"{POSTPROCESS_MODEL}'s config); run `scanner-app models fetch` first"
        )
    return InProcessEngine(
        str(repository / DETECTION_MODEL / "1" / "model.onnx"),
        str(repository / RECOGNITION_MODEL / "1" / "model.onnx"),
        keys,
        det_params=settings.det,
        rec_params=settings.rec,
        threads=threads,
        providers=_providers(device),
        cls_model=str(classifier) if settings.orientation else None,
        orientation=OrientationParams(enabled=settings.orientation),
        documents=DocumentParams(enabled=settings.documents, ink=InkParams(enabled=settings.marks)),
    )


def _providers(device: str) -> list[Any]:
    import onnxruntime as ort

    kind = "GPU" if device == "gpu" else "CPU"
    return execution_providers(kind, 0, ort.get_available_providers())


def recognize(engine: InProcessEngine, data: bytes, name: str = "") -> PageResult:
    """Decode the encoded image and read it as the server does (orientation, documents);
    ImageDecodeError for bytes that are not a usable image."""
    started = time.perf_counter()
    image = decode_image(data)
    read = engine.read(image)
    height, width = image.shape[:2]
    elapsed_ms = (time.perf_counter() - started) * 1000.0
    return page_result(read, name, int(width), int(height), elapsed_ms)


def page_result(read: EngineRead, name: str, width: int, height: int, elapsed_ms: float) -> PageResult:
    """The PageResult the server's answer would give (core.client.triton.page_from_response's rules)."""
    lines = tuple(
        TextLine(tuple((float(x), float(y)) for x, y in line.box), line.text, float(line.score))
        for line in read.lines
    )
    outlines = [tuple((float(x), float(y)) for x, y in box) for box in read.outlines]
    return page_from_owned(
        name, (width, height), lines, read.line_documents, outlines, elapsed_ms, read.orientation
    )
