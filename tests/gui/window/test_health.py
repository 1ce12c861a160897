"""Issue 17: the embedded server's health events in the app. A recognition stub is SIGKILLed (as the
OOM killer did) under the real embedded server; the supervisor restarts the server, the status bar
and the log say so, and the app reads a page afterwards; then a refused request grows detection's
region and the supervisor's reload of that model is said while the server stays ready."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import numpy as np
import pytest
import tritonclient.grpc as grpcclient
from tritonclient.utils import InferenceServerException

from scanner_app import contract
from scanner_app.gui.connection.link import ServerConnection
from scanner_app.gui.document.session_folder import SessionFolder
from scanner_app.gui.window.main_window import MainWindow
from scanner_app.samples.documents import render_text_lines
from scanner_app.server.supervise import KIND_RECYCLED, KIND_RESTARTED, KIND_STUB_DIED, HealthEvent, stubs_of
from tests.helpers.gui_shell import RECOGNIZE_TIMEOUT_MS

RESTART_TIMEOUT_MS = 300_000  # a start or restart on 2 busy cores


def test_a_dead_stub_is_said_in_the_status_bar_and_the_app_reads_after_the_restart(
    qtbot, model_repository: Path, tmp_path: Path
) -> None:
    connection = ServerConnection(health_interval_ms=500)  # nothing configured: the embedded server
    window = MainWindow(connection, session=SessionFolder(tmp_path / "session"))
    qtbot.addWidget(window)
    window.show()
    events: list[HealthEvent] = []
    lines: list[str] = []
    connection.health_event.connect(events.append)
    connection.log_line.connect(lines.append)
    connection.start()
    try:
        qtbot.waitUntil(lambda: connection.state.status == "ready", timeout=RESTART_TIMEOUT_MS)
        server_pid = connection.embedded_pid
        assert server_pid is not None
        victim = next(s for s in stubs_of(server_pid) if s.instance.startswith(contract.RECOGNITION_MODEL))
        os.kill(victim.info.pid, signal.SIGKILL)
        qtbot.waitUntil(lambda: KIND_STUB_DIED in [e.kind for e in events], timeout=RESTART_TIMEOUT_MS)
        qtbot.waitUntil(lambda: KIND_RESTARTED in [e.kind for e in events], timeout=RESTART_TIMEOUT_MS)
        qtbot.waitUntil(lambda: connection.state.status == "ready", timeout=RESTART_TIMEOUT_MS)
        assert "restarted" in window.connection_text and victim.instance in window.connection_text
        assert any(line.startswith("health: stub-died") and victim.instance in line for line in lines)
        assert connection.embedded_pid not in (None, server_pid)  # a new server, same address

        page = tmp_path / "after-restart.png"
        render_text_lines(["READ AFTER THE RESTART", "Total 4711"], seed=3).image.save(page)
        with qtbot.waitSignal(window.controller.recognized, timeout=RECOGNIZE_TIMEOUT_MS) as blocker:
            window.open_paths([page])
        text = " ".join(line.text for line in blocker.args[0].lines)
        assert "RESTART" in text and "4711" in text

        # A refused request grows detection's shared-memory region past its bound: the supervisor
        # reloads that model, and the status bar says so while the server stays ready.
        oversized = grpcclient.InferInput(contract.DET_INPUT, [4, 2048, 2048, 3], "UINT8")
        oversized.set_data_from_numpy(np.zeros((4, 2048, 2048, 3), np.uint8))
        refused = pytest.raises(InferenceServerException, match="MAX_DET_REQUEST_PIXELS")
        with grpcclient.InferenceServerClient(connection.embedded_server.grpc_url) as client, refused:
            client.infer(contract.DETECTION_MODEL, [oversized], client_timeout=120)
        qtbot.waitUntil(lambda: KIND_RECYCLED in [e.kind for e in events], timeout=RESTART_TIMEOUT_MS)
        assert connection.state.status == "ready"
        shown = window.connection_text
        assert "reloaded a model" in shown and contract.DETECTION_MODEL in shown
    finally:
        window.close()
        connection.shutdown()
