"""The Server tab's "why this config" note and live model control for the embedded demo server.

Thin: the reload itself is scanner_app.server.model_control, run off the GUI thread through
gui/background.py; afterwards the server's model configs are read back into the Server tab's table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from scanner_app.contract import ALL_MODELS, DETECTION_MODEL, PIPELINE_MODEL
from scanner_app.core.client.triton import ClientOptions, OcrClient, PipelineInfo
from scanner_app.gui.background import Background
from scanner_app.server.model_control import ModelControl, ModelControlError, ModelSettings

if TYPE_CHECKING:
    from scanner_app.server.embedded import EmbeddedServer

MAX_INSTANCES = 8
MEASUREMENT_DOC = "docs/server/embedded.md (configs/local.pbtxt)"
MEASUREMENT_COMMAND = "python benchmarks/gpu_check.py --cpu --no-venv --instances 1,2 --concurrency 1,8"


def apply_and_read_back(control: ModelControl, model: str, settings: ModelSettings, grpc_url: str
                        ) -> tuple[ModelSettings, PipelineInfo]:  # fmt: skip
    """Reload `model` with `settings` (blocking), then the pipeline's configs as the server reports them."""
    now = control.apply(model, settings)
    with OcrClient(grpc_url, ClientOptions()) as client:
        return now, client.connect()


class ModelControlBox(QGroupBox):
    """Why dynamic batching is off and the Python backend runs the ONNX models; switches for a live A/B.

    `server` returns the connection's EmbeddedServer (or None); `applied(PipelineInfo)` after a change
    was read back from the server, `failed(str)` when the server refused it.
    """

    applied = Signal(object)
    failed = Signal(str)

    def __init__(
        self,
        server: Callable[[], EmbeddedServer | None],
        parent: QWidget | None = None,
        *,
        unsupervised: Callable[[Callable[[], Any]], Any] = lambda call: call(),
    ) -> None:
        """`unsupervised(call)` runs a reload with the server's supervisor paused (ServerConnection)."""
        super().__init__(self.tr("Why this configuration, and live A/B (embedded demo server)"), parent)
        self._server = server
        self._unsupervised = unsupervised
        self._background = Background(self, threads=1)
        self.why = QLabel(self.tr(
            "On the embedded CPU server, the ONNX models run in the python backend with dynamic batching "
            "off, on purpose. The tritonserver in the nvidia-pytriton wheel has only the Python backend, "
            "so ONNX Runtime runs inside it (steps/onnx_runner.py). On a CPU, batching never helped "
            "detection: two one-thread sessions per model measured 1.05 images/s against 0.92 for one "
            "two-thread session, and recognition already receives up to 16 crops per call. The production "
            "config.pbtxt (NGC container, GPU) uses the onnxruntime backend with dynamic batching. "
            "Measurements: {0}; re-measure with: {1}"
        ).format(MEASUREMENT_DOC, MEASUREMENT_COMMAND))  # fmt: skip
        self.why.setWordWrap(True)
        self.model = QComboBox()
        for name in ALL_MODELS:
            if name != PIPELINE_MODEL:
                self.model.addItem(name, name)
        self.model.setCurrentIndex(max(0, self.model.findData(DETECTION_MODEL)))
        self.batching = QCheckBox(self.tr("Dynamic batching"))
        self.instances = QSpinBox()
        self.instances.setRange(1, MAX_INSTANCES)
        self.instances.setValue(2)
        self.instances.setPrefix(self.tr("instances: "))
        self.apply_button = QPushButton(self.tr("Apply to the running server"))
        self.apply_button.setToolTip(self.tr(
            "Reloads the model with this config through Triton's model control (loopback demo server "
            "only); the next run in the Stress tab records it."))  # fmt: skip
        self.message = QLabel()
        self.message.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.model)
        row.addWidget(self.batching)
        row.addWidget(self.instances)
        row.addWidget(self.apply_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.why)
        layout.addLayout(row)
        layout.addWidget(self.message)
        self.apply_button.clicked.connect(self.apply)
        self.refresh()

    def control(self) -> ModelControl | None:
        try:
            return ModelControl.for_server(self._server())
        except ModelControlError:
            return None

    def refresh(self) -> None:
        """Enable the switches only for our own loopback server with model control."""
        available = self.control() is not None and not self.busy
        for widget in (self.model, self.batching, self.instances, self.apply_button):
            widget.setEnabled(available)
        if self.busy:
            return
        if available:
            self.message.setText(self.tr(
                "Switch, apply, then run again in the Stress tab: the runs table shows both configs."))
        else:
            self.message.setText(self.tr(
                "Live switching works on the embedded server this app started (loopback), never on a "
                "LAN or remote server."))  # fmt: skip

    @property
    def busy(self) -> bool:
        return self._background.running > 0

    def show_facts(self, info: PipelineInfo | None) -> None:
        """Preset the switches from the server's current config of the chosen model."""
        if info is None:
            return
        for facts in info.models:
            if facts.name == self.model.currentData():
                self.batching.setChecked(facts.dynamic_batching)
                self.instances.setValue(max(1, sum(g.count for g in facts.instance_groups) or 1))

    def apply(self) -> bool:
        """Reload the chosen model with the chosen settings off the GUI thread."""
        control, server = self.control(), self._server()
        if control is None or server is None:
            self.refresh()
            return False
        model = str(self.model.currentData())
        settings = ModelSettings(self.batching.isChecked(), self.instances.value())
        self.message.setText(self.tr("Reloading {0} with {1}...").format(model, settings.describe()))
        grpc_url = str(server.grpc_url)
        self._background.run(
            lambda: self._unsupervised(lambda: apply_and_read_back(control, model, settings, grpc_url)),
            lambda result, error: self._done(model, result, error),
        )
        self.refresh()
        return True

    def _done(self, model: str, result: tuple[ModelSettings, PipelineInfo] | None,
              error: BaseException | None) -> None:  # fmt: skip
        self.refresh()
        if error is not None or result is None:
            text = str(error) if error is not None else self.tr("no answer")
            self.message.setText(self.tr("Not applied: {0}").format(text))
            self.failed.emit(text)
            return
        now, info = result
        self.message.setText(self.tr("{0} now runs with {1} (read back from the server).").format(
            model, now.describe()))  # fmt: skip
        self.applied.emit(info)
