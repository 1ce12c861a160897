"""The GPU server image and the Kubernetes manifests: parsed and validated (neither is built or run here)."""

from __future__ import annotations

import configparser
import copy
import re
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from dockerfile_parse import DockerfileParser

from scanner_app.contract import ALL_MODELS
from tests.helpers.paths import REPO

SERVER = REPO / "packaging" / "server"
K8S = REPO / "packaging" / "k8s"
DESKTOP = REPO / "packaging" / "desktop"
K8S_VERSION = "1.30.0"
TRITON_PORTS = {"http": 8000, "grpc": 8001, "metrics": 8002}


# Dockerfile ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def dockerfile() -> DockerfileParser:
    return DockerfileParser(str(SERVER / "Dockerfile"))


def instructions(parser: DockerfileParser, name: str) -> list[str]:
    return [item["value"] for item in parser.structure if item["instruction"] == name]


def test_dockerfile_is_the_pinned_ngc_triton_image(dockerfile: DockerfileParser) -> None:
    assert not dockerfile.is_multistage
    assert re.fullmatch(r"nvcr\.io/nvidia/tritonserver:\d\d\.\d\d-py3", dockerfile.baseimage), (
        dockerfile.baseimage
    )


def test_dockerfile_copies_the_models_and_only_the_steps(dockerfile: DockerfileParser) -> None:
    copies = instructions(dockerfile, "COPY")
    assert "model_repository/ /models/" in copies
    sources = {src for value in copies for src in value.split()[:-1]}
    assert {"scanner_app/ocr/", "scanner_app/steps/", "scanner_app/contract.py"} <= sources
    assert not any(src.startswith(("scanner_app/gui", "scanner_app/core")) for src in sources), sources
    for src in sources:  # every source exists in the checkout (model.onnx files are fetched, not listed)
        assert (REPO / src).exists(), src
    assert dockerfile.envs["PYTHONPATH"] == "/opt/scanner-app"
    lines = (SERVER / "Dockerfile.dockerignore").read_text().splitlines()
    ignore = [line for line in lines if line and not line.startswith("#")]
    assert ignore[0] == "*" and "model_repository/*/configs" in ignore  # production configs only


