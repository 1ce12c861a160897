"""Issue 17, memory per process against the real embedded server: the stubs' shared-memory regions
start at their working size (a region grown in 1 MiB steps keeps every old mapping, and the server's
RSS counted its pages once per mapping)."""

from __future__ import annotations

import numpy as np
import tritonclient.grpc as grpcclient

from scanner_app import contract
from scanner_app.server import shm
from scanner_app.server.embedded import SHM_DEFAULT_BYTES, EmbeddedServer
from scanner_app.server.supervise import stubs_of
from tests.helpers.paths import SROIE_IMAGES

RECEIPT = SROIE_IMAGES / "000.jpg"


def test_regions_start_at_their_working_size(triton: EmbeddedServer) -> None:
    image = grpcclient.InferInput(contract.IMAGE_INPUT, [1, 1], "BYTES")
    image.set_data_from_numpy(np.array([[RECEIPT.read_bytes()]], dtype=np.object_))
    with grpcclient.InferenceServerClient(triton.grpc_url) as client:
        client.infer(contract.PIPELINE_MODEL, [image], client_timeout=300)  # every step has run once
    ours = set().union(*(shm.regions_used_by(s.info.pid) for s in stubs_of(triton.pid or 0)))
    assert ours
    for name in ours:
        assert (shm.SHM_DIR / name).stat().st_size >= SHM_DEFAULT_BYTES, name
