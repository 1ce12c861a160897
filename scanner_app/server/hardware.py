"""What the embedded server can run on: CPU cores, NVIDIA GPUs, and whether ONNX Runtime can use them.

`choose_device("auto")` picks the GPU when an NVIDIA GPU answers `nvidia-smi` *and* the installed
ONNX Runtime has the CUDA execution provider (`pip install -e '.[gpu]'`); otherwise the CPU, with
the reason. `choose_device("gpu")` raises DeviceError instead of falling back quietly.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

DeviceRequest = Literal["auto", "cpu", "gpu"]
DEVICE_REQUESTS: tuple[DeviceRequest, ...] = ("auto", "cpu", "gpu")
CUDA_PROVIDER = "CUDAExecutionProvider"


class DeviceError(RuntimeError):
    """The requested device cannot be used (no GPU, or no CUDA-enabled ONNX Runtime)."""


@dataclass(frozen=True)
class Gpu:
    """One NVIDIA GPU as nvidia-smi names it."""

    index: int
    name: str
    memory_mib: int

    def describe(self) -> str:
        return f"GPU {self.index}: {self.name} ({self.memory_mib / 1024:.0f} GiB)"


@dataclass(frozen=True)
class DevicePlan:
    """Where the embedded server's ONNX models run, and why."""

    kind: Literal["cpu", "gpu"]
    cores: int
    gpus: tuple[Gpu, ...] = ()
    reason: str = ""

    def describe(self) -> str:
        """One line for the serve banner and the Server tab."""
        if self.kind == "gpu":
            return "; ".join(g.describe() for g in self.gpus) + f" (+ {self.cores} CPU cores)"
        text = f"CPU ({self.cores} cores)"
        return f"{text}: {self.reason}" if self.reason else text


def usable_cores() -> int:
    """Cores this process may run on (the affinity mask, which containers and taskset narrow)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


def parse_nvidia_smi(text: str) -> list[Gpu]:
    """GPUs from `nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader,nounits`."""
    gpus = []
    for row in text.splitlines():
        parts = [part.strip() for part in row.split(",")]
        if len(parts) != 3:
            continue
        try:
            gpus.append(Gpu(int(parts[0]), parts[1], int(float(parts[2]))))
        except ValueError:
            continue
    return gpus


def find_gpus(timeout: float = 15.0) -> list[Gpu]:
    """The NVIDIA GPUs the driver reports; [] without a driver or nvidia-smi."""
    binary = shutil.which("nvidia-smi")
    if binary is None:
        return []
    query = [binary, "--query-gpu=index,name,memory.total", "--format=csv,noheader,nounits"]
    try:
        done = subprocess.run(query, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return parse_nvidia_smi(done.stdout) if done.returncode == 0 else []


def ort_providers() -> list[str]:
    """Execution providers of the installed ONNX Runtime."""
    import onnxruntime as ort

    return list(ort.get_available_providers())


def choose_device(
    request: DeviceRequest = "auto",
    *,
    gpus: Sequence[Gpu] | None = None,
    providers: Sequence[str] | None = None,
    cores: int | None = None,
) -> DevicePlan:
    """The plan for `--device auto|cpu|gpu`; `gpus`/`providers`/`cores` default to this machine's."""
    if request not in DEVICE_REQUESTS:
        raise DeviceError(f"Unknown device {request!r}: use one of {', '.join(DEVICE_REQUESTS)}.")
    cores = usable_cores() if cores is None else cores
    if request == "cpu":
        return DevicePlan("cpu", cores, reason="asked for with --device cpu")
    found = tuple(find_gpus() if gpus is None else gpus)
    has_cuda = CUDA_PROVIDER in (ort_providers() if providers is None else providers)
    if found and has_cuda:
        return DevicePlan("gpu", cores, found)
    if not found:
        why = "no NVIDIA GPU found (nvidia-smi reports none)"
    else:
        why = (
            f"{len(found)} NVIDIA GPU(s) found, but the installed ONNX Runtime has no "
            f"{CUDA_PROVIDER}: pip install -e '.[gpu]'"
        )
    if request == "gpu":
        raise DeviceError(f"--device gpu: {why}.")
    return DevicePlan("cpu", cores, reason=why)
