"""Machine figures for the server view: Triton's Prometheus page, or /proc for a local server's CPU."""

from __future__ import annotations

import os
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

_PROC = Path("/proc")


def parse_prometheus(text: str) -> dict[str, list[float]]:
    """Metric name -> the values of its series (labels dropped), from Prometheus text format."""
    values: dict[str, list[float]] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        head, _, rest = line.rpartition(" ")
        if not head:
            continue
        name = head.split("{", 1)[0].strip()
        try:
            values.setdefault(name, []).append(float(rest))
        except ValueError:
            continue
    return values


def fetch_metrics(url: str, timeout_s: float = 2.0) -> dict[str, list[float]]:
    """Read and parse a Prometheus page (raises OSError when it cannot be read)."""
    with urllib.request.urlopen(url, timeout=timeout_s) as response:
        return parse_prometheus(response.read().decode("utf-8", "replace"))


def mean(values: list[float] | None) -> float | None:
    return sum(values) / len(values) if values else None


def total(values: list[float] | None) -> float | None:
    return sum(values) if values else None


def listening_pid(port: int) -> int | None:
    """The PID of the local process listening on TCP `port`, when /proc lets us see it."""
    inodes = set()
    for table in ("net/tcp", "net/tcp6"):
        try:
            lines = (_PROC / table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 9 and fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{fields[9]}]")
    if not inodes:
        return None
    for proc in _PROC.iterdir():
        if not proc.name.isdigit():
            continue
        try:
            for fd in (proc / "fd").iterdir():
                if os.readlink(fd) in inodes:
                    return int(proc.name)
        except OSError:
            continue
    return None


def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, utime + stime in clock ticks) of a process."""
    try:
        text = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    return int(fields[1]), int(fields[11]) + int(fields[12])


def tree_ticks_by_pid(root: int) -> dict[int, int] | None:
    """CPU time (clock ticks) used so far by a process and each of its descendants, by pid."""
    stats = {}
    for proc in _PROC.iterdir():
        if proc.name.isdigit():
            stat = _stat(int(proc.name))
            if stat is not None:
                stats[int(proc.name)] = stat
    if root not in stats:
        return None
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in stats.items():
        children.setdefault(parent, []).append(pid)
    ticks, todo = {}, [root]
    while todo:
        pid = todo.pop()
        ticks[pid] = stats[pid][1]
        todo.extend(children.get(pid, ()))
    return ticks


def tree_cpu_ticks(root: int) -> int | None:
    """CPU time (clock ticks) used so far by a process and all its descendants."""
    ticks = tree_ticks_by_pid(root)
    return None if ticks is None else sum(ticks.values())


class ProcessTreeCpu:
    """CPU use (% of all cores) of a local server's process tree between two reads."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._hz = os.sysconf("SC_CLK_TCK")
        self._cores = os.cpu_count() or 1
        self._last = (time.monotonic(), tree_ticks_by_pid(pid))

    @classmethod
    def for_url(cls, grpc_url: str) -> ProcessTreeCpu | None:
        """The tree of the local process serving `grpc_url` ("127.0.0.1:P"), else None."""
        parsed = urlparse(f"//{grpc_url}")
        if parsed.hostname not in ("127.0.0.1", "localhost", "::1") or parsed.port is None:
            return None
        pid = listening_pid(parsed.port)
        return cls(pid) if pid else None

    def read(self) -> float | None:
        """Percent of all cores since the last read (None for the first or a gone process), in [0, 100].

        Counted process by process: a stub that exited since (a model reloaded) takes its ticks out of
        the tree's sum, which would read as negative use; one started since counts from its start.
        Ticks are sampled per process at the clock's rate, so a saturated tree can read a few percent
        over its cores on a short interval: clamped."""
        now, ticks = time.monotonic(), tree_ticks_by_pid(self.pid)
        then, before = self._last
        self._last = (now, ticks)
        if ticks is None or before is None or now <= then:
            return None
        used = sum(t - before.get(pid, 0) for pid, t in ticks.items() if t >= before.get(pid, 0))
        return min(100.0, 100.0 * used / self._hz / (now - then) / self._cores)