def test_dockerfile_installs_only_what_the_steps_import(dockerfile: DockerfileParser) -> None:
    runs = " ".join(instructions(dockerfile, "RUN"))
    assert "pip install" in runs and "-r /opt/scanner-app/requirements.txt" in runs
    requirements = [
        line.split("==")[0]
        for line in (SERVER / "requirements.txt").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert requirements == ["numpy", "opencv-python-headless", "pillow", "pyclipper"]
    assert all("==" in line for line in (SERVER / "requirements.txt").read_text().splitlines() if "=" in line)


def test_dockerfile_health_check_and_command(dockerfile: DockerfileParser) -> None:
    (health,) = instructions(dockerfile, "HEALTHCHECK")
    assert "/v2/health/ready" in health and "--start-period=" in health
    command = yaml.safe_load(dockerfile.cmd)  # the exec form is a JSON list
    assert command[0] == "tritonserver" and "--model-repository=/models" in command
    assert "--model-control-mode=none" in command and "--model-config-name=local" not in " ".join(command)
    exposed = " ".join(instructions(dockerfile, "EXPOSE")).split()
    assert sorted(exposed) == ["8000", "8001", "8002"]
    assert instructions(dockerfile, "USER") == ["1000:1000"]


def test_production_configs_are_what_the_image_serves() -> None:
    """Every model has a production config.pbtxt; the ONNX ones run on Triton's onnxruntime on the GPU."""
    for model in ALL_MODELS:
        config = (REPO / "model_repository" / model / "config.pbtxt").read_text()
        assert f'name: "{model}"' in config
    for model in ("text_detection", "text_recognition"):
        config = (REPO / "model_repository" / model / "config.pbtxt").read_text()
        assert (
            'platform: "onnxruntime_onnx"' in config and "KIND_GPU" in config and "dynamic_batching" in config
        )


# Kubernetes ----------------------------------------------------------------------------------
def load_manifests(folder: Path) -> dict[str, dict[str, Any]]:
    docs = {}
    for path in sorted(folder.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            docs[f"{path.name}:{doc['kind']}"] = doc
    return docs


@pytest.fixture(scope="module")
def manifests() -> dict[str, dict[str, Any]]:
    return {
        **load_manifests(K8S),
        **{f"monitoring/{k}": v for k, v in load_manifests(K8S / "monitoring").items()},
        **{f"optional/{k}": v for k, v in load_manifests(K8S / "optional").items()},
    }


def test_manifests_validate_against_the_kubernetes_schemas(manifests: dict[str, dict[str, Any]]) -> None:
    built_in = {
        name: doc for name, doc in manifests.items() if doc["apiVersion"] != "monitoring.coreos.com/v1"
    }
    assert len(built_in) == 5, sorted(manifests)
    for name, doc in built_in.items():
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)  # raises on any schema error
        print(f"{name}: valid for Kubernetes {K8S_VERSION}")
    # The validator is real: a typo in a field name fails.
    broken = copy.deepcopy(manifests["deployment.yaml:Deployment"])
    broken["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["httpGett"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, K8S_VERSION, strict=True)


def container(manifests: dict[str, dict[str, Any]]) -> dict[str, Any]:
    (only,) = manifests["deployment.yaml:Deployment"]["spec"]["template"]["spec"]["containers"]
    return only


def test_deployment_requests_a_gpu_and_probes_triton(manifests: dict[str, dict[str, Any]]) -> None:
    triton = container(manifests)
    resources = triton["resources"]
    assert resources["requests"]["nvidia.com/gpu"] == resources["limits"]["nvidia.com/gpu"] == 1
    assert {"cpu", "memory"} <= set(resources["limits"]) and {"cpu", "memory"} <= set(resources["requests"])
    assert triton["readinessProbe"]["httpGet"] == {"path": "/v2/health/ready", "port": "http"}
    assert triton["livenessProbe"]["httpGet"] == {"path": "/v2/health/live", "port": "http"}
    assert {p["name"]: p["containerPort"] for p in triton["ports"]} == TRITON_PORTS
    assert "--model-control-mode=none" in triton["args"]
    template = manifests["deployment.yaml:Deployment"]["spec"]["template"]
    assert template["metadata"]["annotations"]["prometheus.io/port"] == "8002"
    volumes = {v["name"]: v for v in template["spec"]["volumes"]}
    assert volumes["dshm"]["emptyDir"]["medium"] == "Memory"


def test_service_exposes_http_grpc_and_metrics(manifests: dict[str, dict[str, Any]]) -> None:
    service = manifests["service.yaml:Service"]
    labels = manifests["deployment.yaml:Deployment"]["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= labels.items()
    assert {p["name"]: p["port"] for p in service["spec"]["ports"]} == TRITON_PORTS
    container_ports = {p["name"] for p in container(manifests)["ports"]}
    assert {p["targetPort"] for p in service["spec"]["ports"]} == container_ports


ADAPTER_KEY = "monitoring/prometheus-adapter-rules.yaml:ConfigMap"


def adapter_metrics(manifests: dict[str, dict[str, Any]]) -> dict[str, str]:
    """Custom metric name -> the Triton series it is computed from."""
    rules = yaml.safe_load(manifests[ADAPTER_KEY]["data"]["config.yaml"])["rules"]
    return {rule["name"]["as"]: rule["seriesQuery"].split("{")[0].strip("'") for rule in rules}


@pytest.mark.parametrize(
    ("key", "series"),
    [
        ("hpa.yaml:HorizontalPodAutoscaler", "nv_inference_queue_duration_us"),
        ("optional/hpa-gpu-utilization.yaml:HorizontalPodAutoscaler", "nv_gpu_utilization"),
    ],
)
def test_hpa_scales_the_deployment_on_a_triton_metric(
    manifests: dict[str, dict[str, Any]], key: str, series: str
) -> None:
    hpa = manifests[key]
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert (
        hpa["spec"]["scaleTargetRef"]["name"] == manifests["deployment.yaml:Deployment"]["metadata"]["name"]
    )
    (metric,) = hpa["spec"]["metrics"]
    assert metric["type"] == "Pods"  # not `Resource`: that only knows cpu and memory
    name = metric["pods"]["metric"]["name"]
    assert adapter_metrics(manifests)[name] == series
    assert hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]


def test_pod_monitor_scrapes_the_metrics_port(manifests: dict[str, dict[str, Any]]) -> None:
    """A CRD the validator has no schema for: checked against the Deployment by hand."""
    monitor = manifests["monitoring/podmonitor.yaml:PodMonitor"]
    assert monitor["apiVersion"] == "monitoring.coreos.com/v1"
    labels = manifests["deployment.yaml:Deployment"]["spec"]["template"]["metadata"]["labels"]
    assert monitor["spec"]["selector"]["matchLabels"].items() <= labels.items()
    (endpoint,) = monitor["spec"]["podMetricsEndpoints"]
    assert endpoint["port"] == "metrics" and endpoint["path"] == "/metrics"


# Docs and the desktop entry -------------------------------------------------------------------
def test_scale_out_doc_exists_and_names_the_files() -> None:
    text = (REPO / "docs" / "scale-out.md").read_text()
    for name in (
        "packaging/server/Dockerfile",
        "hpa.yaml",
        "--tls-verify-client",
        "EndpointPool",
        "type: Resource",
    ):
        assert name in text, name


def test_desktop_entry_is_valid() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # keys are case-sensitive
    entry.read(DESKTOP / "scanner-app.desktop", encoding="utf-8")
    section = entry["Desktop Entry"]
    assert section["Type"] == "Application" and section["Name"] and section["Exec"].startswith("scanner-app")
    assert section["Icon"] == "scanner-app" and section["Categories"].endswith(";")
    assert (REPO / "resources" / "icons" / "scanner-app.svg").is_file()
    assert (REPO / "resources" / "icons" / "scanner-app.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
