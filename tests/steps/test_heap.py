"""Issue 17, memory: a model step gives glibc's held free memory back past a threshold, and a server on
glibc (SCANNER_APP_ALLOCATOR=glibc, or no jemalloc/tcmalloc here) runs with its mmap threshold fixed
while its stubs undo that (steps/heap.py); measured on real processes' own heaps."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from scanner_app.server.allocator import ALLOCATOR_ENV, GLIBC
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.steps.heap import (
    MMAP_THRESHOLD_ENV,
    SERVER_MMAP_THRESHOLD_BYTES,
    SERVER_SET_THRESHOLD_ENV,
    HeapTrimmer,
    server_malloc_env,
    stub_malloc,
)

MIB = 2**20


def _rss_anon_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no RssAnon in /proc/self/status")


def test_held_free_memory_is_given_back_only_past_the_threshold() -> None:
    trimmer = HeapTrimmer.load(threshold_bytes=32 * MIB)
    before = trimmer.held_free_bytes()
    assert before is not None  # glibc >= 2.33 here (the Triton wheel needs it too)
    chunks = [bytearray(64 * 1024) for _ in range(3200)]
    kept = chunks[1::2]  # between the freed ones: glibc cannot hand 100 MiB back by shrinking its heap
    del chunks
    held = trimmer.held_free_bytes()
    assert held is not None and held > 64 * MIB
    assert not HeapTrimmer(held + MIB, trimmer._libc).trim_if_holding()  # under its threshold: kept
    rss = _rss_anon_mib()
    assert trimmer.trim_if_holding()
    assert _rss_anon_mib() < rss - 50  # the pages went back to the system
    assert len(kept) == 1600


# A child reads how a freed 12 MiB buffer is treated after three like it (glibc's dynamic threshold
# has risen past 12 MiB by then): "held" is RssAnon while the fourth is alive, "after" once it is freed.
_CHILD = """
import sys
from pathlib import Path
def anon():
    line = next(l for l in Path("/proc/self/status").read_text().splitlines() if l.startswith("RssAnon:"))
    return int(line.split()[1]) / 1024
if sys.argv[1] == "stub":
    from scanner_app.steps.heap import stub_malloc
    assert stub_malloc()
for _ in range(3):
    b = bytearray(12 * 2**20); del b
base = anon()
b = bytearray(12 * 2**20)
held = anon() - base
del b
print(held, anon() - base)
"""


def _held_and_after(mode: str, env: dict[str, str]) -> tuple[float, float]:
    clean = {k: v for k, v in os.environ.items() if k not in (MMAP_THRESHOLD_ENV, SERVER_SET_THRESHOLD_ENV)}
    out = subprocess.run([sys.executable, "-c", _CHILD, mode], env=clean | env, capture_output=True,
                         text=True, check=True, timeout=60).stdout  # fmt: skip
    held, after = map(float, out.split())
    return held, after


def test_the_servers_threshold_gives_large_buffers_back_and_the_stubs_undo_it() -> None:
    ours = server_malloc_env({})
    assert ours == {MMAP_THRESHOLD_ENV: str(SERVER_MMAP_THRESHOLD_BYTES), SERVER_SET_THRESHOLD_ENV: "1"}
    assert server_malloc_env({MMAP_THRESHOLD_ENV: "65536"}) == {}  # the user's own setting wins
    held, after = _held_and_after("plain", {})
    assert held < 2 and after < 2  # glibc's default: the freed buffer's pages are kept and reused
    held, after = _held_and_after("plain", ours)
    assert held > 10 and after < 2  # tritonserver: mapped for the buffer, unmapped when it is freed
    held, after = _held_and_after("stub", ours)
    assert held < 2  # a stub: back to glibc's default (kept and reused, no fault-in per buffer)
    assert not stub_malloc({})  # a threshold the server did not set is left alone


def test_a_server_on_glibc_runs_with_the_fixed_threshold(model_repository: Path, tmp_path: Path) -> None:
    server = EmbeddedServer(model_repository, 0, 0, 0, log_path=tmp_path / "server.log",
                            env={ALLOCATOR_ENV: "glibc"})  # fmt: skip
    server.start()  # the environment is set at the start: no need to wait for the models
    try:
        assert server.pid is not None and server.allocator is GLIBC
        environ = Path(f"/proc/{server.pid}/environ").read_bytes().split(b"\0")
        assert f"{MMAP_THRESHOLD_ENV}={SERVER_MMAP_THRESHOLD_BYTES}".encode() in environ
        assert not any(e.startswith(b"LD_PRELOAD=") and b"malloc" in e for e in environ)
    finally:
        server.stop()
