"""ONNX Runtime execution providers for one Triton model instance (pure: no Triton import).

A KIND_GPU instance runs on the device Triton placed it on (`model_instance_device_id`) with the
CUDA execution provider, or TensorRT first when the config asks for it; it fails loudly when ONNX
Runtime has no CUDA provider, instead of falling back to the CPU unseen. A KIND_CPU instance uses
the CPU provider only, so a CPU-sized server never puts a session on a GPU by accident.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

CPU = "CPUExecutionProvider"
CUDA = "CUDAExecutionProvider"
TENSORRT = "TensorrtExecutionProvider"
# benchmarks/soak.py --arena-ab sets it: instance 0 of each ONNX model keeps ORT's CPU arena (A/B in one run).
ARENA_AB_ENV = "SCANNER_APP_ORT_ARENA_AB"


def use_cpu_arena(config_value: str, instance_name: str, environ: Mapping[str, str]) -> bool:
    """Whether a session gets ORT's CPU memory arena: the config's `cpu_mem_arena` ("1": yes; default no)."""
    if environ.get(ARENA_AB_ENV) and instance_name.endswith("_0"):
        return True
    return config_value == "1"


class ProviderError(RuntimeError):
    """The instance's kind needs an execution provider this ONNX Runtime lacks."""


def execution_providers(
    instance_kind: str, device_id: int, available: Sequence[str], accelerator: str = ""
) -> list[Any]:
    """Providers (with options) for `InferenceSession(..., providers=...)`."""
    if instance_kind.upper() not in ("GPU", "KIND_GPU"):
        return [CPU]
    if CUDA not in available:
        raise ProviderError(
            f"a KIND_GPU instance needs ONNX Runtime's {CUDA}, but this ONNX Runtime offers "
            f"{', '.join(available) or 'none'}: install onnxruntime-gpu (pip install -e '.[gpu]')"
        )
    providers: list[Any] = []
    if accelerator == "tensorrt":
        if TENSORRT not in available:
            raise ProviderError(f"accelerator 'tensorrt' asked for, but ONNX Runtime lacks {TENSORRT}")
        providers.append((TENSORRT, {"device_id": device_id, "trt_fp16_enable": True}))
    providers.append((CUDA, {"device_id": device_id}))
    providers.append(CPU)
    return providers
