"""Issue 17 against the real embedded server: input limits of every model, deadlines, restricted
APIs and owner-only files. (Restart and supervision: test_hardening_restart.py.)"""

from __future__ import annotations

import io
import stat
import threading
from collections.abc import Callable

import numpy as np
import pytest
import tritonclient.grpc as grpcclient
from PIL import Image, ImageDraw
from tritonclient.utils import InferenceServerException

from scanner_app import contract
from scanner_app.server import shm
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.listen import GRPC_ADMIN_HEADER, ListenPlan, restricted_api_args
from scanner_app.server.supervise import probe
from scanner_app.steps.messages import client_message


@pytest.fixture(scope="module")
def client(triton: EmbeddedServer) -> grpcclient.InferenceServerClient:
    with grpcclient.InferenceServerClient(triton.grpc_url) as c:
        yield c


def _input(name: str, array: np.ndarray, dtype: str) -> grpcclient.InferInput:
    tensor = grpcclient.InferInput(name, list(array.shape), dtype)
    tensor.set_data_from_numpy(array)
    return tensor


def _image(data: bytes) -> grpcclient.InferInput:
    return _input(contract.IMAGE_INPUT, np.array([[data]], dtype=np.object_), "BYTES")


def _refusal(call: Callable[[], object]) -> InferenceServerException:
    with pytest.raises(InferenceServerException) as info:
        call()
    return info.value


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


# Each input below would make ONNX Runtime allocate hundreds of MB if it ran: the check comes first.
@pytest.mark.parametrize(
    ("model", "name", "array", "dtype", "limit"),
    [
        (contract.RECOGNITION_MODEL, contract.REC_INPUT, np.zeros((1, 3, 48, 8000), np.float32), "FP32",
         "MAX_REC_WIDTH"),
        (contract.RECOGNITION_MODEL, contract.REC_INPUT, np.zeros((40, 3, 48, 3200), np.float32), "FP32",
         "MAX_REC_REQUEST_PIXELS"),
        (contract.DETECTION_MODEL, contract.DET_INPUT, np.zeros((4, 2048, 2048, 3), np.uint8), "UINT8",
         "MAX_DET_REQUEST_PIXELS"),
        (contract.DETECTION_MODEL, contract.DET_INPUT, np.zeros((1, 64, 4096, 3), np.uint8), "UINT8",
         "MAX_DET_SIDE"),
    ],
)  # fmt: skip
def test_onnx_models_refuse_inputs_over_the_contract_limits(
    client: grpcclient.InferenceServerClient, model: str, name: str, array: np.ndarray, dtype: str, limit: str
) -> None:
    error = _refusal(lambda: client.infer(model, [_input(name, array, dtype)], client_timeout=120))
    assert error.status() == "StatusCode.INVALID_ARGUMENT"
    assert limit in error.message() and name in error.message()


def test_postprocess_refuses_inputs_that_disagree(client: grpcclient.InferenceServerClient) -> None:
    inputs = [
        _input(contract.DET_OUTPUT, np.zeros((1, 1, 64, 64), np.uint8), "UINT8"),
        _input(contract.ORIGINAL_IMAGE, np.zeros((1, 32, 32, 3), np.uint8), "UINT8"),
        _input(contract.RESIZE_INFO, np.array([[32, 32, 640, 640]], np.float32), "FP32"),
    ]
    error = _refusal(lambda: client.infer(contract.POSTPROCESS_MODEL, inputs, client_timeout=60))
    assert error.status() == "StatusCode.INVALID_ARGUMENT" and contract.RESIZE_INFO in error.message()


def test_preprocess_refuses_by_header_and_by_bytes(client: grpcclient.InferenceServerClient) -> None:
    wide = _png(Image.new("1", (contract.MAX_IMAGE_SIDE + 1, 8), 1))  # a few hundred bytes
    error = _refusal(lambda: client.infer(contract.PIPELINE_MODEL, [_image(wide)], client_timeout=60))
    assert error.status() == "StatusCode.INVALID_ARGUMENT" and "MAX_IMAGE_SIDE" in error.message()
    huge = b"\x89PNG" + bytes(contract.MAX_IMAGE_BYTES)
    error = _refusal(lambda: client.infer(contract.PIPELINE_MODEL, [_image(huge)], client_timeout=120))
    assert error.status() == "StatusCode.INVALID_ARGUMENT" and "MAX_IMAGE_BYTES" in error.message()


def test_image_over_the_working_size_is_read_downscaled_in_its_own_pixels(
    client: grpcclient.InferenceServerClient,
) -> None:
    width, height = 4000, 19000  # 76 MP, over MAX_WORK_PIXELS: decoded downscaled
    image = Image.new("L", (width, height), 255)
    ImageDraw.Draw(image).text((200, 9000), "TOTAL 12.50", fill=0, font_size=400)
    result = client.infer(contract.PIPELINE_MODEL, [_image(_png(image))], client_timeout=300)
    assert list(result.as_numpy(contract.IMAGE_SIZE_OUTPUT).reshape(-1)) == [height, width]
    boxes = result.as_numpy(contract.BOXES_OUTPUT).reshape(-1, 4, 2)
    texts = [t.decode() for t in result.as_numpy(contract.TEXTS_OUTPUT).reshape(-1)]
    assert any("12.50" in t for t in texts), texts
    box = boxes[next(i for i, t in enumerate(texts) if "12.50" in t)]
    # In the pixels of the image as sent: around y = 9000..9400 and x up to ~2600, not downscaled.
    assert 8800 < box[:, 1].mean() < 9700 and box[:, 0].max() > 2000


