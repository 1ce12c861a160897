"""The watched folder: seconds from a file landing to its result on disk, and the watcher's idle CPU.

Usage: python benchmarks/watch.py [--files 15] [--burst 20] [--idle 30] [--known 200] [--server HOST:PORT]

For native file events (inotify) and for polling (--poll, every 2 s, as on a network share), one
`scanner-app watch` process each:
1. idle CPU: with ``--known`` files in the folder (small notes, read first), the watcher's CPU time over
   ``--idle`` seconds of nothing happening, as % of one core (from /proc/PID/stat). Goal < 1 %.
2. latency, one at a time: ``--files`` receipts land one by one, each once the previous result is
   out (the server idle): from the moment the copy is closed to the watcher's "read" line, which it
   prints after the file's exports are written. p50 / p95.
3. latency in a burst: ``--burst`` receipts land at once; p50 / p95 includes waiting behind the others.
Receipts: ../shared/data/sroie/img when present (real scans), else rendered ones.
"""

from __future__ import annotations

import argparse
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from batch import make_folder

from scanner_app.commands.scan import server_url

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sroie" / "img"
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


class Watcher:
    """A `scanner-app watch` process; records when each "read" line arrives."""

    def __init__(self, inbox: Path, out: Path, url: str, poll: bool) -> None:
        cmd = [sys.executable, "-m", "scanner_app.cli", "watch", str(inbox), "--out", str(out),
               "--server", url, "--format", "txt,json", "--jobs", "4"]  # fmt: skip
        cmd += ["--poll"] if poll else []
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.read_at: dict[str, float] = {}
        self.started = threading.Event()
        self.cond = threading.Condition()
        threading.Thread(target=self._stdout, daemon=True).start()
        threading.Thread(target=self._stderr, daemon=True).start()

    def _stdout(self) -> None:
        for line in self.proc.stdout:  # type: ignore[union-attr]
            if line.startswith("read"):
                name = Path(line[4:].strip().partition(" -> ")[0]).name
                with self.cond:
                    self.read_at[name] = time.perf_counter()
                    self.cond.notify_all()

    def _stderr(self) -> None:
        for line in self.proc.stderr:  # type: ignore[union-attr]
            if line.startswith("watching"):
                self.started.set()
            elif not line.startswith("stopped"):
                print("  watcher:", line.rstrip(), file=sys.stderr)

    def wait_read(self, names: list[str], timeout: float = 600) -> None:
        with self.cond:
            if not self.cond.wait_for(lambda: all(n in self.read_at for n in names), timeout):
                missing = [n for n in names if n not in self.read_at]
                raise TimeoutError(f"not read within {timeout} s: {missing}")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=120)


def land(path: Path, data: bytes) -> float:
    """Write a file as a copier does (one open, write, close); the moment it is closed."""
    with open(path, "wb") as f:
        f.write(data)
    return time.perf_counter()


def percentiles(values: list[float]) -> str:
    q = statistics.quantiles(values, n=20, method="inclusive") if len(values) > 1 else values * 19
    return f"p50 {statistics.median(values):.2f} s, p95 {q[18]:.2f} s (n={len(values)})"


def payloads(root: Path, count: int) -> list[bytes]:
    """``count`` distinct receipts' bytes (real scans when present; a trailing tag makes each distinct)."""
    if DATA.is_dir():
        sources = [p.read_bytes() for p in sorted(DATA.glob("*.jpg"))]
    else:
        sources = [p.read_bytes() for p in make_folder(root / "rendered", 20, seed=3)]
    # A JPEG comment segment right after the start marker makes each file's bytes (and hash) unique.
    tags = [f"watch benchmark {i:07d}".encode() for i in range(count)]
    return [sources[i % len(sources)][:2] + b"\xff\xfe" + struct.pack(">H", len(tag) + 2) + tag
            + sources[i % len(sources)][2:] for i, tag in enumerate(tags)]  # fmt: skip


def measure(url: str, root: Path, poll: bool, args: argparse.Namespace) -> dict[str, str]:
    inbox, out = root / "in", root / "out"
    inbox.mkdir()
    data = payloads(root, args.files + args.burst)
    single, burst = data[: args.files], data[args.files :]
    known = make_folder(inbox / "read before", args.known, seed=8, small=True)  # one-line notes: quick
    watcher = Watcher(inbox, out, url, poll)
    try:
        watcher.started.wait(120)
        watcher.wait_read([p.name for p in known], timeout=1800)
        time.sleep(3.0)  # let the summary exports and the first rescan pass
        cpu0, t0 = cpu_seconds(watcher.proc.pid), time.perf_counter()
        time.sleep(args.idle)
        idle = 100 * (cpu_seconds(watcher.proc.pid) - cpu0) / (time.perf_counter() - t0)

        one_by_one = []
        for i, blob in enumerate(single):
            name = f"single_{i:04d}.jpg"
            landed = land(inbox / name, blob)
            watcher.wait_read([name])
            one_by_one.append(watcher.read_at[name] - landed)
        names = [f"burst_{i:04d}.jpg" for i in range(len(burst))]
        landed_at = {n: land(inbox / n, blob) for n, blob in zip(names, burst, strict=True)}
        watcher.wait_read(names)
        in_burst = [watcher.read_at[n] - landed_at[n] for n in names]
    finally:
        watcher.stop()
    return {
        "idle CPU": f"{idle:.2f} % of a core with {len(known)} files in the folder, over {args.idle:g} s",
        "one at a time": percentiles(one_by_one),
        f"burst of {len(burst)}": percentiles(in_burst),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", help="a running Triton (default: start the embedded one)")
    parser.add_argument("--files", type=int, default=15)
    parser.add_argument("--burst", type=int, default=20)
    parser.add_argument("--idle", type=float, default=30.0)
    parser.add_argument("--known", type=int, default=200)
    args = parser.parse_args(argv)
    with server_url(args.server) as url:
        results = {}
        for poll in (False, True):
            with tempfile.TemporaryDirectory() as tmp:
                mode = "polling every 2 s" if poll else "native events"
                results[mode] = measure(url, Path(tmp), poll, args)
    print(f"\nwatch benchmark ({'real SROIE scans' if DATA.is_dir() else 'rendered receipts'})")
    for mode, rows in results.items():
        print(f"  {mode}:")
        for key, value in rows.items():
            print(f"    {key:<16} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
