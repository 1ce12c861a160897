"""Qt test set-up: offscreen platform, QSettings isolated in a temporary folder for every test."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QCoreApplication, QSettings


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path: Path) -> Iterator[Path]:
    """Every test gets its own, empty settings file; nothing leaks into the user's real settings."""
    folder = tmp_path / "settings"
    folder.mkdir()
    QCoreApplication.setOrganizationName("scanner-app-tests")
    QCoreApplication.setApplicationName("scanner-app-tests")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
        QSettings.setPath(QSettings.Format.IniFormat, scope, str(folder))
    yield folder


@pytest.fixture
def connection(qtbot, triton) -> Iterator:
    """The app's ServerConnection to the session's real Triton server, ready."""
    from scanner_app.gui.connection.link import ServerConnection

    conn = ServerConnection(urls=[triton.grpc_url], start_embedded_if_unconfigured=False)
    conn.start()
    qtbot.waitUntil(lambda: conn.state.status == "ready", timeout=60_000)
    yield conn
    conn.shutdown()
