"""Issue 17, memory: the embedded tritonserver runs with jemalloc, tcmalloc or mimalloc preloaded
(scanner_app/server/allocator.py) while its model stubs keep the allocator they had; SCANNER_APP_ALLOCATOR
chooses."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
import tritonclient.grpc as grpcclient

from scanner_app import contract
from scanner_app.server.allocator import (
    ALLOCATOR_ENV,
    GLIBC,
    PRELOAD_ENV,
    STUB_PRELOAD_ENV,
    Allocator,
    AllocatorError,
    choose_allocator,
    wheel_library,
)
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.supervise import stubs_of
from scanner_app.server.triton_install import STUB_WRAPPER
from scanner_app.steps.heap import MMAP_THRESHOLD_ENV
from tests.helpers.paths import SROIE_IMAGES


def _library(folder: Path, file: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / file).write_bytes(b"\x7fELF")
    return folder / file


def _no_wheel(name: str) -> Path | None:
    return None


def test_jemalloc_then_tcmalloc_then_the_wheels_mimalloc_then_glibc(tmp_path: Path) -> None:
    tcmalloc = _library(tmp_path / "first", "libtcmalloc_minimal.so.4")
    jemalloc = _library(tmp_path / "second", "libjemalloc.so.2")
    dirs = [tmp_path / "first", tmp_path / "second"]
    assert choose_allocator({}, dirs) == Allocator("jemalloc", jemalloc)  # wherever it lies
    jemalloc.unlink()
    assert choose_allocator({}, dirs) == Allocator("tcmalloc", tcmalloc)
    tcmalloc.unlink()
    mimalloc = wheel_library("mimalloc")
    assert mimalloc is not None, "cmeel-mimalloc is a dependency on Linux x86-64 (pyproject.toml)"
    assert choose_allocator({}, dirs) == Allocator("mimalloc", mimalloc)
    assert choose_allocator({}, dirs, wheel=_no_wheel) is GLIBC  # glibc, with its mmap threshold fixed
    assert MMAP_THRESHOLD_ENV in GLIBC.environment({})


def test_the_setting_chooses_and_a_wrong_one_is_named(tmp_path: Path) -> None:
    jemalloc = _library(tmp_path, "libjemalloc.so.2")
    assert choose_allocator({ALLOCATOR_ENV: "glibc"}, [tmp_path]) is GLIBC
    assert choose_allocator({ALLOCATOR_ENV: "mimalloc"}, [tmp_path]).library == wheel_library("mimalloc")
    custom = _library(tmp_path / "opt", "libcustom.so")
    assert choose_allocator({ALLOCATOR_ENV: str(custom)}, [tmp_path]).library == custom
    with pytest.raises(AllocatorError, match=f"{ALLOCATOR_ENV}=/nowhere/libfoo.so: no such library"):
        choose_allocator({ALLOCATOR_ENV: "/nowhere/libfoo.so"}, [tmp_path])
    with pytest.raises(AllocatorError, match="this machine has no tcmalloc"):
        choose_allocator({ALLOCATOR_ENV: "tcmalloc"}, [tmp_path], wheel=_no_wheel)
    # An allocator you preload yourself is left as it is; other preloads get ours in front.
    yours = {PRELOAD_ENV: "/opt/libtcmalloc.so.4"}
    assert choose_allocator(yours, [tmp_path]).library is None
    assert PRELOAD_ENV not in choose_allocator(yours, [tmp_path]).environment(yours)
    other = {PRELOAD_ENV: "/opt/libother.so"}
    preload = choose_allocator(other, [tmp_path]).environment(other)
    assert preload == {PRELOAD_ENV: f"{jemalloc}:/opt/libother.so", STUB_PRELOAD_ENV: "/opt/libother.so"}
    assert choose_allocator({}, [tmp_path]).environment({PRELOAD_ENV: f"{jemalloc}"}) == {}  # never twice


def _run_wrapper(tmp_path: Path, env: dict[str, str]) -> str:
    """What the real stub would see: its LD_PRELOAD and its arguments."""
    wrapper = tmp_path / "triton_python_backend_stub"
    wrapper.write_text(STUB_WRAPPER)
    stub = tmp_path / "triton_python_backend_stub.bin"
    stub.write_text('#!/bin/sh\necho "${LD_PRELOAD-unset}|${SCANNER_APP_STUB_PRELOAD-unset}|$*"\n')
    for path in (wrapper, stub):
        path.chmod(0o755)
    base = {k: v for k, v in os.environ.items() if k not in (PRELOAD_ENV, STUB_PRELOAD_ENV)}
    done = subprocess.run([str(wrapper), "model.py", "a b"], env=base | env, capture_output=True, text=True,
                          check=True, timeout=30)  # fmt: skip
    return done.stdout.strip()


def test_the_stub_wrapper_gives_the_stub_its_own_preload(tmp_path: Path) -> None:
    ours = "/nowhere/libjemalloc.so.2"  # the dynamic linker warns and goes on
    assert _run_wrapper(tmp_path, {PRELOAD_ENV: ours, STUB_PRELOAD_ENV: ""}) == "unset|unset|model.py a b"
    both = {PRELOAD_ENV: f"{ours}:/x.so", STUB_PRELOAD_ENV: "/x.so"}
    assert _run_wrapper(tmp_path, both) == "/x.so|unset|model.py a b"
    assert _run_wrapper(tmp_path, {PRELOAD_ENV: "/y.so"}) == "/y.so|unset|model.py a b"  # not ours: untouched


def _maps(pid: int) -> str:
    return Path(f"/proc/{pid}/maps").read_text()


def test_the_server_runs_on_jemalloc_and_its_stubs_do_not(triton: EmbeddedServer) -> None:
    # scripts/prepare_tests.py installs libjemalloc2; a machine without it gets mimalloc (test below).
    assert triton.allocator.name == "jemalloc"
    library = triton.allocator.library
    assert library is not None and triton.pid is not None
    environ = Path(f"/proc/{triton.pid}/environ").read_bytes().split(b"\0")
    assert any(e.startswith(f"{PRELOAD_ENV}={library}".encode()) for e in environ)
    assert library.name in _maps(triton.pid)
    stubs = stubs_of(triton.pid)
    assert stubs
    for stub in stubs:
        assert library.name not in _maps(stub.info.pid), stub.instance
        assert Path(f"/proc/{stub.info.pid}/exe").resolve().name == "triton_python_backend_stub.bin"


RECEIPT = SROIE_IMAGES / "000.jpg"


def test_a_fresh_machine_s_mimalloc_serves_a_receipt(model_repository: Path, tmp_path: Path) -> None:
    """What a machine without jemalloc or tcmalloc runs: mimalloc from the wheel, in the server only."""
    with EmbeddedServer(model_repository, 0, 0, 0, log_path=tmp_path / "server.log",
                        env={ALLOCATOR_ENV: "mimalloc"}) as server:  # fmt: skip
        assert server.allocator.name == "mimalloc" and server.pid is not None
        assert "libmimalloc" in _maps(server.pid)
        image = grpcclient.InferInput(contract.IMAGE_INPUT, [1, 1], "BYTES")
        image.set_data_from_numpy(np.array([[RECEIPT.read_bytes()]], dtype=np.object_))
        with grpcclient.InferenceServerClient(server.grpc_url) as client:
            result = client.infer(contract.PIPELINE_MODEL, [image], client_timeout=300)
        texts = result.as_numpy(contract.TEXTS_OUTPUT)
        assert texts is not None and len(texts[0]) > 10  # a whole receipt's lines
        stubs = stubs_of(server.pid)
        assert stubs and not any("libmimalloc" in _maps(s.info.pid) for s in stubs)
