"""The library tests: each test's own library, and no user data folder touched."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from scanner_app.core.library.library import Library


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The default library location resolves inside the test's folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("SCANNER_APP_LIBRARY", raising=False)


@pytest.fixture
def library(tmp_path: Path) -> Iterator[Library]:
    with Library(tmp_path / "lib" / "library.sqlite") as lib:
        yield lib
