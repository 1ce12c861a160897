"""The Stress tab: run form and demo on the left, live charts and finished runs on the right."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from scanner_app.gui.background import Background
from scanner_app.gui.connection.link import ServerConnection

from .charts import DashboardCharts
from .controller import StressController
from .demo import DemoPanel
from .export import export_runs
from .feed import plot_live, plot_sample
from .images import LoadedImages
from .issues_panel import IssuesPanel
from .plan import SessionPlan, steps_for
from .presentation import PresentationWindow
from .records import RunRecord
from .run_form import RunForm, RunRequest
from .runs_table import RunsView


class StressDashboard(QWidget):
    """Load tests against the connection's server (or a local baseline) with live charts."""

    export_finished = Signal(str, str)  # (path, error or "")

    def __init__(self, connection: ServerConnection, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.connection = connection
        self.controller = StressController(self)
        self.form = RunForm()
        self.demo = DemoPanel()
        self.status = QLabel(self.tr("Idle"))
        self.status.setWordWrap(True)
        self.status.setStyleSheet("font-weight: bold;")
        self.issues = IssuesPanel()
        self.charts = DashboardCharts()
        self.runs = RunsView()
        self.export_csv_button = QPushButton(self.tr("Export CSV (perf_analyzer)..."))
        self.export_json_button = QPushButton(self.tr("Export JSON..."))
        clear_button = QPushButton(self.tr("Clear runs"))
        self._run_label = ""
        self.presentation: PresentationWindow | None = None
        self._background = Background(self)
        self._layout(clear_button)
        self._connect(clear_button)
        self._on_connection_changed(connection.state)
        app = QCoreApplication.instance()
        if app is not None:  # worker threads end before the app does, whoever owns this widget
            app.aboutToQuit.connect(self.shutdown)

    def _layout(self, clear_button: QPushButton) -> None:
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.addWidget(self.form)
        left_layout.addWidget(self.demo)
        left_layout.addWidget(self.status)
        left_layout.addWidget(self.issues)
        left_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(left)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setMinimumWidth(left.sizeHint().width() + scroll.verticalScrollBar().sizeHint().width() + 4)
        runs_box = QWidget()
        runs_layout = QVBoxLayout(runs_box)
        runs_layout.setContentsMargins(0, 0, 0, 0)
        runs_layout.addWidget(self.runs)
        buttons = QHBoxLayout()
        buttons.addWidget(self.export_csv_button)
        buttons.addWidget(self.export_json_button)
        buttons.addStretch(1)
        buttons.addWidget(clear_button)
        runs_layout.addLayout(buttons)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.charts)
        right.addWidget(runs_box)
        right.setStretchFactor(0, 3)
        right.setStretchFactor(1, 2)
        main = QSplitter(Qt.Orientation.Horizontal)
        main.addWidget(scroll)
        main.addWidget(right)
        main.setStretchFactor(1, 1)
        layout = QHBoxLayout(self)
        layout.addWidget(main)

    def _connect(self, clear_button: QPushButton) -> None:
        self.connection.state_changed.connect(self._on_connection_changed)
        self.form.start_requested.connect(self.start_request)
        self.form.stop_requested.connect(self.stop)
        self.demo.demo_requested.connect(self.start_demo)
        self.demo.presentation_requested.connect(lambda: self.open_presentation())
        c = self.controller
        c.status_changed.connect(self._on_status)
        c.images_loaded.connect(self._on_images)
        c.run_started.connect(self._on_run_started)
        c.live_point.connect(self._on_live_point)
        c.server_point.connect(self._on_server_point)
        c.run_finished.connect(self._on_run_finished)
        c.failed.connect(self._on_failed)
        c.session_finished.connect(self._on_session_finished)
        self.export_csv_button.clicked.connect(lambda: self._ask_export(".csv"))
        self.export_json_button.clicked.connect(lambda: self._ask_export(".json"))
        clear_button.clicked.connect(self.runs.model.clear)

    # Starting and stopping ----------------------------------------------------------------------
    def _triton(self) -> tuple[tuple[str, ...], str | None]:
        state = self.connection.state
        urls = state.urls if state.status == "ready" else ()
        return urls, (state.metrics_url or None)

    @Slot(object)
    def start_request(self, request: RunRequest) -> bool:
        """Start what the form asked for; False (with a message) when it cannot start."""
        urls, metrics = self._triton()
        if request.kind != "baseline" and not urls:
            self.form.show_error(
                self.tr("The server is not ready: {0}").format(self.connection.state.message)
            )
            return False
        plan = SessionPlan(
            steps_for(request.kind, urls, request.levels), request.images, request.load, metrics_url=metrics
        )
        return self._start(plan)

    @Slot()
    def start_demo(self) -> bool:
        urls, metrics = self._triton()
        if not urls:
            self.demo.end(self.tr("The demo needs a ready Triton server: {0}").format(
                self.connection.state.message))  # fmt: skip
            return False
        if not self._start(self.demo.plan(urls, metrics)):
            return False
        self.demo.begin()
        return True

    def _start(self, plan: SessionPlan) -> bool:
        if self.controller.running:
            self.form.show_error(self.tr("A run is in progress; stop it first."))
            return False
        self.form.show_error("")
        self.charts.clear()
        self.issues.clear()
        self.controller.start(plan, self.connection.options)
        self.form.set_running(True)
        self.demo.set_available(False)
        return True

    def open_presentation(self, start: bool = False) -> PresentationWindow:
        """The demo's presentation window (one per tab), shown and raised; `start`: run the demo too."""
        if self.presentation is None:
            self.presentation = PresentationWindow(self, self)
            self.presentation.resize(max(1200, self.width()), max(800, self.height()))
        self.presentation.show()
        self.presentation.raise_()
        if start:
            self.presentation.start()
        return self.presentation

    @Slot()
    def stop(self) -> None:
        self.controller.stop()

    def shutdown(self) -> None:
        """Stop any run and wait for the worker threads (call on app exit)."""
        self.controller.shutdown()
        if self.presentation is not None:
            self.presentation.close()

    # Controller events ----------------------------------------------------------------------------
    @Slot(object)
    def _on_connection_changed(self, state: Any) -> None:
        ready = state.status == "ready"
        self.demo.set_available(ready and not self.controller.running)

    @Slot(str, str)
    def _on_status(self, code: str, detail: str) -> None:
        texts = {
            "images": self.tr("Preparing images: {0}..."),
            "baseline": self.tr("Starting the baseline server..."),
            "golden": self.tr("Taking golden results at concurrency 1 ({0})..."),
            "run": self.tr("Running {0}"),
            "stopping": self.tr("Stopping..."),
            "idle": self.tr("Idle"),
        }  # fmt: skip
        if code == "idle" and self.status.property("failed"):
            return
        self.status.setProperty("failed", False)
        self.status.setText(texts.get(code, "{0}").format(detail))

    @Slot(str)
    def _on_run_started(self, label: str) -> None:
        self._run_label = label
        # The axis gets the run's head ("Triton c=4"): its config is in the runs table and the status.
        self.charts.begin_phase(label.split(" · ")[0], self.controller.elapsed_s())

    @Slot(object)
    def _on_images(self, images: LoadedImages) -> None:
        self.issues.add_problems(images.problems)

    @Slot(float, object)
    def _on_live_point(self, x: float, stats: Any) -> None:
        plot_live(self.charts, x, stats)
        self.issues.show_live(stats)
        phase = self.tr("warming up") if stats.warming_up else self.tr("measuring")
        self.status.setText(self.tr("Running {0}: {1}, {2} responses, {3:.0f} s").format(
            self._run_label, phase, stats.completed, stats.elapsed_s))  # fmt: skip

    @Slot(float, object, str)
    def _on_server_point(self, x: float, sample: Any, server: str) -> None:
        plot_sample(self.charts, x, sample, server)
        if getattr(sample, "error", ""):
            self.issues.add_problems([sample.error])

    @Slot(object)
    def _on_run_finished(self, record: RunRecord) -> None:
        self.runs.model.add(record)
        self.issues.show_record(record)
        self.demo.add_record(record)

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self.status.setProperty("failed", True)
        self.status.setText(self.tr("The run failed: {0}").format(message))
        self.form.show_error(message)

    @Slot(bool)
    def _on_session_finished(self, _stopped: bool) -> None:
        self.form.set_running(False)
        self.demo.end()
        self.demo.set_available(self.connection.state.status == "ready")

    # Export -----------------------------------------------------------------------------------------
    def export_records(self) -> list[RunRecord]:
        """The selected runs, or every run when none is selected."""
        return self.runs.selected_records() or list(self.runs.model.records)

    def export_to(self, path: Path) -> None:
        """Write the runs off the GUI thread (".json": JSON, else perf_analyzer CSV); see export_finished."""
        records, target = self.export_records(), Path(path)

        def done(written: Path | None, error: BaseException | None) -> None:
            self._on_export_done(str(written or target), str(error) if error else "")

        self._background.run(lambda: export_runs(records, target), done)

    def _ask_export(self, suffix: str) -> None:
        if not self.export_records():
            self.status.setText(self.tr("No finished run to export yet."))
            return
        kind = self.tr("CSV (*.csv)") if suffix == ".csv" else self.tr("JSON (*.json)")
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export runs"), "runs" + suffix, kind)
        if path:
            self.export_to(Path(path).with_suffix(suffix))

    def _on_export_done(self, path: str, error: str) -> None:
        if error:
            self.status.setText(self.tr("Could not export to {0}: {1}").format(path, error))
        else:
            self.status.setText(self.tr("Exported to {0}").format(path))
        self.export_finished.emit(path, error)
