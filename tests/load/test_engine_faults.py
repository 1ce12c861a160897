"""A planted fault (a model that swaps outputs between batched requests) is caught by the golden check.

The server here is our own, on a temporary repository holding two copies of text_detection behind a
dynamic batcher: det_swap answers each request of a batch with the next request's output,
det_batched is correct. Same inputs, same concurrency: only the faulty one gives mismatches.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from scanner_app.contract import DETECTION_MODEL
from scanner_app.load.engine import LoadRun, LoadSpec
from scanner_app.load.server_stats import ServerMonitor
from scanner_app.load.targets import make_target, sample_images
from scanner_app.server.embedded import EmbeddedServer
from tests.helpers.paths import TESTS

FIXTURE = TESTS / "fixtures" / "swap_model"
MODELS = {"det_swap": "true", "det_batched": "false"}


def _repository(root: Path, real: Path) -> Path:
    for name, swap in MODELS.items():
        folder = root / name
        (folder / "1").mkdir(parents=True)
        config = (FIXTURE / "config.pbtxt").read_text(encoding="utf-8")
        swap_line = 'key: "swap_outputs" value: { string_value: "true" }'
        assert swap_line in config
        config = config.replace(swap_line, f'key: "swap_outputs" value: {{ string_value: "{swap}" }}')
        (folder / "config.pbtxt").write_text(config, encoding="utf-8")
        shutil.copy(FIXTURE / "model.py", folder / "1" / "model.py")
        (folder / "1" / "model.onnx").symlink_to(real / DETECTION_MODEL / "1" / "model.onnx")
    return root


@pytest.fixture(scope="module")
def swap_server(model_repository: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedServer]:
    root = _repository(tmp_path_factory.mktemp("swap_repository"), model_repository)
    log = tmp_path_factory.mktemp("swap_log") / "server.log"
    with EmbeddedServer(
        root, grpc_port=0, http_port=0, metrics_port=0, log_path=log, onnx_models=tuple(MODELS)
    ) as server:
        yield server


def _run(server: EmbeddedServer, model: str, images: list[bytes]) -> tuple[int, int, float]:
    """(completed, mismatches, average executed batch) of 16 requests at concurrency 4."""
    target = make_target("detection", server.grpc_url, images, model=model)
    monitor = ServerMonitor(server.grpc_url)
    try:
        run = LoadRun(target, LoadSpec(concurrency=4, duration_s=None, requests=16, warmup_s=0.5), monitor)
        run.start()
        result = run.wait(300)
    finally:
        target.close()
        monitor.close()
    assert not result.errors, result.errors
    return result.completed, result.mismatches, result.server_models[model]["avg_batch"]


def test_golden_check_catches_swapped_outputs(swap_server: EmbeddedServer) -> None:
    images = sample_images(3)  # same size, different text: the swapped maps differ
    completed, mismatches, batch = _run(swap_server, "det_swap", images)
    assert completed == 16 and batch > 1.0  # requests were batched together ...
    assert mismatches > 0  # ... and the swap was seen
    completed, mismatches, batch = _run(swap_server, "det_batched", images)
    assert completed == 16 and batch > 1.0
    assert mismatches == 0  # batching itself is not a mismatch
