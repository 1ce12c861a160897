"""Give glibc's held free memory back after a model run, when it holds much (pure ctypes, no Triton).

ONNX Runtime (its arena off) frees every buffer of a run; glibc keeps the freed chunks for reuse, so a
detection stub held 265-540 MB free after each receipt (mallinfo2's fordblks; measured in-process on
real receipts) and its RSS swung with the largest pages. `malloc_trim(0)` returns those pages (the
next run faults them in again): after every run it cost +16% CPU per detection run, only past a
threshold (300 MiB: 10 of 24 runs) about 3%, and held RSS at about the in-use size plus the threshold.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from collections.abc import Mapping
from dataclasses import dataclass

TRIM_THRESHOLD_BYTES = 300 * 1024 * 1024
# benchmarks/soak.py --trim-ab MIB sets it: instance 0 of each ONNX model trims past MIB (A/B in one run).
TRIM_AB_ENV = "SCANNER_APP_HEAP_TRIM_AB"
# glibc takes a buffer under its mmap threshold from the heap and keeps it once freed, and the dynamic
# threshold climbs to the largest buffer freed (32 MiB at most): tritonserver's copies of large
# requests, refused ones among them, then stayed in its heap (own memory +7.6 MB/min in a soak mix,
# 1.2 with the threshold fixed). The embedded server fixes it for tritonserver (MMAP_THRESHOLD_ENV);
# the stubs inherit that environment, and there a low threshold cost throughput (each numpy buffer
# faulted in afresh), so each stub sets its own back to glibc's dynamic maximum (`stub_malloc`).
MMAP_THRESHOLD_ENV = "MALLOC_MMAP_THRESHOLD_"
SERVER_MMAP_THRESHOLD_BYTES = 4 * 1024 * 1024
SERVER_SET_THRESHOLD_ENV = "SCANNER_APP_SERVER_MMAP_THRESHOLD"  # "1": the threshold is ours, not the user's
STUB_MMAP_THRESHOLD_BYTES = 32 * 1024 * 1024  # glibc's DEFAULT_MMAP_THRESHOLD_MAX on 64-bit
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt's parameters (malloc.h)


def _libc() -> ctypes.CDLL:
    """The C library (OSError where there is none to load)."""
    return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")


def server_malloc_env(environ: Mapping[str, str]) -> dict[str, str]:
    """What the embedded server adds to its environment: the fixed threshold, unless the user set one."""
    if MMAP_THRESHOLD_ENV in environ:
        return {}
    return {MMAP_THRESHOLD_ENV: str(SERVER_MMAP_THRESHOLD_BYTES), SERVER_SET_THRESHOLD_ENV: "1"}


def stub_malloc(environ: Mapping[str, str] = os.environ) -> bool:
    """In a model's stub: undo the server's fixed threshold (see above); True when it did."""
    if environ.get(SERVER_SET_THRESHOLD_ENV) != "1":
        return False
    try:
        libc = _libc()
        # glibc's own rule when the dynamic threshold rises: trim the heap top only past twice it.
        trim = libc.mallopt(_M_TRIM_THRESHOLD, 2 * STUB_MMAP_THRESHOLD_BYTES)
        return bool(libc.mallopt(_M_MMAP_THRESHOLD, STUB_MMAP_THRESHOLD_BYTES) and trim)
    except (OSError, AttributeError):  # not glibc: nothing was fixed
        return False


def trim_threshold_bytes(config_mib: str, instance_name: str, environ: Mapping[str, str]) -> int:
    """The trim threshold of one model instance: the config's `heap_trim_mib` (default
    TRIM_THRESHOLD_BYTES), or the A/B run's for instance 0."""
    ab = environ.get(TRIM_AB_ENV, "")
    mib = ab if ab.isdigit() and instance_name.endswith("_0") else config_mib
    return int(mib) * 2**20 if mib.isdigit() else TRIM_THRESHOLD_BYTES


class _MallInfo2(ctypes.Structure):
    _FIELDS = ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
               "keepcost")  # fmt: skip
    _fields_ = [(name, ctypes.c_size_t) for name in _FIELDS]


@dataclass(frozen=True)
class HeapTrimmer:
    """glibc's mallinfo2 and malloc_trim, where the C library has them (glibc >= 2.33)."""

    threshold_bytes: int
    _libc: ctypes.CDLL | None

    @classmethod
    def load(cls, threshold_bytes: int = TRIM_THRESHOLD_BYTES) -> HeapTrimmer:
        try:
            libc = _libc()
            libc.mallinfo2.restype = _MallInfo2
            libc.malloc_trim.argtypes = [ctypes.c_size_t]
        except (OSError, AttributeError):  # not glibc, or one without mallinfo2: nothing to trim
            libc = None
        return cls(threshold_bytes, libc)

    def held_free_bytes(self) -> int | None:
        """Bytes glibc holds in free chunks (all arenas), None where it cannot say."""
        return None if self._libc is None else int(self._libc.mallinfo2().fordblks)

    def trim_if_holding(self) -> bool:
        """malloc_trim(0) when glibc holds more than the threshold free; True when it trimmed."""
        held = self.held_free_bytes()
        if held is None or held <= self.threshold_bytes or self._libc is None:
            return False
        self._libc.malloc_trim(0)
        return True
