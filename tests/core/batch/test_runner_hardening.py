"""Issue 17, points 4-7 on the batch side: odd names, retries of server failures, a full or
read-only output folder, owner-only files. `scan` runs as a user runs it, against the real server."""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from scanner_app.core.batch.runner import run_batch
from scanner_app.core.client.triton import OcrClient
from scanner_app.core.errors import InferenceFailed
from scanner_app.core.results import PageResult
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore, path_from_text, path_text
from scanner_app.server.embedded import EmbeddedServer
from tests.helpers.paths import SROIE_IMAGES

RECEIPTS = SROIE_IMAGES
LONG_STEM = "r" * 246  # with ".jpg": 250 characters, the longest a name can be with room to spare


def _scan(*args: str, limit_bytes: int | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "scanner_app.cli", "scan", "--quiet", *args]

    def limit() -> None:  # stands in for a full disk where no small file system can be mounted
        if limit_bytes is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

    return subprocess.run(command, capture_output=True, text=True, timeout=900, preexec_fn=limit)


def _receipts(folder: Path, count: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    return [Path(shutil.copy(p, folder)) for p in sorted(RECEIPTS.glob("*.jpg"))[:count]]


def test_odd_names_are_read_and_exported_under_safe_names(triton: EmbeddedServer, tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    first, second, third = _receipts(inputs, 3)
    raw = os.fsencode(inputs) + b"/caf\xe9-latin1.jpg"  # not UTF-8: Python keeps it as surrogates
    os.rename(first, os.fsdecode(raw))
    second.rename(inputs / f"{LONG_STEM}.jpg")
    out = tmp_path / "out"
    done = _scan(str(inputs), "--server", triton.grpc_url, "--out", str(out), "--format", "json,csv,txt,pdf")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "3 files ok, 0 failed" in done.stderr
    pdfs = sorted(p.name for p in (out / "pdf").rglob("*.pdf"))
    assert len(pdfs) == 3 and all(len(os.fsencode(n)) <= 255 for n in pdfs), pdfs
    assert "caf\ufffd-latin1.jpg" in (out / "results_files.csv").read_text(encoding="utf-8-sig")
    assert third.name in (out / "results_files.csv").read_text(encoding="utf-8-sig")


def test_store_keeps_a_non_utf8_path_exactly() -> None:
    path = Path(os.fsdecode(b"/data/caf\xe9.jpg"))
    assert path_from_text(path_text(path)) == path
    assert path_text(Path("/data/café.jpg")) == "/data/café.jpg"


def test_resume_retries_files_the_server_failed_and_retry_failed_the_rest(
    triton: EmbeddedServer, tmp_path: Path
) -> None:
    inputs = tmp_path / "in"
    good, flaky = _receipts(inputs, 2)
    (inputs / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)  # the file's own fault
    out = tmp_path / "out"
    with OcrClient(triton.grpc_url) as client:

        def server_fails_once(data: bytes, name: str) -> PageResult:
            # Fault injection: the server's INTERNAL error (a stub that died), for one file only.
            if name.startswith(flaky.name):
                raise InferenceFailed(f"{name}: Stub process 'text_recognition_0_1' is not healthy")
            return client.recognize(data, name)

        first = run_batch([inputs], out, server_fails_once, jobs=2)
        assert {p.name for p, _ in first.failed} == {flaky.name, "broken.png"}
        second = run_batch([inputs], out, client.recognize, jobs=2)  # what --resume does
    assert {p.name for p in second.ok} == {good.name, flaky.name}
    assert [p.name for p, _ in second.failed] == ["broken.png"]  # not retried: the file is bad
    again = _scan(str(inputs), "--server", triton.grpc_url, "--out", str(out), "--retry-failed")
    assert "Retrying 1 failed file(s)." in again.stderr
    assert again.returncode == 1 and "broken.png" in again.stderr


@contextlib.contextmanager
def _small_disk(path: Path, size: str) -> Iterator[bool]:
    """A tmpfs of `size` at `path` when we may mount one (root); False when the caller must limit."""
    path.mkdir()
    command = ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(path)]
    mounted = os.geteuid() == 0 and subprocess.run(command, capture_output=True).returncode == 0
    try:
        yield mounted
    finally:
        if mounted:
            subprocess.run(["umount", "--lazy", str(path)], check=False)


def _remount(path: Path, options: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{options}", str(path)], check=True)


def test_disk_full_and_read_only_output_say_what_and_where_and_keep_results(
    triton: EmbeddedServer, tmp_path: Path
) -> None:
    inputs = tmp_path / "in"
    _receipts(inputs, 4)
    out = tmp_path / "disk"
    with _small_disk(out, "320k") as mounted:
        limit = None if mounted else 320 * 1024
        full = _scan(str(inputs), "--server", triton.grpc_url, "--out", str(out), limit_bytes=limit)
        assert full.returncode == 3, full.stderr
        assert "Traceback" not in full.stderr
        # The store or, when the store still had room, the exports: named, with where and why.
        what = (f"cannot write the batch store {out / STORE_NAME}", f"cannot write the exports in {out}")
        assert any(w in full.stderr for w in what) and "full" in full.stderr, full.stderr
        assert "run again with --resume" in full.stderr
        with BatchStore(out / STORE_NAME) as store:
            kept = store.summary().done
        if mounted:
            _remount(out, "ro")
            read_only = _scan(str(inputs), "--server", triton.grpc_url, "--out", str(out), "--resume")
            assert read_only.returncode == 3 and "Traceback" not in read_only.stderr, read_only.stderr
            assert str(out / STORE_NAME) in read_only.stderr
            _remount(out, "rw,size=8m")  # space freed
        resumed = _scan(str(inputs), "--server", triton.grpc_url, "--out", str(out), "--resume")
        assert resumed.returncode == 0, resumed.stderr
        assert f"{4 - kept} pages sent" in resumed.stderr  # what was stored was kept, not sent again
        with BatchStore(out / STORE_NAME) as store:
            assert store.summary().done == 4
        assert stat.S_IMODE((out / STORE_NAME).stat().st_mode) == 0o600
        assert stat.S_IMODE((out / "results.json").stat().st_mode) == 0o600


def test_new_output_folder_is_owner_only(tmp_path: Path) -> None:
    with BatchStore(tmp_path / "new" / STORE_NAME) as store:
        assert stat.S_IMODE(store.path.parent.stat().st_mode) == 0o700
        assert stat.S_IMODE(store.path.stat().st_mode) == 0o600


@pytest.fixture(autouse=True)
def _receipts_present() -> None:
    assert RECEIPTS.is_dir(), f"the receipts are expected in {RECEIPTS}"
