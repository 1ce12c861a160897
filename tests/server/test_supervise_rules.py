"""Issue 17's pure rules: which stubs the supervisor watches after a model reload, which ONNX
sessions keep ORT's CPU arena, and the soak's per-process slopes around the kill."""

from __future__ import annotations

import importlib.util
import mmap
import os
import sys
import uuid
from pathlib import Path
from types import ModuleType

from scanner_app.server.shm import REGION_PREFIX, SHM_DIR, ProcInfo
from scanner_app.server.supervise import Stub, Supervisor, model_of
from scanner_app.steps.heap import TRIM_AB_ENV, TRIM_THRESHOLD_BYTES, trim_threshold_bytes
from scanner_app.steps.providers import ARENA_AB_ENV, use_cpu_arena
from tests.helpers.paths import BENCHMARKS


class _NoServer:
    def __init__(self) -> None:
        self.ports: dict[str, int] = {}
        self.requested_ports: dict[str, int] = {}
        self.grpc_url = "127.0.0.1:1"
        self.pid = None

    def protect_regions(self) -> None:
        pass


def _stub(instance: str, pid: int) -> Stub:
    return Stub(instance, ProcInfo(pid, "triton_python_b", "S", 1, 1, pid))


def test_model_of_an_instance_name() -> None:
    assert model_of("text_detection_0_1") == "text_detection"
    assert model_of("ocr_pipeline") == "ocr_pipeline"


def test_a_reloaded_model_is_watched_by_its_new_stubs_and_a_dead_stub_is_not_adopted() -> None:
    supervisor = Supervisor(_NoServer())  # type: ignore[arg-type]
    supervisor._stubs = {s.instance: s.info for s in [_stub("text_detection_0_0", 10),
                         _stub("text_detection_0_1", 11), _stub("text_recognition_0_0", 20)]}  # fmt: skip
    # Model control reloaded detection with one instance (a new process); recognition's stub died.
    supervisor._adopt_reloaded([_stub("text_detection_0_0", 12)])
    assert {i: p.pid for i, p in supervisor._stubs.items()} == {
        "text_detection_0_0": 12,
        "text_recognition_0_0": 20,
    }


def test_a_deliberate_reload_runs_with_no_check_and_the_new_stubs_are_watched_after(monkeypatch) -> None:
    from scanner_app.server import supervise

    server = _NoServer()
    server.pid = 1  # type: ignore[assignment]
    server.is_running = lambda: True  # type: ignore[attr-defined]
    supervisor = Supervisor(server)  # type: ignore[arg-type]
    now = [_stub("text_detection_0_0", 10), _stub("text_recognition_0_0", 20)]
    monkeypatch.setattr(supervise, "stubs_of", lambda pid: list(now))
    supervisor._record_stubs()
    with supervisor.paused():
        now[:] = [_stub("text_recognition_0_0", 20)]  # detection unloaded: between two sets of stubs
        assert not supervisor._lock.acquire(blocking=False)  # a check would wait for the reload
        now.append(_stub("text_detection_0_0", 30))  # loaded again, a new process
        now.append(_stub("text_detection_0_1", 10))  # the old version's process, still exiting
    assert {i: p.pid for i, p in supervisor._stubs.items()} == {"text_detection_0_0": 30,
                                                                 "text_recognition_0_0": 20}  # fmt: skip


def test_only_a_config_or_the_ab_run_keeps_the_cpu_arena() -> None:
    assert not use_cpu_arena("0", "text_detection_0_0", {})
    assert use_cpu_arena("1", "text_detection_0_1", {})
    assert use_cpu_arena("0", "text_detection_0_0", {ARENA_AB_ENV: "1"})
    assert not use_cpu_arena("0", "text_detection_0_1", {ARENA_AB_ENV: "1"})


def test_the_trim_threshold_is_the_configs_or_the_ab_runs_for_instance_0() -> None:
    mib = 2**20
    assert trim_threshold_bytes("", "text_recognition_0_0", {}) == TRIM_THRESHOLD_BYTES
    assert trim_threshold_bytes("64", "text_recognition_0_1", {}) == 64 * mib
    assert trim_threshold_bytes("", "text_recognition_0_0", {TRIM_AB_ENV: "32"}) == 32 * mib
    assert trim_threshold_bytes("64", "text_recognition_0_1", {TRIM_AB_ENV: "32"}) == 64 * mib
    assert trim_threshold_bytes("junk", "text_detection_0_0", {TRIM_AB_ENV: "x"}) == TRIM_THRESHOLD_BYTES


