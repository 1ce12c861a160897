"""ServerPanel against the real embedded Triton: test connection, model configs, apply, bad input."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt

from scanner_app.core.client.triton import InstanceGroup
from scanner_app.gui.connection.link import ServerConnection
from scanner_app.gui.connection.logic import parse_urls
from scanner_app.gui.server.models_model import describe_groups
from scanner_app.gui.server.panel import ServerPanel
from scanner_app.server.ports import free_port


def make_panel(qtbot, connection: ServerConnection) -> ServerPanel:
    panel = ServerPanel(connection)
    qtbot.addWidget(panel)
    return panel


def column(panel: ServerPanel, name: str) -> list[str]:
    model = panel.models_model
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    col = headers.index(name)
    return [model.data(model.index(r, col)) for r in range(model.rowCount())]


def test_describe_groups() -> None:
    assert describe_groups(()) == "default"
    groups = (InstanceGroup("KIND_CPU", 2), InstanceGroup("KIND_GPU", 1, (0, 1)))
    assert describe_groups(groups) == "2 x KIND_CPU, 1 x KIND_GPU (gpus 0, 1)"


def test_test_connection_shows_live_ready_version_and_model_configs(qtbot, triton) -> None:
    connection = ServerConnection(urls=[triton.grpc_url], start_embedded_if_unconfigured=False)
    panel = make_panel(qtbot, connection)
    try:
        assert panel.entered_urls() == (triton.grpc_url,)  # prefilled from the connection
        with qtbot.waitSignal(panel.test_finished, timeout=60_000) as tested:
            qtbot.mouseClick(panel.test_button, Qt.MouseButton.LeftButton)
            assert not panel.test_button.isEnabled()  # the probe runs off the GUI thread
        (report,) = tested.args[0]
        assert report.live and report.ready and report.info is not None
        assert f"{triton.grpc_url}: live yes, ready yes, Triton {report.info.server_version}" in (
            panel.probe_label.text()
        )
        assert report.info.server_version in panel.version_label.text()
        models = column(panel, "Model")
        assert {"ocr_pipeline", "text_detection", "text_recognition"} <= set(models)
        # Read back from the server's configs (configs/local.pbtxt): no dynamic batcher, 2 CPU instances.
        facts = {panel.models_model.facts(r).name: panel.models_model.facts(r) for r in range(len(models))}
        det = facts["text_detection"]
        row = models.index("text_detection")
        assert column(panel, "max_batch_size")[row] == str(det.max_batch_size)
        assert column(panel, "Dynamic batching")[row] == ("on" if det.dynamic_batching else "off")
        assert column(panel, "Instance groups")[row] == describe_groups(det.instance_groups)
        assert "KIND_CPU" in column(panel, "Instance groups")[row]
        assert column(panel, "Backend")[models.index("ocr_pipeline")] == "ensemble"
    finally:
        connection.shutdown()


def test_connect_fills_the_panel_and_apply_saves(qtbot, triton, tmp_path: Path) -> None:
    dead = f"127.0.0.1:{free_port()}"
    connection = ServerConnection(urls=[dead], start_embedded_if_unconfigured=False)
    panel = make_panel(qtbot, connection)
    try:
        connection.start()
        qtbot.waitUntil(lambda: connection.state.status == "down", timeout=30_000)
        assert "[down]" in panel.status_label.text() and dead in panel.status_label.text()

        panel.urls_edit.setPlainText(f"grpc://{triton.grpc_url}\n")
        with qtbot.waitSignal(connection.info_changed, timeout=60_000):
            qtbot.mouseClick(panel.apply_button, Qt.MouseButton.LeftButton)
        assert connection.state.status == "ready" and "[ready]" in panel.status_label.text()
        assert parse_urls(QSettings().value("server/urls")) == (triton.grpc_url,)
        assert panel.models_model.rowCount() >= 5  # filled from the connection, no test needed

        panel.urls_edit.setPlainText("localhost\nhost:99999")
        qtbot.mouseClick(panel.apply_button, Qt.MouseButton.LeftButton)
        assert "Not applied" in panel.form_message.text() and "host:99999" in panel.form_message.text()
        assert connection.configured_urls == (triton.grpc_url,)
    finally:
        connection.shutdown()


def test_test_connection_reports_a_dead_endpoint(qtbot) -> None:
    dead = f"127.0.0.1:{free_port()}"
    connection = ServerConnection(urls=[], start_embedded_if_unconfigured=False)
    panel = make_panel(qtbot, connection)
    try:
        panel.urls_edit.setPlainText(dead)
        with qtbot.waitSignal(panel.test_finished, timeout=30_000) as tested:
            panel.test_connection()
        (report,) = tested.args[0]
        assert not report.live and report.info is None and report.error
        assert f"{dead}: live no, ready no" in panel.probe_label.text()
        assert "0 of 1" in panel.form_message.text()
    finally:
        connection.shutdown()


def test_embedded_log_lines_reach_the_log_view(qtbot) -> None:
    connection = ServerConnection(urls=[], start_embedded_if_unconfigured=False)
    panel = make_panel(qtbot, connection)
    try:
        for i in range(3):
            connection.log_line.emit(f"I1129 server line {i}")
        qtbot.waitUntil(lambda: "server line 2" in panel.log_view.toPlainText(), timeout=5_000)
        assert panel.log_view.maximumBlockCount() > 0
        assert panel.start_button.isEnabled() and not panel.stop_button.isEnabled()
    finally:
        connection.shutdown()
