"""The watched folder's acceptance test: 200 real receipts land at random moments in a folder that
`scanner-app watch` (a real process, the real Triton server) watches; some are written slowly in
chunks (one pauses longer than the settle time mid-file), two are renamed in, one is truncated; the
watcher is killed (SIGKILL) part-way and started again. Every good file is read exactly once (the
store, the watcher's own output and the server's inference count agree), the truncated one is
reported, and nothing is read half-written.

The receipts come from ../shared/data (SROIE, both sets), which a user's fresh clone does not have:
the test says so and does not run there. To stay affordable on 2 cores each receipt is its top part,
downscaled (still a real scan); variants of one receipt differ in size, so all 200 are distinct.
"""

from __future__ import annotations

import hashlib
import io
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import tritonclient.grpc as grpcclient
from PIL import Image

from scanner_app.contract import PIPELINE_MODEL
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore
from scanner_app.server.embedded import EmbeddedServer
from tests.helpers.paths import SHARED_DATA

DATA = SHARED_DATA
SETS = [DATA / "sroie" / "img", DATA / "sroie-dev" / "img"]
N_FILES = 200
JOBS = 2
SETTLE_S = 0.5
pytestmark = pytest.mark.skipif(
    not all(s.is_dir() for s in SETS), reason=f"needs the real receipts in {DATA} (absent on a fresh clone)"
)