def _soak() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "soak", BENCHMARKS / "soak.py"
    )
    assert spec is not None and spec.loader is not None
    soak = importlib.util.module_from_spec(spec)
    sys.modules["soak"] = soak
    spec.loader.exec_module(soak)
    return soak


def test_soak_slopes_before_and_after_the_kill() -> None:
    soak = _soak()
    # Process 1 grows 1 MB/min until the kill at 600 s; process 2 is flat at 50 MB afterwards.
    samples = [(t, {"p": (1, 100 + t / 60)}) for t in range(0, 600, 30)]
    samples += [(t, {"p": (2, 50.0)}) for t in range(600, 1800, 30)]
    result = soak.SoakResult(1800.0, soak.Tally(), samples, 600.0, [])
    (row,) = soak.process_rows(result, warmup_s=60)
    assert abs(row.slope_before - 1.0) < 1e-6 and abs(row.slope_after) < 1e-6
    assert row.robust_after is not None and abs(row.robust_after) < 1e-6
    swings = [(60.0 * m, 300.0 + (200.0 if m % 2 else 0.0)) for m in range(30)] + [(1800.0, 800.0)]
    assert abs(soak.robust_slope(swings)) < abs(soak.slope(swings))  # one spike at the end tilts less
    assert row.start == 100 and row.end == 50 and row.peak > 109


def test_soak_rows_of_each_measure() -> None:
    soak = _soak()
    # RSS rises 1 MB/min (pages of the regions touched again through a new mapping); PSS stays flat.
    rss = [(t, {"tritonserver": (1, 100 + t / 60), soak.SHM_ROW: (1, 50.0)}) for t in range(0, 900, 30)]
    pss = [(t, {"tritonserver": (1, 80.0), soak.SHM_ROW: (1, 50.0)}) for t in range(0, 900, 30)]
    result = soak.SoakResult(900.0, soak.Tally(), rss, None, [], {"pss": pss})
    by_rss = {row.name: row for row in soak.process_rows(result, warmup_s=60)}
    by_pss = {row.name: row for row in soak.process_rows(result, warmup_s=60, measure="pss")}
    assert abs(by_rss["tritonserver"].slope_after - 1.0) < 1e-6
    assert abs(by_pss["tritonserver"].slope_after) < 1e-6
    assert by_pss[soak.SHM_ROW].end == 50.0


def test_a_region_mapped_twice_counts_twice_in_rss_and_once_as_a_region() -> None:
    soak = _soak()
    path = SHM_DIR / f"{REGION_PREFIX}test-{uuid.uuid4()}"
    size = 4 * 1024 * 1024
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.posix_fallocate(fd, 0, size)  # as the Python backend's regions: allocated up front
        before = soak.rss_mb(os.getpid(), "RssShmem")
        first, second = mmap.mmap(fd, size), mmap.mmap(fd, size)  # a grown region: old and new mapping
        for view in (first, second):
            for offset in range(0, size, mmap.PAGESIZE):
                view[offset] = 1
        grown = soak.rss_mb(os.getpid(), "RssShmem") - before
        assert grown > 1.9 * size / 2**20  # the same pages, counted once per mapping
        assert abs(soak.regions_mb([os.getpid()]) - size / 2**20) < 0.01  # the region, once
        first.close()
        second.close()
    finally:
        os.close(fd)
        path.unlink()


def test_regions_are_pre_sized_only_where_dev_shm_has_room_for_them() -> None:
    from scanner_app.server.embedded import SHM_DEFAULT_BYTES, python_shm_args, shm_free_bytes

    assert python_shm_args(64 * 2**20) == []  # a container's default /dev/shm: the backend's 1 MiB start
    assert python_shm_args(None) == []
    big = python_shm_args(8 * 2**30)
    assert f"--backend-config=python,shm-default-byte-size={SHM_DEFAULT_BYTES}" in big and len(big) == 2
    free = shm_free_bytes()
    assert free is None or free >= 0


