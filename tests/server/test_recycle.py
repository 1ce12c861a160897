"""Issue 17, memory: a model whose shared-memory region a refused request grew past what the contract
allows is reloaded by the supervisor (its new stubs start small, the server unmaps the old regions),
at most once per interval; the bound and the rate limit as pure rules, the reload on the real server."""

from __future__ import annotations

import stat
import threading

import numpy as np
import pytest
import tritonclient.grpc as grpcclient
from tritonclient.utils import InferenceServerException

from scanner_app import contract
from scanner_app.samples.documents import encode, render_text_lines
from scanner_app.server import shm, supervise
from scanner_app.server.embedded import BACKEND_SHM_BYTES, SHM_DEFAULT_BYTES, SHM_GROWTH_BYTES, EmbeddedServer
from scanner_app.server.region_bounds import RecycleLimiter, oversized, region_bound
from scanner_app.server.shm import ProcInfo, Stub
from scanner_app.server.supervise import KIND_RECYCLED, HealthEvent, Supervisor

MIB = 2**20


def test_the_detection_bound_is_the_start_and_the_largest_allowed_request_in_whole_steps() -> None:
    # 2 x 2048 x 2048 x 3 in (24 MiB) and 2 x 2048 x 2048 out (8 MiB), each in 8 MiB steps; measured:
    # the contract's largest detection request grew a 16 MiB region to 48 MiB, a refused 3 x ... to 56.
    assert region_bound(contract.DETECTION_MODEL, 16 * MIB, 8 * MIB) == 48 * MIB
    assert region_bound(contract.DETECTION_MODEL, MIB, MIB) == (1 + 24 + 8) * MIB
    assert region_bound(contract.PIPELINE_MODEL, 16 * MIB, 8 * MIB) is None  # an ensemble: no region
    # The 200 MB request the preprocess copies before any check: 16 + 192 MiB, over its 168.
    assert region_bound(contract.PREPROCESS_MODEL, 16 * MIB, 8 * MIB) == 168 * MIB


def test_only_a_region_past_its_bound_is_oversized_and_each_model_once() -> None:
    bound = 48 * MIB
    sizes = {"text_detection_0_0": bound + 1, "text_detection_0_1": 56 * MIB,
             "text_recognition_0_0": 16 * MIB, "ocr_pipeline": 999 * MIB}  # fmt: skip
    (found,) = oversized(sizes, 16 * MIB, 8 * MIB)
    assert (found.model, found.instance, found.bound_bytes) == ("text_detection", "text_detection_0_0", bound)
    assert "text_detection_0_0" in found.describe() and "48 MiB" in found.describe()
    assert oversized({"text_detection_0_0": bound}, 16 * MIB, 8 * MIB) == []  # the largest allowed: kept


def test_the_limiter_allows_one_reload_per_model_per_interval() -> None:
    limiter = RecycleLimiter(300.0)
    assert limiter.allow("text_detection", 1000.0)
    assert not limiter.allow("text_detection", 1299.0)
    assert limiter.allow("ocr_preprocess", 1299.0)  # another model: its own interval
    assert limiter.allow("text_detection", 1300.0)


class _Server:
    """Just enough of EmbeddedServer for Supervisor.recycle_oversized (regions come from a patch)."""

    def __init__(self) -> None:
        self.ports: dict[str, int] = {}
        self.requested_ports: dict[str, int] = {}
        self.grpc_url = "127.0.0.1:1"
        self.pid = 1
        self.shm_sizes = (16 * MIB, 8 * MIB)

    def is_running(self) -> bool:
        return True

    def protect_regions(self) -> None:
        pass


def test_a_flood_of_refused_requests_reloads_the_model_once_per_interval(monkeypatch) -> None:
    stub = Stub("text_detection_0_0", ProcInfo(10, shm.STUB_COMM, "S", 1, 1, 10))
    monkeypatch.setattr(supervise, "stubs_of", lambda pid: [stub])
    monkeypatch.setattr(shm, "region_bytes", lambda pid: 56 * MIB)  # regrown at once by every request
    reloads: list[str] = []
    supervisor = Supervisor(_Server(), reload_fn=reloads.append, recycle_interval_s=3600)  # type: ignore[arg-type]
    (event,) = supervisor.recycle_oversized()
    for _ in range(5):
        assert supervisor.recycle_oversized() == []
    assert reloads == ["text_detection"]
    assert event.kind == KIND_RECYCLED and "56 MiB" in event.message and "48 MiB" in event.message


def _detection_input(batch: int) -> grpcclient.InferInput:
    tensor = grpcclient.InferInput(contract.DET_INPUT, [batch, 2048, 2048, 3], "UINT8")
    tensor.set_data_from_numpy(np.zeros((batch, 2048, 2048, 3), np.uint8))
    return tensor


def _detection_recycled(event: HealthEvent) -> bool:
    return event.kind == KIND_RECYCLED and event.message.startswith("text_detection reloaded")


def test_a_region_grown_by_a_refused_request_is_recycled_and_the_pipeline_serves_on(
    triton: EmbeddedServer,
) -> None:
    assert triton.shm_sizes in ((SHM_DEFAULT_BYTES, SHM_GROWTH_BYTES), BACKEND_SHM_BYTES)
    start_bytes = triton.shm_sizes[0]  # pre-sized where /dev/shm has room, else the backend's own
    recycled = threading.Event()
    events: list[HealthEvent] = []

    def on_event(event: HealthEvent) -> None:
        events.append(event)
        if _detection_recycled(event):
            recycled.set()

    old = {s.info.pid for s in supervise.stubs_of(triton.pid or 0) if s.instance.startswith("text_detection")}
    with grpcclient.InferenceServerClient(triton.grpc_url) as client:
        # 4 x 2048 x 2048 x 3: 48 MiB in, past the bound from any region an allowed request left.
        with pytest.raises(InferenceServerException, match="MAX_DET_REQUEST_PIXELS"):
            client.infer(contract.DETECTION_MODEL, [_detection_input(4)], client_timeout=120)
        supervisor = Supervisor(triton, interval_s=0.5, probe_every=10**6, on_event=on_event)
        supervisor.start()
        try:
            assert recycled.wait(240), [e.message for e in events]
        finally:
            supervisor.stop()
        # An earlier test on the session's server may have grown another model's region: that model
        # is recycled too, rightly; the refused request here grows detection's alone, and once.
        assert len([e for e in events if _detection_recycled(e)]) == 1, [e.message for e in events]
        assert supervisor.restarts == 0
        new = [s for s in supervise.stubs_of(triton.pid or 0) if s.instance.startswith("text_detection")]
        assert new and not old & {s.info.pid for s in new}
        regions = {name for s in new for name in shm.regions_used_by(s.info.pid)}
        assert regions and all(shm.region_bytes(s.info.pid) == start_bytes for s in new)
        assert all(stat.S_IMODE((shm.SHM_DIR / name).stat().st_mode) == 0o600 for name in regions)
        image = grpcclient.InferInput(contract.IMAGE_INPUT, [1, 1], "BYTES")
        page = render_text_lines(["READ AFTER THE RELOAD", "Total 4711"], seed=5)
        image.set_data_from_numpy(np.array([[encode(page.image, "PNG")]], dtype=np.object_))
        result = client.infer(contract.PIPELINE_MODEL, [image], client_timeout=300)
        texts = b" ".join(result.as_numpy(contract.TEXTS_OUTPUT).reshape(-1)).decode()
        assert "RELOAD" in texts and "4711" in texts  # the page read after the reload
