"""The markers tests/conftest.py applies: `-m "not server and not gui and not sane"` keeps the pure tests."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers.paths import REPO


def _collected(marks: str, *files: str) -> set[str]:
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only", "-m", marks]
    done = subprocess.run([*command, *files], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 5), done.stdout + done.stderr  # 5: nothing selected
    return {line.split("::")[1].split("[")[0] for line in done.stdout.splitlines() if "::" in line}


def test_pure_half_leaves_out_server_and_gui_tests() -> None:
    files = (
        "tests/core/client/test_triton.py",
        "tests/server/test_embedded.py",
        "tests/core/export/test_formats.py",
    )
    pure = _collected("not server and not gui", *files, "tests/gui/i18n/test_translators.py")
    assert {"test_searchable_pdf", "test_backoff_doubles_with_jitter_up_to_the_cap"} <= pure  # no server
    assert "test_connect_describes_the_real_pipeline" not in pure  # the triton fixture
    assert "test_pool_loses_no_request_when_a_server_stops_gracefully" not in pure  # a helper starts two
    assert "test_ready_on_loopback_with_models" not in pure  # a module fixture starts one
    # a child process's script, a module-level string, starts one
    assert "test_server_started_off_the_main_thread_outlives_the_thread_and_dies_with_the_app" not in pure
    assert not {name for name in pure if "catalogue" in name or "chinese_ui" in name}  # gui


def test_sane_tests_have_their_own_mark() -> None:
    files = ("tests/core/devices/test_sane_device.py", "tests/core/devices/test_sane_worker.py")
    pure = _collected("not server and not gui and not sane", *files)
    assert "test_other_platforms_get_the_clear_message" in pure  # no SANE needed
    assert "test_lists_the_test_devices_and_their_capabilities" not in pure  # its fixture opens SANE
    assert "test_a_driver_that_crashes_is_reported_and_replaced" not in pure  # a module helper opens it
    assert "test_flatbed_page_in_every_depth_and_mode" in _collected("sane", *files)


def test_slow_marks() -> None:
    assert _collected("slow", "tests/core/batch/test_runner.py", "tests/server/test_embedded.py") == {
        "test_server_killed_mid_batch_then_back",
        "test_server_started_off_the_main_thread_outlives_the_thread_and_dies_with_the_app",
    }
