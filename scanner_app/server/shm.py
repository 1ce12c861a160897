"""The Python backend's shared-memory regions in /dev/shm, and the /proc scans around them.

Each Python-backend model instance maps a `/dev/shm/triton_python_backend_shm_region_*` file. A
server that is killed leaves them behind; they are removed here only when no live process has one
open or mapped.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

SHM_DIR = Path("/dev/shm")
REGION_PREFIX = "triton_python_backend_shm_region_"
PROC = Path("/proc")


@dataclass(frozen=True)
class ProcInfo:
    """One process as /proc/PID/stat shows it."""

    pid: int
    comm: str
    state: str  # "Z": zombie
    ppid: int
    pgrp: int
    start_time: int  # clock ticks after boot: tells a process from a later one with the same PID


def proc_info(pid: int) -> ProcInfo | None:
    """The process `pid`, or None when it is gone."""
    try:
        raw = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    comm = raw[raw.index("(") + 1 : raw.rindex(")")]
    fields = raw[raw.rindex(")") + 2 :].split()
    # fields[0] is the state (stat field 3): ppid is field 4, pgrp 5, starttime 22.
    return ProcInfo(pid, comm, fields[0], int(fields[1]), int(fields[2]), int(fields[19]))


def all_pids() -> list[int]:
    """PIDs of all processes visible in /proc."""
    return [int(name) for name in os.listdir(PROC) if name.isdigit()]


def all_procs() -> list[ProcInfo]:
    """All visible processes."""
    return [info for pid in all_pids() if (info := proc_info(pid)) is not None]


def descendants(root: int, procs: Iterable[ProcInfo] | None = None) -> list[ProcInfo]:
    """All children, grandchildren... of `root`."""
    by_parent: dict[int, list[ProcInfo]] = {}
    for info in all_procs() if procs is None else procs:
        by_parent.setdefault(info.ppid, []).append(info)
    found: list[ProcInfo] = []
    todo = [root]
    while todo:
        for child in by_parent.get(todo.pop(), []):
            found.append(child)
            todo.append(child.pid)
    return found


def still_running(info: ProcInfo) -> bool:
    """True when the very process `info` (same PID and start time) still exists and is no zombie."""
    now = proc_info(info.pid)
    return now is not None and now.start_time == info.start_time and now.state not in ("Z", "X")


def group_members(leader: ProcInfo, procs: Iterable[ProcInfo] | None = None) -> list[ProcInfo]:
    """Live members of the process group that `leader` started (none if its PID now leads another)."""
    now = proc_info(leader.pid)
    if now is not None and now.start_time != leader.start_time:
        return []  # the PID was reused: that group is not the one `leader` led
    procs = all_procs() if procs is None else procs
    return [p for p in procs if p.pgrp == leader.pid and p.state not in ("Z", "X")]


def kill_leftovers(leader: ProcInfo, recorded: Iterable[ProcInfo], wait_s: float = 10.0) -> None:
    """SIGKILL what is left of `leader`'s process group and of `recorded`, until none is left."""
    recorded = list(recorded)
    deadline = time.monotonic() + wait_s
    while True:
        left = {p.pid for p in group_members(leader)}
        left |= {p.pid for p in recorded if still_running(p)}
        if not left or time.monotonic() > deadline:
            return
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.1)


def list_regions() -> list[Path]:
    """The Python backend's shared-memory files present now."""
    try:
        return sorted(p for p in SHM_DIR.iterdir() if p.name.startswith(REGION_PREFIX))
    except OSError:
        return []


def regions_used_by(pid: int) -> set[str]:
    """Names of the region files `pid` maps or holds open (raises PermissionError if unreadable)."""
    base = PROC / str(pid)
    names: set[str] = set()
    for line in (base / "maps").read_text(errors="replace").splitlines():
        if REGION_PREFIX in line:
            names.add(_region_name(line.split(maxsplit=5)[-1]))
    for fd in os.listdir(base / "fd"):
        try:
            target = os.readlink(base / "fd" / fd)
        except OSError:
            continue
        if REGION_PREFIX in target:
            names.add(_region_name(target))
    return names


def _region_name(path: str) -> str:
    return os.path.basename(path.removesuffix(" (deleted)"))


def _regions_in_use() -> tuple[set[str], set[int]]:
    """Region names some live process uses, and the owners of Triton processes that could not be read.

    Processes whose maps cannot be read (other users', or a sandbox's init even for root) only count
    when their name says Triton (tritonserver, triton_python_backend_stub): nothing else maps these.
    """
    used: set[str] = set()
    unreadable_uids: set[int] = set()
    for pid in all_pids():
        try:
            used |= regions_used_by(pid)
        except FileNotFoundError:
            continue  # gone meanwhile
        except OSError:
            info = proc_info(pid)
            if info is None or "triton" not in info.comm:
                continue
            try:
                unreadable_uids.add((PROC / str(pid)).stat().st_uid)
            except OSError:
                continue
    return used, unreadable_uids


