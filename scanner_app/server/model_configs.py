"""The embedded server's model configs, sized to the machine it runs on.

The checked-in `configs/local.pbtxt` files are the base (what a 2-core CPU measured best). For the
machine at hand, `prepare_repository` renders one config per model from that base, for the CPU
or the GPU, and lays them in an overlay repository under the cache directory: every other entry of
each model folder is a symbolic link to the original, so weights are never copied.

The CPU rule (written down because only 2 cores could be measured here): every model keeps the
instance count of its local.pbtxt times `scale = clamp(cores // 4, 1, 4)`, and each ONNX Runtime
session gets `max(1, cores // (4 * scale))` intra-op threads, so that detection and recognition
threads add up to about the core count. On 2 cores this is exactly the checked-in configs, the
measured best (two one-thread sessions per model beat one two-thread session: 1.05 against 0.92
images/s); on 16 cores, 8 one-thread sessions per model and 8 instances of each Python step; on 64,
8 four-thread sessions. No dynamic batcher on the CPU: batching never helps detection there, and
recognition already receives chunks of up to 16 crops per call.
On a GPU the ONNX models keep their instance count per GPU as KIND_GPU instances on every GPU
(`gpus: [...]`, so Triton passes `model_instance_device_id` to the runner), with one intra-op
thread and the dynamic batcher; the Python steps are scaled to the cores as on the CPU.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from google.protobuf import text_format
from tritonclient.grpc import model_config_pb2 as mc

from scanner_app.contract import ONNX_MODELS, RECOGNITION_MODEL
from scanner_app.server.hardware import DevicePlan, DeviceRequest, choose_device

BASE_CONFIG_NAME = "local"
SIZED_CONFIG_NAME = "sized"
GPU_QUEUE_DELAY_US = {RECOGNITION_MODEL: 1000}  # others: DEFAULT_GPU_QUEUE_DELAY_US
DEFAULT_GPU_QUEUE_DELAY_US = 2000
ONNX_THREADS_PARAMETER = "intra_op_threads"  # marks a model run by steps/onnx_runner.py


@dataclass(frozen=True)
class Sizing:
    """Instance counts and threads for one server start."""

    scale: int  # multiplies each model's checked-in instance count (ONNX models on a GPU excepted)
    onnx_threads: int
    dynamic_batching: bool
    onnx_instances: int | None = None  # one explicit count per ONNX model (per GPU), for benchmarks

    def describe(self) -> str:
        onnx = f"{self.onnx_instances} instances per ONNX model, " if self.onnx_instances else ""
        batching = "dynamic batching on" if self.dynamic_batching else "no dynamic batching"
        return f"{onnx}instances x{self.scale}, {self.onnx_threads} ORT thread(s) per session, {batching}"


def _scale(cores: int) -> int:
    return max(1, min(cores // 4, 4))


def cpu_sizing(cores: int) -> Sizing:
    """The CPU rule of the module docstring."""
    scale = _scale(cores)
    return Sizing(scale=scale, onnx_threads=max(1, cores // (4 * scale)), dynamic_batching=False)


def gpu_sizing(cores: int) -> Sizing:
    """ONNX models as checked in, per GPU, with the dynamic batcher; the Python steps scaled to the cores."""
    return Sizing(scale=_scale(cores), onnx_threads=1, dynamic_batching=True)


def default_sizing(plan: DevicePlan) -> Sizing:
    """The sizing `serve` uses for this plan."""
    return gpu_sizing(plan.cores) if plan.kind == "gpu" else cpu_sizing(plan.cores)


def load_config(path: Path) -> mc.ModelConfig:
    """A config.pbtxt parsed with Triton's own protobuf (a wrong field name fails here)."""
    return text_format.Parse(path.read_text(encoding="utf-8"), mc.ModelConfig())


def _set_parameter(config: mc.ModelConfig, key: str, value: str) -> None:
    config.parameters[key].string_value = value