def test_stubs_gone_after_a_signal_to_the_server_name_the_server_not_a_stub(monkeypatch) -> None:
    from scanner_app.server import supervise

    server = _NoServer()
    server.pid = 1  # type: ignore[assignment]
    server.is_running = lambda: True  # type: ignore[attr-defined]
    log = ['I1202 "Started GRPCInferenceService at 127.0.0.1:1"']
    server.log_tail = lambda lines=40: "\n".join(log)  # type: ignore[attr-defined]
    supervisor = Supervisor(server)  # type: ignore[arg-type]
    now = [_stub("text_detection_0_0", 10), _stub("text_recognition_0_0", 20)]
    monkeypatch.setattr(supervise, "stubs_of", lambda pid: list(now))
    monkeypatch.setattr(supervise.shm, "still_running", lambda info: any(s.info == info for s in now))
    supervisor._record_stubs()
    now.pop()  # one stub gone, no signal in the log: a dead stub
    assert supervisor._problem(False) == ("stub-died", "model instance process died: text_recognition_0_0")
    log += ["Signal (15) received.", '"Waiting for in-flight requests to complete."']
    now.clear()  # Triton unloads every model on SIGTERM
    kind, message = supervisor._problem(False) or ("", "")
    assert kind == "server-exited" and "signal 15 (SIGTERM)" in message and "shutting down" in message
    assert supervise.signal_received("Signal (99) received.") == "signal 99"


def test_each_start_keeps_the_logs_of_the_last_processes(tmp_path: Path) -> None:
    from scanner_app.server.log_files import earlier_log, rotate

    log = tmp_path / "tritonserver-8001.log"
    assert rotate(log) is None  # nothing to keep yet
    for n in range(5):
        log.write_text(f"start {n}")
        kept = rotate(log, keep=3)
        assert kept == earlier_log(log, 1) and kept.read_text() == f"start {n}" and not log.exists()
    assert [earlier_log(log, n).read_text() for n in (1, 2, 3)] == ["start 4", "start 3", "start 2"]
    assert not earlier_log(log, 4).exists()
    assert earlier_log(log, 2).name == "tritonserver-8001.2.log"


def test_old_logs_of_other_ports_are_pruned_the_newest_kept(tmp_path: Path) -> None:
    import os

    from scanner_app.server.log_files import prune

    now = 1_000_000_000.0
    day = 24 * 3600
    ages = {f"tritonserver-{port}.log": age for port, age in [(1, 30), (2, 20), (3, 5), (4, 1), (5, 0)]}
    ages["tritonserver-5.1.log"] = 9
    ages["notes.txt"] = 99  # not a server log: never touched
    for name, age in ages.items():
        path = tmp_path / name
        path.write_text(name)
        os.utime(path, (now - age * day, now - age * day))
    deleted = prune(tmp_path, keep=4, max_age_s=7 * day, now=now)
    # the 4 newest stay whatever their age; of the rest, those over a week old go
    assert sorted(p.name for p in deleted) == ["tritonserver-1.log", "tritonserver-2.log"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "tritonserver-3.log",
        "tritonserver-4.log", "tritonserver-5.1.log", "tritonserver-5.log"]  # fmt: skip
    assert prune(tmp_path, keep=0, max_age_s=7 * day, now=now) == [tmp_path / "tritonserver-5.1.log"]


def test_an_exit_in_words_with_the_errors_the_log_ends_with() -> None:
    from scanner_app.server.log_files import describe_exit, last_errors

    assert describe_exit(-6) == "was killed by signal 6 (SIGABRT)"
    assert describe_exit(1) == "exited with code 1" and describe_exit(-99) == "was killed by signal 99"
    log = "\n".join([
        "I1204 00:10:00.1 1 server.cc] started",
        'E1204 00:10:00.2 1 server.cc:241] "CudaDriverHelper has not been initialized."',
        "E1204 00:10:01.2 1 model.cc] Stub process 'x' is not healthy",
        "terminate called after throwing an instance of 'boost::interprocess::lock_exception'",
        "  what():  boost::interprocess::lock_exception",
        "I1204 00:10:02.0 1 server.cc] Waiting",
    ])  # fmt: skip
    errors = last_errors(log)
    assert [e[:5] for e in errors] == ["E1204", "termi", "what("] and "lock_exception" in errors[-1]
    assert last_errors(log, count=1) == [errors[-1]] and len(last_errors(log, width=10)[0]) == 10
    assert last_errors("I1204 all well") == []