def _receipts(n: int) -> list[bytes]:
    """``n`` distinct small JPEGs cut from the real receipts (the top third, 280-420 px wide)."""
    sources = sorted(p for s in SETS for p in s.glob("*.jpg"))
    out: list[bytes] = []
    for variant in range(-(-n // len(sources))):
        for path in sources:
            with Image.open(path) as image:
                image = image.convert("RGB")
                image = image.crop((0, 0, image.width, image.height // 3))
                width = 280 + 35 * variant
                image = image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)
            buf = io.BytesIO()
            image.save(buf, "JPEG", quality=88)
            out.append(buf.getvalue())
    return out[:n]


def _inferences(url: str) -> int:
    with grpcclient.InferenceServerClient(url) as client:
        stats = client.get_inference_statistics(PIPELINE_MODEL, as_json=True, client_timeout=30)
    return sum(int(s.get("inference_count", 0)) for s in stats["model_stats"])


class WatchProcess:
    """`scanner-app watch` in a process of its own; its stdout lines parsed as they come."""

    def __init__(self, inbox: Path, out: Path, url: str, seen: Callable[[str, Path, str], None]) -> None:
        cmd = [sys.executable, "-m", "scanner_app.cli", "watch", str(inbox), "--out", str(out),
               "--server", url, "--jobs", str(JOBS), "--settle", str(SETTLE_S),
               "--incomplete-after", "3", "--format", "txt,json"]  # fmt: skip
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, args=(seen,), daemon=True)
        self._reader.start()

    def _read(self, seen: Callable[[str, Path, str], None]) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            kind, _, rest = line.partition(" ")
            if kind in ("read", "failed"):
                sep = " -> " if kind == "read" else ": "
                path, _, detail = rest.strip().partition(sep)
                seen(kind, Path(path), detail.strip())

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)
        self._reader.join(timeout=30)

    def terminate(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=120)
        self._reader.join(timeout=30)
        return code


class Writer(threading.Thread):
    """Writes the planned files at random moments, as a copier and a person would."""

    def __init__(self, inbox: Path, staging: Path, payloads: list[bytes], rng: random.Random) -> None:
        super().__init__(daemon=True)
        self.inbox, self.staging, self.payloads, self.rng = inbox, staging, payloads, rng
        self.written: dict[Path, bytes] = {}  # final path -> final content (good files)
        self.cut: Path | None = None
        self.progress = threading.Condition()
        self.count = 0
        self.slow: list[threading.Thread] = []
        self.error: BaseException | None = None

    def _path_for(self, i: int) -> Path:
        folder = ("", "2026/March", "2026/April", "2026/April/desk 2")[i % 4]
        return self.inbox / folder / f"receipt_{i:03d}.jpg"

    def _slow(self, path: Path, data: bytes, long_pause: bool) -> None:
        chunks = [data[k : k + len(data) // 6 + 1] for k in range(0, len(data), len(data) // 6 + 1)]
        with open(path, "wb") as f:
            for n, chunk in enumerate(chunks):
                f.write(chunk)
                f.flush()
                # A copier on a slow link; one stalls mid-file for longer than the settle time.
                time.sleep(3 * SETTLE_S if long_pause and n == 2 else self.rng.uniform(0.05, 0.3))

    def run(self) -> None:
        try:
            self._run()
        except BaseException as exc:  # reported by the test
            self.error = exc

    def _run(self) -> None:
        slow = set(self.rng.sample(range(N_FILES), 20))
        renamed = self.rng.sample(sorted(set(range(N_FILES)) - slow), 2)
        cut_at = self.rng.randrange(N_FILES)
        for i, data in enumerate(self.payloads):
            time.sleep(self.rng.expovariate(1 / 0.08))  # random arrival moments
            target = self._path_for(i)
            target.parent.mkdir(parents=True, exist_ok=True)
            if i in slow:
                thread = threading.Thread(target=self._slow, args=(target, data, i == min(slow)), daemon=True)
                thread.start()
                self.slow.append(thread)
            elif i == renamed[0]:  # written under a copier's hidden temporary name, then renamed
                temp = target.with_name(f".{target.name}.part")
                temp.write_bytes(data)
                os.rename(temp, target)
            elif i == renamed[1]:  # moved in from another folder of the same disk
                staged = self.staging / target.name
                staged.write_bytes(data)
                os.rename(staged, target)
            else:
                target.write_bytes(data)
            self.written[target] = data
            if i == cut_at:
                self.cut = self.inbox / "broken_scan.jpg"
                self.cut.write_bytes(data[: len(data) * 2 // 3])  # the copier died: never finished
            with self.progress:
                self.count += 1
                self.progress.notify_all()
        for thread in self.slow:
            thread.join()

    def wait_count(self, n: int, timeout: float = 300) -> None:
        with self.progress:
            assert self.progress.wait_for(lambda: self.count >= n or not self.is_alive(), timeout)


@pytest.mark.timeout(2400)  # 200 OCR reads on 2 shared cores
def test_200_receipts_land_while_the_watcher_is_killed_and_restarted(
    triton: EmbeddedServer, tmp_path: Path
) -> None:
    inbox, out, staging = tmp_path / "inbox", tmp_path / "out", tmp_path / "staging"
    inbox.mkdir()
    staging.mkdir()
    payloads = _receipts(N_FILES)
    assert len(set(payloads)) == N_FILES
    before = _inferences(triton.grpc_url)

    cond = threading.Condition()
    reads: dict[str, list[Path]] = {"A": [], "B": []}
    failures: list[tuple[Path, str]] = []

    def seen_by(run: str) -> Callable[[str, Path, str], None]:
        def seen(kind: str, path: Path, detail: str) -> None:
            with cond:
                (reads[run].append(path) if kind == "read" else failures.append((path, detail)))
                cond.notify_all()

        return seen

    watchers: list[WatchProcess] = []
    try:
        first = WatchProcess(inbox, out, triton.grpc_url, seen_by("A"))
        watchers.append(first)
        writer = Writer(inbox, staging, payloads, random.Random(12))
        writer.start()
        with cond:  # more than one failure: something is wrong with every file, stop waiting
            assert cond.wait_for(lambda: len(reads["A"]) >= 40 or len(failures) > 1, 900), first.lines[-10:]
        assert len(failures) <= 1, failures[:3]
        first.kill()  # mid-burst: pages in flight, files settling, files arriving
        with BatchStore(out / STORE_NAME) as store:
            done_by_first = {f.path for f in store.files() if f.state == "done"}
            failed_by_first = {f.path for f in store.files() if f.state == "failed"}
        writer.wait_count(120)  # these arrive while no watcher runs
        second = WatchProcess(inbox, out, triton.grpc_url, seen_by("B"))
        watchers.append(second)
        writer.join(timeout=600)
        assert writer.error is None and not writer.is_alive(), writer.error
        good = set(writer.written)
        assert writer.cut is not None and len(good) == N_FILES
        with cond:
            finished = cond.wait_for(lambda: (set(reads["B"]) | done_by_first >= good
                                     and (failures or writer.cut in failed_by_first)) or len(failures) > 1,
                                     1500)  # fmt: skip
        code = second.terminate()
        missing = sorted(good - set(reads["B"]) - done_by_first)
        assert finished and len(failures) <= 1, (failures[:3], missing[:5], second.lines[-6:])
        assert code == 0, second.lines[-10:]
    finally:
        for watcher in watchers:
            if watcher.proc.poll() is None:
                watcher.kill()

    # Exactly once: the restart reads only what the killed run had not stored, and nothing twice.
    assert not set(reads["B"]) & done_by_first
    for run in ("A", "B"):
        assert len(reads[run]) == len(set(reads[run])), f"run {run} read a file twice"
    with BatchStore(out / STORE_NAME) as store:
        files = {f.path: f for f in store.files()}
        pages = {f.path: store.pages(f) for f in files.values()}
    assert set(files) == good | {writer.cut}
    assert {p for p, f in files.items() if f.state == "done"} == good
    # Nothing read half-written: what was read is the final content, and it read as a receipt.
    for path, data in writer.written.items():
        assert files[path].sha256 == hashlib.sha256(data).hexdigest(), f"{path} was read before it was whole"
        assert len(pages[path]) == 1 and pages[path][0].result.lines, path
        assert (out / path.relative_to(inbox).with_name(f"{path.name}.txt")).read_text(encoding="utf-8")
    # The broken one is reported, by name and cause, and only it failed.
    assert files[writer.cut].state == "failed" and "truncated" in (files[writer.cut].error or "")
    if writer.cut not in failed_by_first:  # else the killed run failed it and died before saying so
        assert [p for p, _ in failures] == [writer.cut] and "broken_scan.jpg" in failures[0][1]
    assert all(p == writer.cut for p, _ in failures)
    # The server read each good receipt once; the killed run may have had JOBS pages in flight.
    sent = _inferences(triton.grpc_url) - before
    assert N_FILES <= sent <= N_FILES + JOBS, sent
