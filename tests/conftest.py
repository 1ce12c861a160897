"""Shared fixtures: the real embedded Triton server with the real default model set."""

from __future__ import annotations

import contextlib
import faulthandler
import inspect
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from _pytest.faulthandler import fault_handler_stderr_fd_key

from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.model_fetch import default_repository, fetch_model_set
from scanner_app.server.model_sets import DEFAULT_SET


@pytest.fixture(autouse=True)
def _library_in_tmp(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test writes the user's receipt library: `scan`, `watch` and `device scan` (in-process or
    child processes, which inherit the environment) default to a library of the test's own."""
    monkeypatch.setenv("SCANNER_APP_LIBRARY", str(tmp_path_factory.mktemp("library") / "library.sqlite"))


@pytest.fixture(scope="session")
def model_repository() -> Path:
    """The project's model repository with the default set placed (fetched once if absent)."""
    repository = default_repository()
    fetch_model_set(DEFAULT_SET, repository)  # a no-op when the current rewrite of the set is in place
    return repository


@pytest.fixture(scope="session")
def triton(model_repository: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedServer]:
    """One embedded server for the whole session, on free loopback ports."""
    log_path = tmp_path_factory.mktemp("triton") / "server.log"
    with EmbeddedServer(
        model_repository, grpc_port=0, http_port=0, metrics_port=0, log_path=log_path
    ) as server:
        yield server


@pytest.fixture(scope="module")
def two_servers(
    model_repository: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[EmbeddedServer]]:
    """Two more embedded servers on free loopback ports, started side by side (tests may kill them)."""
    logs = tmp_path_factory.mktemp("two-servers")
    servers = [
        EmbeddedServer(model_repository, 0, 0, 0, log_path=logs / f"server-{i}.log", ready_timeout=300)
        for i in range(2)
    ]
    try:
        for server in servers:
            server.start()
        for server in servers:
            server.wait_ready()
        yield servers
    finally:
        for server in servers:
            server.stop()



# Markers (registered in pyproject.toml); `pytest -m "not server and not gui and not sane"` is the pure
# half, which runs on a machine with neither a server nor a display nor SANE.
# `server`: needs a real Triton or baseline server, or the real models (placed, or their wheels from
# the registry). Found, not listed: a fixture in SERVER_FIXTURES, or a server start (SERVER_STARTS) in
# the source of the test, of a fixture it uses, or of a module-level function or string (a child's
# script) these name; SERVER_TESTS adds what that cannot see ("dir/file.py::test" or "dir/file.py",
# relative to tests/).
# `sane`: needs SANE's `test` backend (libsane1 and python-sane): found like a server start, from
# SANE_USES in the sources. `gui`: everything under tests/gui. `slow`: SLOW_TESTS, the longest tests.
SERVER_FIXTURES = frozenset({"triton", "two_servers", "model_repository", "wheel_for", "placed"})
SERVER_STARTS = ("EmbeddedServer(", "BaselineProcess(", '"serve"', "scanner_app.commands.serve")
SERVER_TESTS = frozenset[str]()
SANE_USES = ("use_sane_test_backend(",)
# Longest first (tens of seconds each): their files run first, so that with several workers
# (pytest-xdist) none of them is left to start last while the other workers sit idle.
SLOW_TESTS = (
    "benchmarks/test_gpu_check.py::test_cpu_mode_measures_the_baseline_and_each_triton_configuration",
    "commands/test_watch_restart.py::test_200_receipts_land_while_the_watcher_is_killed_and_restarted",
    "benchmarks/test_soak.py::test_short_soak_loses_nothing_and_refuses_every_hostile_request",
    "gui/test_background.py::test_owners_deleted_at_random_while_calls_and_posts_are_in_flight",
    "core/batch/test_runner.py::test_server_killed_mid_batch_then_back",  # 60 images, a server killed, back
    "load/test_scale_out.py::test_load_spreads_over_both_and_survives_a_killed_server",
    "gui/window/test_health.py::test_a_dead_stub_is_said_in_the_status_bar_and_the_app_reads_after_the_restart",
    "core/client/test_triton.py::test_pool_loses_no_request_when_a_server_dies_and_takes_it_back",
    "commands/test_scan_batch.py::test_batch_survives_one_of_two_servers_dying",
    "server/test_model_fetch.py::test_detection_rewrite_matches_original",  # every model set, in and out
    "server/test_embedded.py::test_server_started_off_the_main_thread_outlives_the_thread_and_dies_with_the_app",
)  # fmt: skip


