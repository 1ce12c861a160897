"""The one-button stakeholder demo: the serial baseline, then Triton, same images, same concurrency."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QDoubleSpinBox, QHBoxLayout, QLabel, QPushButton, QSpinBox, QVBoxLayout, QWidget

from scanner_app.load.report import speedup

from .plan import MAX_CONCURRENCY, ImageSource, LoadSettings, RunStep, SessionPlan
from .records import RunRecord


def demo_plan(urls: Sequence[str], concurrency: int, load: LoadSettings, images: ImageSource | None = None,
              metrics_url: str | None = None) -> SessionPlan:  # fmt: skip
    """A local baseline server, then the Triton pipeline, at the same concurrency on the same images."""
    return SessionPlan(
        steps=(RunStep("baseline", concurrency), RunStep("pipeline", concurrency, tuple(urls))),
        images=images or ImageSource(),
        load=load,
        metrics_url=metrics_url,
    )


class DemoPanel(QWidget):
    """A button, concurrency and duration, and the speed-up in large type once both runs are done."""

    demo_requested = Signal()  # the dashboard builds the plan with plan() (it knows the server's URLs)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.button = QPushButton(self.tr("Demo: baseline vs Triton"))
        self.button.setToolTip(self.tr(
            "Starts the serial baseline server, measures it, then Triton on the same images at the "
            "same concurrency, and shows the speed-up."))  # fmt: skip
        self.concurrency = QSpinBox()
        self.concurrency.setRange(1, MAX_CONCURRENCY)
        self.concurrency.setValue(4)
        self.concurrency.setPrefix(self.tr("c="))
        self.duration = QDoubleSpinBox()
        self.duration.setRange(1.0, 600.0)
        self.duration.setValue(LoadSettings().duration_s or 20.0)  # the run form's default too (#14)
        self.duration.setSuffix(self.tr(" s each"))
        self.speedup = QLabel("—")
        font = QFont(self.speedup.font())
        font.setPointSize(max(28, font.pointSize() * 3))
        font.setBold(True)
        self.speedup.setFont(font)
        self.speedup.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.detail = QLabel(self.tr("Press the button to compare the baseline with Triton."))
        self.detail.setWordWrap(True)
        self.detail.setAlignment(Qt.AlignmentFlag.AlignCenter)
        controls = QHBoxLayout()
        controls.addWidget(self.button)
        controls.addWidget(self.concurrency)
        controls.addWidget(self.duration)
        layout = QVBoxLayout(self)
        layout.addLayout(controls)
        layout.addWidget(self.speedup)
        layout.addWidget(self.detail)
        self._records: dict[str, RunRecord] = {}
        self._active = False
        self.images = ImageSource()  # generated receipts, the same for both runs
        self.warmup_s = 2.0
        self.requests: int | None = None  # also end each run after this many requests (tests)
        self.button.clicked.connect(self.demo_requested)

    @property
    def active(self) -> bool:
        return self._active

    @property
    def ratio(self) -> float | None:
        """Triton throughput / baseline throughput of the last demo, once both ran."""
        base, triton = self._records.get("baseline"), self._records.get("pipeline")
        return None if base is None or triton is None else speedup(triton.result, base.result)

    def plan(self, urls: Sequence[str], metrics_url: str | None = None) -> SessionPlan:
        load = LoadSettings(duration_s=self.duration.value(), requests=self.requests, warmup_s=self.warmup_s)
        return demo_plan(urls, self.concurrency.value(), load, self.images, metrics_url)

    def begin(self) -> None:
        """The dashboard started the demo session."""
        self._active = True
        self._records.clear()
        self.speedup.setText("…")
        self.detail.setText(self.tr("Measuring the baseline, then Triton..."))

    def add_record(self, record: RunRecord) -> None:
        if self._active:
            self._records[record.step.kind] = record
            self._show()

    def end(self, message: str = "") -> None:
        self._active = False
        if message:
            self.detail.setText(message)

    def set_available(self, available: bool) -> None:
        self.button.setEnabled(available)

    def _show(self) -> None:
        base, triton = self._records.get("baseline"), self._records.get("pipeline")
        ratio = self.ratio
        if base is not None and triton is None:
            self.detail.setText(self.tr("Baseline: {0:.2f} images/s at c={1}. Now Triton...").format(
                base.result.throughput, base.result.concurrency))  # fmt: skip
            return
        if ratio is None or base is None or triton is None:
            self.speedup.setText(self.tr("n/a"))
            self.detail.setText(self.tr("The baseline completed no request; no ratio to show."))
            return
        self.speedup.setText(self.tr("Triton {0:.1f}x").format(ratio))
        slower = self.tr(" (slower here)") if ratio < 1 else ""
        self.detail.setText(self.tr(
            "Same images, concurrency {0}: Triton {1:.2f} images/s (p50 {2:.0f} ms) vs baseline {3:.2f} "
            "images/s (p50 {4:.0f} ms){5}"
        ).format(triton.result.concurrency, triton.result.throughput, triton.result.p50_ms,
                 base.result.throughput, base.result.p50_ms, slower))  # fmt: skip
