"""The model repository's configs agree with scanner_app.contract (one source of truth)."""

from __future__ import annotations

from pathlib import Path

import pytest
from google.protobuf import text_format
from tritonclient.grpc import model_config_pb2

from scanner_app import contract
from tests.helpers.paths import MODEL_REPOSITORY

REPOSITORY = MODEL_REPOSITORY
CONFIGS = sorted(REPOSITORY.glob("*/config.pbtxt")) + sorted(REPOSITORY.glob("*/configs/local.pbtxt"))


def _load(path: Path) -> model_config_pb2.ModelConfig:
    return text_format.Parse(path.read_text(encoding="utf-8"), model_config_pb2.ModelConfig())


def _model_dir(path: Path) -> Path:
    return path.parent if path.name == "config.pbtxt" else path.parent.parent


def test_every_model_has_both_configs() -> None:
    for model in contract.ALL_MODELS:
        assert (REPOSITORY / model / "config.pbtxt").is_file()
        assert (REPOSITORY / model / "configs" / "local.pbtxt").is_file()
    assert len(CONFIGS) == 2 * len(contract.ALL_MODELS)


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: str(p.relative_to(REPOSITORY)))
def test_config_names_match_the_contract(path: Path) -> None:
    config = _load(path)
    assert config.name == _model_dir(path).name
    names = {t.name for t in config.input} | {t.name for t in config.output}
    expected = {
        contract.PIPELINE_MODEL: {
            contract.IMAGE_INPUT,
            contract.BOXES_OUTPUT,
            contract.TEXTS_OUTPUT,
            contract.SCORES_OUTPUT,
            contract.IMAGE_SIZE_OUTPUT,
            contract.ORIENTATION_OUTPUT,
            contract.DOCUMENTS_OUTPUT,
            contract.LINE_DOCUMENTS_OUTPUT,
        },
        contract.PREPROCESS_MODEL: {
            contract.IMAGE_INPUT,
            contract.DET_INPUT,
            contract.ORIGINAL_IMAGE,
            contract.RESIZE_INFO,
        },
        contract.DETECTION_MODEL: {contract.DET_INPUT, contract.DET_OUTPUT},
        contract.POSTPROCESS_MODEL: {
            contract.DET_OUTPUT,
            contract.ORIGINAL_IMAGE,
            contract.RESIZE_INFO,
            contract.BOXES_OUTPUT,
            contract.TEXTS_OUTPUT,
            contract.SCORES_OUTPUT,
            contract.IMAGE_SIZE_OUTPUT,
            contract.ORIENTATION_OUTPUT,
            contract.DOCUMENTS_OUTPUT,
            contract.LINE_DOCUMENTS_OUTPUT,
        },
        contract.RECOGNITION_MODEL: {contract.REC_INPUT, contract.REC_INDICES, contract.REC_PROBS},
        contract.ORIENTATION_MODEL: {contract.CLS_INPUT, contract.CLS_PROBS},
    }[config.name]
    assert names == expected


def test_production_runs_onnx_on_gpu_and_local_runs_python_on_cpu() -> None:
    for model in contract.ONNX_MODELS:
        production = _load(REPOSITORY / model / "config.pbtxt")
        local = _load(REPOSITORY / model / "configs" / "local.pbtxt")
        assert production.platform == "onnxruntime_onnx"
        assert production.HasField("dynamic_batching")
        assert all(g.kind == model_config_pb2.ModelInstanceGroup.KIND_GPU for g in production.instance_group)
        assert local.backend == "python"
        assert all(g.kind == model_config_pb2.ModelInstanceGroup.KIND_CPU for g in local.instance_group)


def test_ensemble_wires_every_step_by_tensor_name() -> None:
    pipeline = _load(REPOSITORY / contract.PIPELINE_MODEL / "config.pbtxt")
    steps = [step.model_name for step in pipeline.ensemble_scheduling.step]
    assert steps == [contract.PREPROCESS_MODEL, contract.DETECTION_MODEL, contract.POSTPROCESS_MODEL]
    produced = {contract.IMAGE_INPUT}
    for step in pipeline.ensemble_scheduling.step:
        assert set(step.input_map.values()) <= produced, step.model_name
        produced |= set(step.output_map.values())
    assert {t.name for t in pipeline.output} <= produced


def test_recognition_chunks_fit_its_max_batch_size() -> None:
    recognition = _load(REPOSITORY / contract.RECOGNITION_MODEL / "configs" / "local.pbtxt")
    for path in (REPOSITORY / contract.POSTPROCESS_MODEL).glob("**/*.pbtxt"):
        chunk = int(_load(path).parameters["rec_max_batch"].string_value)
        assert 1 <= chunk <= recognition.max_batch_size
