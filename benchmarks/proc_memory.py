"""Memory of a process as /proc tells it (RSS and its parts, PSS, RSS less /dev/shm), the shared-memory
regions counted once, and the slopes of (seconds, MB) samples: the readings of benchmarks/soak.py and
benchmarks/hardening.py."""

from __future__ import annotations

import numpy as np

from scanner_app.server import shm


def rss_mb(pid: int, field_name: str = "VmRSS") -> float | None:
    """A field of /proc/PID/status in MB: VmRSS, or its parts RssAnon, RssFile, RssShmem."""
    try:
        for line in (shm.PROC / str(pid) / "status").read_text().splitlines():
            if line.startswith(f"{field_name}:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def pss_mb(pid: int) -> float | None:
    """Proportional set size: a shared page counts 1/n in each of the n mappings of it (PSS of the
    server and its stubs sums a /dev/shm page once, where RSS counts it in every mapping)."""
    try:
        for line in (shm.PROC / str(pid) / "smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def regions_mb(pids: list[int]) -> float:
    """MB of tmpfs pages of the shared-memory regions these processes map, each region once."""
    names: set[str] = set()
    for pid in pids:
        try:
            names |= shm.regions_used_by(pid)
        except OSError:
            continue
    total = 0
    for name in names:
        try:
            total += (shm.SHM_DIR / name).stat().st_blocks * 512
        except OSError:
            continue
    return total / 2**20


def own_mb(pid: int) -> float | None:
    """RSS less the /dev/shm pages it maps: the process's heap and its file pages (code, libraries)."""
    rss, shmem = rss_mb(pid), rss_mb(pid, "RssShmem")
    return None if rss is None or shmem is None else rss - shmem


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares MB per minute of (seconds, MB) points; 0 with fewer than 3."""
    if len(points) < 3:
        return 0.0
    t = np.array([p[0] for p in points]) / 60.0
    y = np.array([p[1] for p in points])
    return float(np.polyfit(t, y, 1)[0])


def robust_slope(points: list[tuple[float, float]]) -> float:
    """Theil-Sen MB per minute: the median slope over all pairs of points (a process whose memory swings
    up and down, as plain allocations do, does not tilt it as least squares can); 0 with fewer than 3."""
    if len(points) < 3:
        return 0.0
    t = np.array([p[0] for p in points]) / 60.0
    y = np.array([p[1] for p in points])
    i, j = np.triu_indices(len(t), 1)
    dt = t[j] - t[i]
    keep = dt > 0
    return float(np.median((y[j] - y[i])[keep] / dt[keep]))
