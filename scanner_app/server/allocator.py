"""The memory allocator the embedded `tritonserver` runs with (issue 17, memory).

Under glibc's malloc tritonserver's own memory (RSS less /dev/shm) rose 1.2 MB/min through an hour's
soak (real receipts, hostile requests, a model reloaded every 5 minutes) and its floor never came
back down; Triton's documentation puts such growth down to glibc's heuristics and advises preloading
jemalloc or tcmalloc (the NGC container ships both). The embedded server preloads the first of
`CHOICES` this machine has: jemalloc or tcmalloc from the system, else mimalloc from the
`cmeel-mimalloc` wheel (a dependency on Linux x86-64), else it runs on glibc with its mmap threshold
fixed (`steps.heap.server_malloc_env`). Only tritonserver: the model stubs get back the LD_PRELOAD the
server was started with (`STUB_PRELOAD_ENV`, read by the stub wrapper of `triton_install`), since
their memory was flat on glibc (with `steps.heap`'s trims) and their throughput is what it was.
`SCANNER_APP_ALLOCATOR` chooses instead: `auto` (the default), `jemalloc`, `tcmalloc`, `mimalloc`,
`glibc`, or a library's path.
"""

from __future__ import annotations

import importlib.metadata
import platform
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from scanner_app.steps.heap import server_malloc_env

ALLOCATOR_ENV = "SCANNER_APP_ALLOCATOR"
PRELOAD_ENV = "LD_PRELOAD"
# The LD_PRELOAD the stubs run with (maybe empty); set only where an allocator was preloaded for the server.
STUB_PRELOAD_ENV = "SCANNER_APP_STUB_PRELOAD"
SYSTEM_LIBRARIES = {
    "jemalloc": ("libjemalloc.so.2",),
    "tcmalloc": ("libtcmalloc_minimal.so.4", "libtcmalloc.so.4"),
}
WHEEL_LIBRARIES = {"mimalloc": ("cmeel-mimalloc", "cmeel.prefix/lib/libmimalloc.so.3")}
# In order of preference (measured: benchmarks/malloc_ab.py, docs/benchmarks/robustness.md).
CHOICES = ("jemalloc", "tcmalloc", "mimalloc")


def library_dirs() -> tuple[Path, ...]:
    """Where Debian, Ubuntu, Fedora and a local build put shared libraries."""
    multiarch = f"{platform.machine()}-linux-gnu"
    return tuple(Path(d) for d in (f"/usr/lib/{multiarch}", f"/lib/{multiarch}", "/usr/lib64", "/usr/lib",
                                   "/usr/local/lib"))  # fmt: skip


def wheel_library(name: str) -> Path | None:
    """The allocator library an installed wheel ships (WHEEL_LIBRARIES), None without the wheel."""
    if name not in WHEEL_LIBRARIES:
        return None
    distribution, file = WHEEL_LIBRARIES[name]
    try:
        path = Path(str(importlib.metadata.distribution(distribution).locate_file(file)))
    except importlib.metadata.PackageNotFoundError:
        return None
    return path if path.is_file() else None


def _preloaded(environ: Mapping[str, str]) -> list[str]:
    """The libraries LD_PRELOAD names (the dynamic linker splits on colons and white space)."""
    return environ.get(PRELOAD_ENV, "").replace(":", " ").split()


class AllocatorError(ValueError):
    """SCANNER_APP_ALLOCATOR names something that cannot be preloaded."""


@dataclass(frozen=True)
class Allocator:
    """An allocator to preload into the server, or none of ours (`library` None)."""

    name: str
    library: Path | None = None

    def environment(self, environ: Mapping[str, str]) -> dict[str, str]:
        """What the server's environment gains: LD_PRELOAD with the library first (and the stubs'
        own LD_PRELOAD kept aside for them), or glibc's fixed threshold."""
        if self.library is None:
            return server_malloc_env(environ)
        preloaded = _preloaded(environ)
        if str(self.library) in preloaded:
            return {}
        return {
            PRELOAD_ENV: ":".join([str(self.library), *preloaded]),
            STUB_PRELOAD_ENV: environ.get(PRELOAD_ENV, ""),
        }

    def describe(self) -> str:
        return f"{self.name} ({self.library})" if self.library else self.name


GLIBC = Allocator("glibc malloc")


WheelLookup = Callable[[str], "Path | None"]


def _find(name: str, dirs: Iterable[Path], wheel: WheelLookup) -> Path | None:
    for folder in dirs:
        for file in SYSTEM_LIBRARIES.get(name, ()):
            if (folder / file).is_file():
                return folder / file
    return wheel(name)


def choose_allocator(
    environ: Mapping[str, str], dirs: Sequence[Path] | None = None, wheel: WheelLookup = wheel_library
) -> Allocator:
    """The allocator `SCANNER_APP_ALLOCATOR` asks for; AllocatorError when it cannot be had."""
    setting = environ.get(ALLOCATOR_ENV, "auto").strip()
    choice = setting.lower()
    folders = library_dirs() if dirs is None else dirs
    if choice == "glibc":
        return GLIBC
    if choice in CHOICES:
        found = _find(choice, folders, wheel)
        if found is None:
            raise AllocatorError(f"{ALLOCATOR_ENV}={setting}: this machine has no {setting} library")
        return Allocator(choice, found)
    if choice not in ("", "auto"):
        path = Path(setting).expanduser()
        if not path.is_file():
            known = ", ".join(("auto", *CHOICES, "glibc"))
            raise AllocatorError(f"{ALLOCATOR_ENV}={setting}: no such library ({known} or a .so file)")
        return Allocator(path.name, path.absolute())
    if any("malloc" in Path(entry).name for entry in _preloaded(environ)):
        return Allocator(f"yours ({PRELOAD_ENV})")  # an allocator you preload yourself: left as it is
    for name in CHOICES:
        found = _find(name, folders, wheel)
        if found is not None:
            return Allocator(name, found)
    return GLIBC