def _code_names(code: types.CodeType) -> set[str]:
    """Global names a function's code uses, nested code (comprehensions, lambdas) included."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def _sources(item: pytest.Function) -> Iterator[str]:
    """The source of the test, of its fixtures, and of the module-level functions and strings (child
    process scripts) these name in their own modules, transitively."""
    todo: list[object] = [item.function]
    todo += [d.func for defs in item._fixtureinfo.name2fixturedefs.values() for d in defs]
    seen: set[int] = set()
    while todo:
        function = inspect.unwrap(todo.pop())  # type: ignore[arg-type]
        if id(function) in seen or not inspect.isfunction(function):
            continue
        seen.add(id(function))
        with contextlib.suppress(OSError, TypeError):
            yield inspect.getsource(function)
        module = sys.modules.get(function.__module__)
        for name in sorted(_code_names(function.__code__)):
            value = getattr(module, name, None)
            if isinstance(value, str):
                yield value
            elif inspect.isfunction(value) and value.__module__ == function.__module__:
                todo.append(value)


def _sources_use(item: pytest.Item, uses: tuple[str, ...]) -> bool:
    if not isinstance(item, pytest.Function):
        return False
    return any(use in source for source in _sources(item) for use in uses)


def _starts_a_server(item: pytest.Item) -> bool:
    return bool(SERVER_FIXTURES & set(getattr(item, "fixturenames", ()))) or _sources_use(item, SERVER_STARTS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    tests = Path(__file__).parent
    for item in items:
        path = item.path.relative_to(tests)
        names = {path.as_posix(), f"{path.as_posix()}::{getattr(item, 'originalname', item.name)}"}
        if path.parts[0] == "gui":
            item.add_marker(pytest.mark.gui)
        if names & SERVER_TESTS or _starts_a_server(item):
            item.add_marker(pytest.mark.server)
        if _sources_use(item, SANE_USES):
            item.add_marker(pytest.mark.sane)
        if names & set(SLOW_TESTS):
            item.add_marker(pytest.mark.slow)
    first = {test.split("::")[0]: rank for rank, test in reversed(list(enumerate(SLOW_TESTS)))}
    # a stable sort: the files of the slow tests first, longest first; each file's tests stay together
    items.sort(key=lambda item: first.get(item.path.relative_to(tests).as_posix(), len(SLOW_TESTS)))


# A test stuck in C while holding the GIL (a malloc arena lock a killed SANE reader thread left taken:
# CLOSING5) stops pytest-timeout's thread too. faulthandler's watchdog is C: it dumps every thread's
# stack and ends the process HANG_GRACE_S after the test's own timeout, so a hang costs CI minutes,
# not its whole budget. (This replaces pytest's faulthandler_timeout, which only dumps.)
HANG_GRACE_S = 60


@pytest.fixture(autouse=True)
def _end_the_run_on_a_hang(request: pytest.FixtureRequest) -> Iterator[None]:
    marker = request.node.get_closest_marker("timeout")
    timeout = float(marker.args[0]) if marker and marker.args else float(request.config.getini("timeout"))
    # the stderr pytest kept before capturing (its faulthandler plugin's), else fd 2
    stderr_fd = request.config.stash.get(fault_handler_stderr_fd_key, 2)
    faulthandler.dump_traceback_later(timeout + HANG_GRACE_S, exit=True, file=stderr_fd)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
