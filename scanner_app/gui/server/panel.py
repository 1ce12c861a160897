"""The Server tab: endpoints and TLS, test connection, model configs, the embedded server and its log."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from scanner_app.core.client.triton import PipelineInfo
from scanner_app.gui.background import Background
from scanner_app.gui.connection.link import ConnectionState, ConnectionStatus, ServerConnection
from scanner_app.gui.connection.logic import EndpointReport, parse_urls, probe_endpoints, url_problem
from scanner_app.gui.i18n.core_text import status_name, translated
from scanner_app.gui.server.model_control_box import ModelControlBox
from scanner_app.gui.server.models_model import ModelFactsModel
from scanner_app.gui.server.tls_fields import TlsFields

LOG_MAX_LINES = 5000
LOG_FLUSH_MS = 200


class ServerPanel(QWidget):
    """The Server tab: endpoints and TLS files, Test connection, embedded start/stop and its log.

    ``test_finished(tuple[EndpointReport, ...])`` after each Test connection."""

    test_finished = Signal(object)

    def __init__(self, connection: ServerConnection, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._connection = connection
        self._background = Background(self)
        self._log_buffer: list[str] = []
        self._infos: tuple[PipelineInfo, ...] = ()
        self.models_model = ModelFactsModel(self)
        self._build()
        self.urls_edit.setPlainText("\n".join(connection.configured_urls))
        self.tls.set_options(connection.options)
        connection.state_changed.connect(self._on_state_changed)
        connection.info_changed.connect(self._on_info_changed)
        connection.log_line.connect(self._on_log_line)
        self._log_timer = QTimer(self)
        self._log_timer.timeout.connect(self._flush_log)
        self._log_timer.start(LOG_FLUSH_MS)
        self._on_state_changed(connection.state)
        if connection.infos:
            self._on_info_changed(connection.infos)

    # Layout -------------------------------------------------------------------------------------
    def _build(self) -> None:
        # The tab scrolls rather than forcing its height on the window (small laptop screens).
        content = QWidget(self)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(content)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        layout = QVBoxLayout(content)
        endpoints = QGroupBox(self.tr("Endpoints"), self)
        box = QVBoxLayout(endpoints)
        box.addWidget(QLabel(self.tr("Triton gRPC endpoints, one per line (host:port). "
                                     "Leave empty to use the embedded server."), endpoints))  # fmt: skip
        self.urls_edit = QPlainTextEdit(endpoints)
        self.urls_edit.setPlaceholderText("127.0.0.1:8001")
        self.urls_edit.setMaximumHeight(80)
        box.addWidget(self.urls_edit)
        self.tls = TlsFields(endpoints)
        box.addWidget(self.tls)
        buttons = QHBoxLayout()
        self.apply_button = QPushButton(self.tr("Apply"), endpoints)
        self.apply_button.clicked.connect(self.apply)
        self.test_button = QPushButton(self.tr("Test connection"), endpoints)
        self.test_button.clicked.connect(self.test_connection)
        buttons.addWidget(self.apply_button)
        buttons.addWidget(self.test_button)
        buttons.addStretch(1)
        box.addLayout(buttons)
        self.form_message = QLabel(endpoints)
        self.form_message.setWordWrap(True)
        box.addWidget(self.form_message)
        layout.addWidget(endpoints)

        status = QGroupBox(self.tr("Server"), self)
        grid = QVBoxLayout(status)
        self.status_label = QLabel(status)
        self.status_label.setWordWrap(True)
        grid.addWidget(self.status_label)
        self.probe_label = QLabel(status)  # live / ready / version per endpoint after a test
        self.probe_label.setWordWrap(True)
        grid.addWidget(self.probe_label)
        self.version_label = QLabel(status)
        grid.addWidget(self.version_label)
        self.models_view = QTableView(status)
        self.models_view.setModel(self.models_model)
        self.models_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.models_view.verticalHeader().setVisible(False)
        self.models_view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.models_view.horizontalHeader().setStretchLastSection(True)
        grid.addWidget(self.models_view, 1)
        layout.addWidget(status, 1)
        self.model_control = ModelControlBox(
            lambda: self._connection.embedded_server, self, unsupervised=self._connection.unsupervised
        )
        self.model_control.applied.connect(self._on_model_applied)
        self.model_control.model.currentIndexChanged.connect(lambda _i: self._preset_model_control())
        layout.addWidget(self.model_control)

        embedded = QGroupBox(self.tr("Embedded server"), self)
        column = QVBoxLayout(embedded)
        row = QHBoxLayout()
        self.start_button = QPushButton(self.tr("Start embedded server"), embedded)
        self.start_button.clicked.connect(self._connection.start_embedded)
        self.stop_button = QPushButton(self.tr("Stop embedded server"), embedded)
        self.stop_button.clicked.connect(self._connection.stop_embedded)
        row.addWidget(self.start_button)
        row.addWidget(self.stop_button)
        row.addStretch(1)
        column.addLayout(row)
        self.log_view = QPlainTextEdit(embedded)
        self.log_view.setReadOnly(True)
        self.log_view.setMaximumBlockCount(LOG_MAX_LINES)
        self.log_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        column.addWidget(self.log_view, 1)
        layout.addWidget(embedded, 1)

    # Actions ------------------------------------------------------------------------------------
    def entered_urls(self) -> tuple[str, ...]:
        return parse_urls(self.urls_edit.toPlainText())

    def _check_urls(self, urls: tuple[str, ...]) -> bool:
        problems = [p for p in (url_problem(u) for u in urls) if p]
        if problems:
            self.form_message.setText(self.tr("Not applied: {0}").format("; ".join(problems)))
            return False
        return True

    def apply(self) -> None:
        """Save the endpoints and TLS files and reconnect (an empty list: the embedded server)."""
        urls = self.entered_urls()
        if not self._check_urls(urls):
            return
        self.form_message.setText(self.tr("Applied."))
        self._connection.set_endpoints(urls, self.tls.options(self._connection.options))

    def test_connection(self) -> None:
        """Probe the entered endpoints (or the current ones) off the GUI thread."""
        urls = self.entered_urls() or self._connection.state.urls
        if not urls:
            self.form_message.setText(
                self.tr("No endpoint to test: enter one, or start the embedded server.")
            )
            return
        if not self._check_urls(urls):
            return
        options = (
            self.tls.options(self._connection.options) if self.entered_urls() else self._connection.options
        )
        self.test_button.setEnabled(False)
        self.form_message.setText(self.tr("Testing {0}...").format(", ".join(urls)))
        self._background.run(lambda: probe_endpoints(urls, options), self._on_tested)

    # Updates ------------------------------------------------------------------------------------
    def _on_tested(self, reports: tuple[EndpointReport, ...] | None, error: BaseException | None) -> None:
        self.test_button.setEnabled(True)
        reports = reports or ()
        if error is not None:
            self.form_message.setText(self.tr("Test failed: {0}").format(error))
        else:
            ok = sum(1 for r in reports if r.info is not None)
            self.form_message.setText(
                self.tr("{0} of {1} endpoints serve the OCR pipeline.").format(ok, len(reports))
            )
        yes, no = self.tr("yes"), self.tr("no")
        lines = []
        for report in reports:
            text = self.tr("{0}: live {1}, ready {2}").format(report.url, yes if report.live else no,
                                                              yes if report.ready else no)  # fmt: skip
            if report.info is not None:
                text += self.tr(", Triton {0}").format(report.info.server_version)
            if report.error:
                text += " - " + report.error
            lines.append(text)
        self.probe_label.setText("\n".join(lines))
        infos = tuple(r.info for r in reports if r.info is not None)
        if infos:
            self._on_info_changed(infos)
        self.test_finished.emit(reports)

    def _on_info_changed(self, infos: tuple[PipelineInfo, ...]) -> None:
        versions = sorted({info.server_version for info in infos})
        self.version_label.setText(self.tr("Server version: {0}").format(", ".join(versions)))
        self._infos = tuple(infos)
        self.models_model.set_infos(infos)
        self._preset_model_control()

    def _preset_model_control(self) -> None:
        self.model_control.show_facts(self._infos[0] if self._infos else None)

    def _on_model_applied(self, info: PipelineInfo) -> None:
        """A live config change, read back from the server: the models table shows the server's word."""
        infos = tuple(info if i.url == info.url else i for i in self._infos) or (info,)
        self._on_info_changed(infos)

    def _on_state_changed(self, state: ConnectionState) -> None:
        self.status_label.setText(f"[{status_name(state.status)}] {translated(state.message)}")
        running = self._connection.embedded_pid is not None
        starting = state.status == ConnectionStatus.STARTING
        embedded_ready = state.embedded and state.status == ConnectionStatus.READY
        self.start_button.setEnabled(not embedded_ready and not starting)
        self.stop_button.setEnabled(running or state.embedded or starting)
        self.model_control.refresh()

    def _on_log_line(self, line: str) -> None:
        self._log_buffer.append(line)  # shown by the next flush: one append per ~200 ms, not per line

    def _flush_log(self) -> None:
        if self._log_buffer:
            lines, self._log_buffer = self._log_buffer, []
            self.log_view.appendPlainText("\n".join(lines[-LOG_MAX_LINES:]))