def render_config(base: mc.ModelConfig, plan: DevicePlan, sizing: Sizing) -> mc.ModelConfig:
    """`base` (a local.pbtxt) sized for `plan`; ensembles are returned unchanged."""
    config = mc.ModelConfig()
    config.CopyFrom(base)
    if config.platform == "ensemble":
        return config
    base_count = max((g.count for g in base.instance_group), default=1)
    del config.instance_group[:]
    group = config.instance_group.add()
    group.kind = mc.ModelInstanceGroup.KIND_CPU
    if config.name in ONNX_MODELS or ONNX_THREADS_PARAMETER in config.parameters:
        _set_parameter(config, ONNX_THREADS_PARAMETER, str(sizing.onnx_threads))
        if plan.kind == "gpu":
            group.kind = mc.ModelInstanceGroup.KIND_GPU
            group.gpus.extend(g.index for g in plan.gpus)
            group.count = sizing.onnx_instances or base_count
        else:
            group.count = sizing.onnx_instances or base_count * sizing.scale
        if sizing.dynamic_batching and config.max_batch_size > 1:
            delay = GPU_QUEUE_DELAY_US.get(config.name, DEFAULT_GPU_QUEUE_DELAY_US)
            config.dynamic_batching.max_queue_delay_microseconds = delay
        # else: as checked in (queue policies, e.g. request timeouts, stay)
    else:
        group.count = base_count * sizing.scale
    return config


def config_text(config: mc.ModelConfig, plan: DevicePlan, sizing: Sizing) -> str:
    """pbtxt text with a header saying where it came from."""
    header = (
        f"# Rendered by scanner_app.server.model_configs from configs/{BASE_CONFIG_NAME}.pbtxt\n"
        f"# for {plan.describe()}: {sizing.describe()}.\n"
    )
    return header + text_format.MessageToString(config)


@dataclass(frozen=True)
class PreparedRepository:
    """The repository and config name a server start uses, with the plan behind them."""

    path: Path
    config_name: str
    plan: DevicePlan
    sizing: Sizing
    configs: dict[str, str]  # model name -> rendered pbtxt

    def describe(self) -> str:
        return f"{self.plan.describe()}; {self.sizing.describe()}"


def render_repository(repository: Path, plan: DevicePlan, sizing: Sizing) -> dict[str, str]:
    """model name -> rendered config text, for every model folder with a configs/local.pbtxt."""
    rendered = {}
    for base_path in sorted(repository.glob(f"*/configs/{BASE_CONFIG_NAME}.pbtxt")):
        config = render_config(load_config(base_path), plan, sizing)
        rendered[base_path.parent.parent.name] = config_text(config, plan, sizing)
    return rendered


def _write_overlay(repository: Path, configs: dict[str, str], destination: Path) -> None:
    """Build the overlay in a temporary folder beside `destination`, then rename it into place."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=destination.name + ".", dir=destination.parent))
    try:
        for entry in repository.iterdir():
            target = building / entry.name
            if entry.name in configs and entry.is_dir():
                target.mkdir()
                for item in entry.iterdir():
                    if item.name != "configs":
                        (target / item.name).symlink_to(item.absolute())
                (target / "configs").mkdir()
                text = configs[entry.name]
                (target / "configs" / f"{SIZED_CONFIG_NAME}.pbtxt").write_text(text, encoding="utf-8")
            else:
                target.symlink_to(entry.absolute())
        os.rename(building, destination)
    except FileExistsError:
        pass  # another start built the same overlay first
    except OSError as err:
        if not destination.is_dir():
            raise
        del err  # ENOTEMPTY from a concurrent identical build: theirs is as good as ours
    finally:
        shutil.rmtree(building, ignore_errors=True)


def prepare_repository(
    repository: Path,
    cache_dir: Path,
    request: DeviceRequest = "auto",
    *,
    plan: DevicePlan | None = None,
    sizing: Sizing | None = None,
    **overrides: int | bool,
) -> PreparedRepository:
    """An overlay of `repository` with configs sized for the device; reused while nothing changed.

    `overrides` replace fields of the default sizing (e.g. `onnx_instances=4`,
    `dynamic_batching=False`), for benchmarks that compare configurations.
    """
    repository = Path(repository).absolute()
    plan = plan or choose_device(request)
    sizing = replace(sizing or default_sizing(plan), **overrides)  # type: ignore[arg-type]
    configs = render_repository(repository, plan, sizing)
    key = hashlib.sha256(repr((str(repository), sorted(configs.items()))).encode()).hexdigest()[:16]
    destination = Path(cache_dir) / "repositories" / f"{repository.name}-{key}"
    if not destination.is_dir():
        _write_overlay(repository, configs, destination)
    return PreparedRepository(destination, SIZED_CONFIG_NAME, plan, sizing, configs)
