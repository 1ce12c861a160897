"""Shared fixtures: the real embedded Triton server with the real default model set."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.model_fetch import default_repository, fetch_model_set
from scanner_app.server.model_sets import DEFAULT_SET


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
