"""What a server says about the pipeline (tensors, model configurations) and whether it fits this client.

Plain records and parsers of the server's metadata and configuration JSON; the calls that fetch
them: scanner_app.core.client.triton.OcrClient.connect().
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scanner_app.contract import (
    BOXES_OUTPUT,
    IMAGE_INPUT,
    IMAGE_SIZE_OUTPUT,
    SCORES_OUTPUT,
    TEXTS_OUTPUT,
)


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


def tensor_spec(meta: dict[str, Any]) -> TensorSpec:
    """A tensor from the model metadata's JSON."""
    return TensorSpec(str(meta["name"]), str(meta["datatype"]), tuple(int(d) for d in meta.get("shape", [])))


def model_facts(config: dict[str, Any]) -> ModelFacts:
    """A model's scheduling facts from its configuration's JSON."""
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