def test_abandoned_requests_are_dropped_and_do_not_delay_the_next(
    client: grpcclient.InferenceServerClient,
) -> None:
    data = probe_image_bytes()

    def completed() -> int:  # requests that went through the whole pipeline's work
        stats = client.get_inference_statistics(contract.POSTPROCESS_MODEL)
        return sum(m.inference_stats.success.count for m in stats.model_stats)

    before = completed()
    answered, lock, errors = threading.Event(), threading.Lock(), []

    def done(result: object, error: InferenceServerException | None) -> None:
        with lock:
            errors.append(error.status() if error else "ok")
            if len(errors) == 100:
                answered.set()

    for _ in range(100):  # the deadline reaches the server as the request's timeout (microseconds)
        client.async_infer(contract.PIPELINE_MODEL, [_image(data)], done, client_timeout=0.001, timeout=1000)
    assert answered.wait(120)
    result = client.infer(contract.PIPELINE_MODEL, [_image(data)], client_timeout=300)
    assert result.as_numpy(contract.TEXTS_OUTPUT) is not None
    ran = completed() - before - 1  # the normal request ran once
    assert set(errors) == {"StatusCode.DEADLINE_EXCEEDED"}
    # Rejected in the queue, or dropped by the first step that saw its client had gone.
    assert ran <= 10, f"{ran} of 100 abandoned requests were still run to the end"


def probe_image_bytes() -> bytes:
    image = Image.new("L", (320, 96), 255)
    ImageDraw.Draw(image).text((16, 24), "TOTAL 12.50", fill=0, font_size=40)
    return _png(image)


def test_end_to_end_probe_passes_on_a_healthy_server(triton: EmbeddedServer) -> None:
    assert probe(triton.grpc_url) is None


def test_shared_memory_repository_and_logging_apis_are_restricted(
    client: grpcclient.InferenceServerClient, triton: EmbeddedServer
) -> None:
    region = next(iter(shm.list_regions())).name
    calls = {
        "shared memory": lambda: client.register_system_shared_memory("x", "/" + region, 1024),
        "model load": lambda: client.load_model(contract.DETECTION_MODEL),
        "model unload": lambda: client.unload_model(contract.DETECTION_MODEL),
        "logging": lambda: client.update_log_settings({"log_file": "/tmp/elsewhere.log"}),
    }
    for what, call in calls.items():
        error = _refusal(call)
        assert "restricted" in error.message(), (what, error.message())
        assert "polling" not in error.message()  # the old, misleading reason
    assert client.get_inference_statistics(contract.PIPELINE_MODEL).model_stats  # loopback: open
    index = client.get_model_repository_index(headers={GRPC_ADMIN_HEADER: triton.admin_key})
    assert {m.name for m in index.models} >= set(contract.ALL_MODELS) - {"textline_orientation"}
    assert contract.PIPELINE_MODEL in triton.ready_models()  # the launcher's own (HTTP) key works


def test_statistics_are_restricted_too_for_lan_listeners() -> None:
    lan = ListenPlan(hosts={"gRPC": "0.0.0.0", "HTTP": "127.0.0.1", "metrics": "127.0.0.1"})
    grpc_arg, http_arg = restricted_api_args(lan, "k")
    assert "statistics" in grpc_arg and "shared-memory" in grpc_arg
    assert grpc_arg.endswith(":scanner-app-admin=k")
    assert "statistics" not in http_arg and "shared-memory" in http_arg


def test_regions_and_log_are_owner_only(triton: EmbeddedServer) -> None:
    assert triton.pid is not None
    ours = set().union(*(shm.regions_used_by(p.pid) for p in shm.descendants(triton.pid)))
    assert ours
    for name in ours:
        assert stat.S_IMODE((shm.SHM_DIR / name).stat().st_mode) == 0o600, name
    assert stat.S_IMODE(triton.log_path.stat().st_mode) == 0o600


def test_error_messages_carry_no_source_paths(client: grpcclient.InferenceServerClient) -> None:
    junk = _image(b"\xff\xd8junk")
    error = _refusal(lambda: client.infer(contract.PIPELINE_MODEL, [junk], client_timeout=60))
    assert error.status() == "StatusCode.INVALID_ARGUMENT"
    assert ".py" not in error.message() and "Traceback" not in error.message()
    ort = "Status Message: /onnxruntime_src/onnxruntime/core/providers/cpu/nn/conv_attributes.h:101 bad"
    assert "/onnxruntime_src" not in client_message(ort)
    assert client_message("boom\nAt:\n  /work/scanner_app/steps/x.py(45): execute") == "boom"
