"""Device choice and sized configs for the embedded server (no GPU here: GPUs are given as values).

The GPU itself cannot exist on this machine, so `find_gpus`/`ort_providers` are replaced by values
where a GPU is needed; the rendered GPU configs are checked with Triton's own protobuf and against
the contract, and the CPU rule is checked to reproduce the measured 2-core configs exactly.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tritonclient.grpc import model_config_pb2 as mc

from scanner_app import contract
from scanner_app.server import hardware
from scanner_app.server.hardware import DeviceError, DevicePlan, Gpu, choose_device, parse_nvidia_smi
from scanner_app.server.model_configs import (
    SIZED_CONFIG_NAME,
    cpu_sizing,
    default_sizing,
    load_config,
    prepare_repository,
    render_config,
    render_repository,
)
from scanner_app.steps.providers import CPU, CUDA, TENSORRT, ProviderError, execution_providers
from tests.helpers.paths import MODEL_REPOSITORY

REPOSITORY = MODEL_REPOSITORY
LOCAL_CONFIGS = sorted(REPOSITORY.glob("*/configs/local.pbtxt"))
H200 = Gpu(0, "NVIDIA H200", 143771)
T4 = Gpu(1, "Tesla T4", 15360)


def test_nvidia_smi_rows_are_parsed_and_junk_ignored() -> None:
    text = "0, NVIDIA H200, 143771\n1, Tesla T4, 15360\nNo devices were found\n2, broken, n/a\n"
    assert parse_nvidia_smi(text) == [H200, T4]


def test_no_nvidia_smi_means_no_gpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hardware.shutil, "which", lambda name: None)
    assert hardware.find_gpus() == []


@pytest.mark.parametrize(
    ("gpus", "providers", "kind", "reason"),
    [
        ([], [CPU], "cpu", "no NVIDIA GPU"),
        ([H200], [CPU], "cpu", "pip install -e '.[gpu]'"),
        ([], [CUDA, CPU], "cpu", "no NVIDIA GPU"),
        ([H200], [CUDA, CPU], "gpu", ""),
    ],
)
def test_auto_picks_the_gpu_only_with_a_gpu_and_cuda(
    gpus: list[Gpu], providers: list[str], kind: str, reason: str
) -> None:
    plan = choose_device("auto", gpus=gpus, providers=providers, cores=16)
    assert plan.kind == kind
    assert reason in plan.reason
    if kind == "gpu":
        assert plan.gpus == (H200,)
        assert "NVIDIA H200" in plan.describe()
    else:
        assert plan.describe().startswith("CPU (16 cores)")


def test_gpu_request_fails_loudly_instead_of_falling_back() -> None:
    with pytest.raises(DeviceError, match="no CUDAExecutionProvider"):
        choose_device("gpu", gpus=[H200], providers=[CPU], cores=4)
    with pytest.raises(DeviceError, match="no NVIDIA GPU"):
        choose_device("gpu", gpus=[], providers=[CUDA, CPU], cores=4)
    assert choose_device("cpu", gpus=[H200], providers=[CUDA, CPU], cores=4).kind == "cpu"
    with pytest.raises(DeviceError, match="Unknown device"):
        choose_device("tpu")  # type: ignore[arg-type]


def test_this_machine_without_a_gpu_runs_on_the_cpu() -> None:
    plan = choose_device("auto")
    if hardware.find_gpus():  # pragma: no cover - only on a GPU machine
        pytest.fail("this test documents the CPU-only CI machine; a GPU was found")
    assert plan.kind == "cpu" and plan.cores >= 1


@pytest.mark.parametrize("path", LOCAL_CONFIGS, ids=lambda p: p.parent.parent.name)
def test_the_two_core_rule_reproduces_the_measured_local_configs(path: Path) -> None:
    base = load_config(path)
    plan = DevicePlan("cpu", 2)
    assert render_config(base, plan, cpu_sizing(2)) == base


def test_cpu_rule_scales_with_cores() -> None:
    sizes = {cores: cpu_sizing(cores) for cores in (1, 2, 4, 8, 16, 32, 64, 128)}
    assert (sizes[2].scale, sizes[2].onnx_threads) == (1, 1)
    assert (sizes[16].scale, sizes[16].onnx_threads) == (4, 1)
    assert (sizes[64].scale, sizes[64].onnx_threads) == (4, 4)
    for cores, sizing in sizes.items():
        threads = 2 * 2 * sizing.scale * sizing.onnx_threads  # det + rec, two sessions each as checked in
        assert threads <= max(4, cores), (cores, sizing)
        assert not sizing.dynamic_batching


def _by_name(configs: dict[str, str]) -> dict[str, mc.ModelConfig]:
    from google.protobuf import text_format

    return {name: text_format.Parse(text, mc.ModelConfig()) for name, text in configs.items()}


def test_gpu_configs_place_onnx_models_on_every_gpu_and_keep_the_contract() -> None:
    plan = DevicePlan("gpu", 16, (H200, T4))
    rendered = _by_name(render_repository(REPOSITORY, plan, default_sizing(plan)))
    assert set(contract.ALL_MODELS) <= set(rendered)
    for name, config in rendered.items():
        base = load_config(REPOSITORY / name / "configs" / "local.pbtxt")
        assert config.name == name
        assert [t.name for t in config.input] == [t.name for t in base.input]
        assert [t.name for t in config.output] == [t.name for t in base.output]
        if config.platform == "ensemble":
            assert config == base
            continue
        (group,) = config.instance_group
        if name in contract.ONNX_MODELS:
            assert group.kind == mc.ModelInstanceGroup.KIND_GPU
            assert list(group.gpus) == [0, 1]
            assert config.parameters["intra_op_threads"].string_value == "1"
            assert config.HasField("dynamic_batching")
            assert group.count == base.instance_group[0].count  # per GPU
        else:
            assert group.kind == mc.ModelInstanceGroup.KIND_CPU
            assert group.count == 4 * base.instance_group[0].count
    rec = rendered[contract.RECOGNITION_MODEL].dynamic_batching
    assert 0 < rec.max_queue_delay_microseconds <= 2000


def test_overlay_links_the_weights_and_is_reused(tmp_path: Path) -> None:
    source = tmp_path / "repo"
    for path in LOCAL_CONFIGS:
        model = source / path.parent.parent.name
        (model / "configs").mkdir(parents=True)
        (model / "configs" / "local.pbtxt").write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
        (model / "1").mkdir()
        (model / "1" / "model.onnx").write_bytes(b"weights")
    (source / "model_set.json").write_text("{}", encoding="utf-8")
    plan = DevicePlan("cpu", 16)
    first = prepare_repository(source, tmp_path / "cache", plan=plan)
    again = prepare_repository(source, tmp_path / "cache", plan=plan)
    other = prepare_repository(source, tmp_path / "cache", plan=plan, onnx_instances=1)
    assert first.path == again.path != other.path
    assert first.config_name == SIZED_CONFIG_NAME
    detection = first.path / contract.DETECTION_MODEL
    assert (detection / "1").is_symlink() and (detection / "1" / "model.onnx").read_bytes() == b"weights"
    assert (first.path / "model_set.json").is_symlink()
    sized = load_config(detection / "configs" / f"{SIZED_CONFIG_NAME}.pbtxt")
    assert sized.instance_group[0].count == 8  # 2 as checked in, x4 on 16 cores
    assert (
        load_config(other.path / contract.DETECTION_MODEL / "configs" / "sized.pbtxt").instance_group[0].count
        == 1
    )
    assert "CPU (16 cores)" in first.describe()


def test_providers_follow_the_instance_kind() -> None:
    assert execution_providers("CPU", 0, [CUDA, CPU]) == [CPU]
    assert execution_providers("GPU", 3, [CUDA, CPU]) == [(CUDA, {"device_id": 3}), CPU]
    trt = execution_providers("GPU", 1, [TENSORRT, CUDA, CPU], accelerator="tensorrt")
    assert [p[0] if isinstance(p, tuple) else p for p in trt] == [TENSORRT, CUDA, CPU]
    with pytest.raises(ProviderError, match="onnxruntime-gpu"):
        execution_providers("GPU", 0, [CPU])
    with pytest.raises(ProviderError, match="tensorrt"):
        execution_providers("GPU", 0, [CUDA, CPU], accelerator="tensorrt")
