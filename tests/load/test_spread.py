"""The demo's speed-up call: per-window throughput, a bootstrap interval, "too short to call" (no Qt)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from scanner_app.load.host_metrics import ProcessTreeCpu
from scanner_app.load.report import RunResult, WindowStats
from scanner_app.load.server_stats import ProcessMonitor
from scanner_app.load.spread import Verdict, bootstrap_ratio, call_speedup, window_rates


def _window(i: int, completed: int, duration_s: float = 2.0) -> WindowStats:
    return WindowStats(i, duration_s, completed, 0, 0, completed / duration_s, 1.0, 1.0, 1.0, 1.0, 1.0)


def _result(counts: list[int], duration_s: float = 2.0) -> RunResult:
    windows = tuple(_window(i, n, duration_s) for i, n in enumerate(counts))
    completed = sum(counts)
    total = duration_s * len(counts)
    return RunResult(
        target="pipeline", url="x", concurrency=4, completed=completed, errors={}, mismatches=0,
        throughput=completed / total if total else 0.0, mean_ms=1.0, p50_ms=1.0, p90_ms=1.0, p95_ms=1.0,
        p99_ms=1.0, duration_s=total, stable=True, windows=windows, server=None,
    )  # fmt: skip


def test_the_issue_s_six_against_nine_requests_is_too_short_to_call() -> None:
    call = call_speedup(_result([3, 3, 3]), _result([2, 2, 2]))
    assert call.ratio == pytest.approx(1.5)
    assert call.verdict is Verdict.TOO_SHORT
    assert (call.candidate_completed, call.reference_completed) == (9, 6)


def test_a_clear_speedup_has_an_interval_above_one_that_holds_the_ratio() -> None:
    triton = _result([20, 22, 19, 21, 20, 23, 20, 21])
    baseline = _result([10, 11, 9, 10, 10, 11, 10, 9])
    call = call_speedup(triton, baseline)
    assert call.verdict is Verdict.FASTER
    assert call.low is not None and call.high is not None
    assert 1.0 < call.low <= call.ratio <= call.high
    assert call.interval_text == f"{call.low:.2f}-{call.high:.2f}"


def test_windows_that_overlap_give_no_clear_difference_and_slower_is_said() -> None:
    unclear = call_speedup(_result([12, 8, 14, 6, 11, 9]), _result([9, 12, 8, 13, 10, 10]))
    assert unclear.verdict is Verdict.UNCLEAR
    assert unclear.low is not None and unclear.high is not None and unclear.low < 1.0 < unclear.high
    slower = call_speedup(_result([10, 10, 11, 9, 10, 10]), _result([20, 21, 19, 20, 22, 20]))
    assert slower.verdict is Verdict.SLOWER and slower.high is not None and slower.high < 1.0


def test_too_few_windows_is_too_short_even_with_many_responses() -> None:
    assert call_speedup(_result([200, 210]), _result([100, 90])).verdict is Verdict.TOO_SHORT


def test_a_baseline_that_completed_nothing_gives_no_ratio() -> None:
    call = call_speedup(_result([5, 5, 5, 5]), _result([0, 0, 0, 0]))
    assert call.ratio is None and call.verdict is Verdict.NO_REFERENCE


def test_bootstrap_is_deterministic_and_weighs_windows_by_length() -> None:
    a = _result([4, 6, 5, 5]).windows
    b = _result([2, 3, 2, 3]).windows
    assert bootstrap_ratio(a, b, seed=3) == bootstrap_ratio(a, b, seed=3)
    # Identical windows leave nothing to resample: the interval is the ratio itself.
    same = _result([5, 5, 5]).windows
    assert bootstrap_ratio(same, _result([2, 2, 2], duration_s=1.0).windows) == pytest.approx((1.25, 1.25))
    assert window_rates(_result([4, 6], duration_s=2.0)) == [2.0, 3.0]
    with pytest.raises(ValueError, match="at least one measured window"):
        bootstrap_ratio((), b)


def test_process_monitor_reads_each_tree_on_its_own() -> None:
    """A busy process's tree reads CPU time; an idle one beside it stays at 0 (per process, not host)."""
    burn = (
        "import sys, time\nsys.stdin.readline()\n"
        "t = time.process_time()\nwhile time.process_time() - t < 0.4: pass\n"
    )
    busy = subprocess.Popen([sys.executable, "-c", burn + "print('done', flush=True)\nsys.stdin.read()"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    idle = subprocess.Popen([sys.executable, "-c", "import sys; print('up', flush=True); sys.stdin.read()"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert idle.stdout is not None and idle.stdout.readline().strip() == "up"
        monitor = ProcessMonitor(idle.pid, {"busy": ProcessTreeCpu(busy.pid)})
        assert busy.stdin is not None
        busy.stdin.write("go\n")  # it burns only from now on, inside the monitor's interval
        busy.stdin.flush()
        assert busy.stdout is not None and busy.stdout.readline().strip() == "done"  # 0.4 s of CPU burnt
        sample = monitor.sample()
        readings = dict(sample.process_cpu)
        assert readings["busy"] > 0.0
        assert sample.cpu_util is not None and sample.cpu_util < readings["busy"]
        assert sample.cpu_source == "proc"
    finally:
        for proc in (busy, idle):
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait(10)


def test_a_child_that_exits_between_reads_does_not_read_as_negative_use() -> None:
    """A stub that used CPU and exited between two reads (a model reloaded) takes its ticks out of the
    tree: the reading stays within 0-100 % (subtracting the tree's sums read -3871 % here)."""
    parent_code = (
        "import subprocess, sys\n"
        "burn = 'import sys, time\\nt = time.process_time()\\nwhile time.process_time() - t < 0.5: pass\\n"
        "print(1, flush=True)\\nsys.stdin.read()'\n"
        "pipe = subprocess.PIPE\n"
        "child = subprocess.Popen([sys.executable, '-c', burn], stdin=pipe, stdout=pipe)\n"
        "child.stdout.readline(); print('burnt', flush=True)\n"
        "sys.stdin.readline(); child.stdin.close(); child.wait(); print('reaped', flush=True)\n"
        "sys.stdin.read()\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", parent_code],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert parent.stdout is not None and parent.stdin is not None
        assert parent.stdout.readline().strip() == "burnt"  # the child's 0.5 s of CPU are in the tree now
        tree = ProcessTreeCpu(parent.pid)
        parent.stdin.write("end\n")
        parent.stdin.flush()
        assert parent.stdout.readline().strip() == "reaped"  # its ticks left the tree with it
        reading = tree.read()
        assert reading is not None and 0.0 <= reading <= 100.0
    finally:
        assert parent.stdin is not None
        parent.stdin.close()
        parent.wait(10)
