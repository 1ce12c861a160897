"""Where the `tritonserver` bundled in the `nvidia-pytriton` wheel lives, and its backend folder."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import platform
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from scanner_app.server.allocator import STUB_PRELOAD_ENV

_MIN_GLIBC = (2, 35)
_BACKEND_FILES = ("libtriton_python.so", "triton_python_backend_utils.py")
_STUB = "triton_python_backend_stub"
# The Python backend runs `<backend dir>/python/triton_python_backend_stub`: there, a wrapper that gives
# the stub the LD_PRELOAD the server was started with (an allocator preloaded for tritonserver alone,
# scanner_app/server/allocator.py), then runs the real stub (its /proc comm is still "triton_python_b").
_STUB_BINARY = _STUB + ".bin"
STUB_WRAPPER = f"""#!/bin/sh
# scanner-app (server/allocator.py): tritonserver's allocator is not its model stubs'.
if [ -n "${{{STUB_PRELOAD_ENV}+set}}" ]; then
  if [ -n "${STUB_PRELOAD_ENV}" ]; then export LD_PRELOAD="${STUB_PRELOAD_ENV}"; else unset LD_PRELOAD; fi
  unset {STUB_PRELOAD_ENV}
fi
exec "$0.bin" "$@"
"""
NO_SERVER_HINT = (
    "This platform has no bundled Triton server. Run one on a Linux x86-64 box or in the NGC "
    "tritonserver container and pass `--server HOST:PORT`."
)


class ServerStartError(RuntimeError):
    """The embedded server cannot start; the message says why and what to do."""


@dataclass(frozen=True)
class TritonInstall:
    """Where the wheel's server pieces are."""

    binary: Path
    libs: Path  # nvidia_pytriton.libs: the bundled shared libraries
    backend: Path  # backends/python
    stub: Path  # the Python backend stub for this interpreter's version
    version: str


def default_cache_dir() -> Path:
    """~/.cache/scanner-app (XDG_CACHE_HOME respected)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "scanner-app"


def find_triton() -> TritonInstall:
    """Locate the wheel's tritonserver; ServerStartError where there is none for this platform."""
    if not sys.platform.startswith("linux") or platform.machine() not in ("x86_64", "AMD64"):
        raise ServerStartError(f"{NO_SERVER_HINT} ({sys.platform} {platform.machine()})")
    libc = (os.confstr("CS_GNU_LIBC_VERSION") or "").split()  # "glibc 2.36"; none on musl
    if len(libc) != 2 or tuple(int(x) for x in libc[1].split(".")[:2]) < _MIN_GLIBC:
        raise ServerStartError(f"{NO_SERVER_HINT} (needs glibc >= 2.35, found {' '.join(libc) or 'none'})")
    spec = importlib.util.find_spec("pytriton")
    if spec is None or not spec.submodule_search_locations:
        raise ServerStartError(f"{NO_SERVER_HINT} (the nvidia-pytriton package is not installed)")
    root = Path(next(iter(spec.submodule_search_locations)))
    server = root / "tritonserver"
    py = f"{sys.version_info.major}.{sys.version_info.minor}"
    install = TritonInstall(
        binary=server / "bin" / "tritonserver",
        libs=root.parent / "nvidia_pytriton.libs",
        backend=server / "backends" / "python",
        stub=server / "python_backend_stubs" / py / _STUB,
        version=importlib.metadata.version("nvidia-pytriton"),
    )
    for path in (install.binary, install.libs, install.stub, *(install.backend / f for f in _BACKEND_FILES)):
        if not path.exists():
            raise ServerStartError(f"{NO_SERVER_HINT} (nvidia-pytriton {install.version} lacks {path})")
    return install


def prepare_backend_dir(install: TritonInstall, cache_dir: Path) -> Path:
    """A backend directory holding python/ (the backend, our Python's stub and its wrapper); reused
    when current."""
    py = f"{sys.version_info.major}.{sys.version_info.minor}"
    base = cache_dir / "triton-backends" / f"pytriton-{install.version}-py{py}"
    copies = {install.backend / f: f for f in _BACKEND_FILES} | {install.stub: _STUB_BINARY}
    target = base / "python"

    def current() -> bool:
        def key(path: Path) -> tuple[int, int]:
            st = path.stat()
            return st.st_size, st.st_mtime_ns

        try:
            wrapper = (target / _STUB).read_text()
        except (OSError, UnicodeDecodeError):  # none yet, or the stub itself (a folder made before wrappers)
            return False
        copied = all((target / name).is_file() and key(target / name) == key(s) for s, name in copies.items())
        return copied and wrapper == STUB_WRAPPER

    if current():
        return base
    base.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="python.tmp-", dir=base))
    try:
        tmp.chmod(0o755)
        for src, name in copies.items():
            shutil.copy2(src, tmp / name)  # copy2 keeps the mtime that current() compares
        (tmp / _STUB).write_text(STUB_WRAPPER)
        (tmp / _STUB).chmod(0o755)
        if target.exists():
            shutil.rmtree(target)
        try:
            tmp.rename(target)
        except OSError:
            if not current():  # not another process winning the race: a real failure
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return base
