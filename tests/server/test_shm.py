"""Issue 17, caution from issue 13 ("Removed 9 stale regions" while other servers ran): a clean-up
run beside a live server removes only regions no process uses, never that server's."""

from __future__ import annotations

import uuid

from scanner_app.server import shm
from scanner_app.server.embedded import EmbeddedServer


def test_cleanup_beside_a_running_server_keeps_its_regions(triton: EmbeddedServer) -> None:
    assert triton.pid is not None
    live = set().union(*(shm.regions_used_by(p.pid) for p in shm.descendants(triton.pid)))
    assert live
    stale = shm.SHM_DIR / f"{shm.REGION_PREFIX}test_{uuid.uuid4()}"  # as a SIGKILLed server leaves them
    stale.write_bytes(b"\0" * 64)
    try:
        removed = {p.name for p in shm.cleanup_stale_shm()}
        assert stale.name in removed
        assert not removed & live, removed & live
        assert all((shm.SHM_DIR / name).exists() for name in live)
    finally:
        stale.unlink(missing_ok=True)
