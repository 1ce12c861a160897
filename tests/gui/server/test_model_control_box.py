"""Live A/B on the app's own embedded server (issue 14): switch a model's dynamic batching and instance
count from the Server tab, run a short load before and after, and the runs table holds both configs.

Starts the embedded server as the app does (nothing configured), so it is the real path: explicit
model control on loopback, the repository API behind the start's admin key."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from scanner_app.contract import DETECTION_MODEL
from scanner_app.gui.connection.link import ServerConnection
from scanner_app.gui.dashboard import StressDashboard
from scanner_app.gui.server.panel import ServerPanel
from scanner_app.server.model_control import ModelControl, ModelSettings

pytestmark = pytest.mark.server
RUN_TIMEOUT_MS = 240_000


@pytest.fixture
def app_connection(qtbot) -> Iterator[ServerConnection]:
    conn = ServerConnection()  # no endpoints configured: the app starts its embedded server
    conn.start()
    qtbot.waitUntil(lambda: conn.state.status == "ready", timeout=600_000)
    yield conn
    conn.shutdown()


def _short_run(qtbot, dashboard: StressDashboard) -> None:
    form = dashboard.form
    form.target.setCurrentIndex(form.target.findData("pipeline"))
    form.generated.setChecked(True)
    form.generated_count.setValue(2)
    form.concurrency.setText("2")
    form.by_requests.setChecked(True)
    form.requests.setValue(2)
    form.warmup.setValue(0.5)
    with qtbot.waitSignal(dashboard.controller.session_finished, timeout=RUN_TIMEOUT_MS) as finished:
        qtbot.mouseClick(form.start_button, Qt.MouseButton.LeftButton)
    assert finished.args == [False], dashboard.status.text()


def _row(panel: ServerPanel, model: str) -> dict[str, str]:
    table = panel.models_model
    for row in range(table.rowCount()):
        if table.facts(row).name == model:
            header = [table.headerData(c, Qt.Orientation.Horizontal) for c in range(table.columnCount())]
            return {h: table.data(table.index(row, c)) for c, h in enumerate(header)}
    raise AssertionError(f"{model} not in the Server tab's table")


def test_switch_batching_and_instances_live_and_the_runs_table_shows_both(
    qtbot, app_connection: ServerConnection
) -> None:
    server = app_connection.embedded_server
    cmdline = Path(f"/proc/{server.pid}/cmdline").read_bytes().split(b"\0")
    assert b"--model-control-mode=explicit" in cmdline and server.listen.hosts["HTTP"] == "127.0.0.1"
    log: list[str] = []
    app_connection.log_line.connect(log.append)  # the supervisor's "health: ..." lines, for the failures
    panel = ServerPanel(app_connection)
    dashboard = StressDashboard(app_connection)
    qtbot.addWidget(panel)
    qtbot.addWidget(dashboard)
    try:
        box = panel.model_control
        assert box.apply_button.isEnabled()
        assert "python backend" in box.why.text() and "benchmarks/gpu_check.py" in box.why.text()
        before = _row(panel, DETECTION_MODEL)
        assert before["Dynamic batching"] == "off" and before["Instance groups"] == "2 x KIND_CPU"
        _short_run(qtbot, dashboard)

        box.model.setCurrentIndex(box.model.findData(DETECTION_MODEL))
        box.batching.setChecked(True)
        box.instances.setValue(1)
        with qtbot.waitSignal(box.applied, timeout=RUN_TIMEOUT_MS):
            qtbot.mouseClick(box.apply_button, Qt.MouseButton.LeftButton)
        # The server's own readback, in the Server tab and through the repository API.
        after = _row(panel, DETECTION_MODEL)
        assert after["Dynamic batching"] == "on" and after["Instance groups"] == "1 x KIND_CPU", after
        assert ModelControl.for_server(server).settings(DETECTION_MODEL) == ModelSettings(True, 1)
        assert "read back from the server" in box.message.text()
        _short_run(qtbot, dashboard)

        first, second = dashboard.runs.model.records
        assert first.config == "dyn-batching off · 2 inst"
        assert "det batching on" in second.config and "det 1 inst" in second.config, second.config
        assert second.config in second.label and first.config in first.label  # A/B side by side
        health = [line for line in log if "health" in line.lower()]
        for record in (first, second):
            result = record.result
            assert result.completed > 0 and result.mismatches == 0, (result, health)
            assert record.error_count == 0, (result.errors, health)
        assert not health, health  # a reload on purpose is not a dead model process: no restart
        assert json.loads(json.dumps(second.to_json()))["server_config"] == second.config
    finally:
        dashboard.shutdown()

    # Without the start's key the repository API stays closed, even on loopback.
    request = urllib.request.Request(f"{server.http_url}/v2/repository/models/{DETECTION_MODEL}/load",
                                     data=b"{}", method="POST")  # fmt: skip
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.build_opener(urllib.request.ProxyHandler({})).open(request, timeout=10)
    assert "restricted" in refused.value.read().decode()