def cleanup_stale_shm(
    candidates: Iterable[Path] | None = None,
    on_message: Callable[[str], object] | None = None,
) -> list[Path]:
    """Remove region files (all present, or `candidates`) that no live process has open or mapped.

    A file is kept when it belongs to another user (unless we are root), or when a Triton process of
    its owner could not be inspected. Returns the removed paths.
    """
    regions = list_regions() if candidates is None else [p for p in candidates if p.exists()]
    if not regions:
        return []
    used, unreadable_uids = _regions_in_use()
    me = os.geteuid()
    removed: list[Path] = []
    for path in regions:
        try:
            owner = path.stat().st_uid
        except OSError:
            continue
        if path.name in used or owner in unreadable_uids or (me != 0 and owner != me):
            continue
        try:
            path.unlink()
        except OSError:
            continue
        removed.append(path)
    if removed and on_message is not None:
        on_message(f"Removed {len(removed)} stale Triton shared-memory region(s) from {SHM_DIR}.")
    return removed


def protect_regions(pids: Iterable[int]) -> list[Path]:
    """Make the regions that `pids` use owner-only (0600): they hold receipt images and text.

    The Python backend creates them 0644 whatever the umask (boost sets the mode explicitly).
    """
    changed: list[Path] = []
    for pid in pids:
        try:
            names = regions_used_by(pid)
        except OSError:
            continue
        for name in names:
            path = SHM_DIR / name
            try:
                if path.stat().st_mode & 0o077:
                    path.chmod(0o600)
                    changed.append(path)
            except OSError:
                continue
    return changed


STUB_COMM = "triton_python_backend_stub"[:15]  # /proc/PID/comm keeps 15 characters


@dataclass(frozen=True)
class Stub:
    """One Python-backend stub process: the model instance it serves."""

    instance: str
    info: ProcInfo


def stubs_of(pid: int) -> list[Stub]:
    """The live stub processes under the server `pid`."""
    found = []
    for info in descendants(pid):
        if info.comm != STUB_COMM or info.state in ("Z", "X"):
            continue
        try:
            argv = (PROC / str(info.pid) / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        instance = argv[8].decode(errors="replace") if len(argv) > 8 else str(info.pid)
        found.append(Stub(instance, info))
    return found


def model_of(instance: str) -> str:
    """The model of a Triton instance name: `text_detection_0_1` -> `text_detection`."""
    parts = instance.rsplit("_", 2)
    return parts[0] if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit() else instance


def region_bytes(pid: int) -> int:
    """Size of the largest region file `pid` maps (a stub maps its own one); 0 when none or unreadable."""
    try:
        names = regions_used_by(pid)
    except OSError:
        return 0
    sizes = []
    for name in names:
        try:
            sizes.append((SHM_DIR / name).stat().st_size)
        except OSError:
            continue
    return max(sizes, default=0)


def orphaned_stubs(procs: Iterable[ProcInfo] | None = None) -> list[ProcInfo]:
    """Python-backend stubs of ours whose tritonserver is gone or a zombie.

    A SIGKILLed server that its parent has not reaped yet is a zombie, and its stubs' check of
    their parent (kill(pid, 0)) still succeeds: they run on, holding their memory and regions.
    """
    procs = all_procs() if procs is None else list(procs)
    by_pid = {p.pid: p for p in procs}
    me = os.geteuid()
    found = []
    for info in procs:
        if info.comm != STUB_COMM or info.state in ("Z", "X"):
            continue
        parent = by_pid.get(info.ppid)
        if parent is not None and parent.comm == "tritonserver" and parent.state not in ("Z", "X"):
            continue
        try:
            if me != 0 and (PROC / str(info.pid)).stat().st_uid != me:
                continue
        except OSError:
            continue
        found.append(info)
    return found


def stop_orphaned_stubs(on_message: Callable[[str], object] | None = None, wait_s: float = 10.0) -> int:
    """SIGKILL the orphaned stubs (they serve no server any more) and wait until they are gone."""
    orphans = orphaned_stubs()
    if not orphans:
        return 0
    deadline = time.monotonic() + wait_s
    while True:
        left = [p for p in orphans if still_running(p)]
        if not left or time.monotonic() > deadline:
            break
        for info in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(info.pid, signal.SIGKILL)
        time.sleep(0.1)
    if on_message is not None:
        on_message(f"Stopped {len(orphans)} model process(es) left by a tritonserver that died.")
    return len(orphans)
