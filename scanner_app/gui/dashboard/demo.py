"""The one-button stakeholder demo: the serial baseline, then Triton, same images, same concurrency."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QDoubleSpinBox, QHBoxLayout, QLabel, QPushButton, QSpinBox, QVBoxLayout, QWidget

from scanner_app.gui.units import rate_text
from scanner_app.load.report import speedup
from scanner_app.load.spread import MIN_COMPLETED, MIN_WINDOWS, SpeedupCall, Verdict, call_speedup

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
    presentation_requested = Signal()
    result_shown = Signal(str, str)  # (headline, detail) once both runs are done

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
        self.present_button = QPushButton(self.tr("Presentation mode"))
        self.present_button.setToolTip(
            self.tr("Both phases side by side in large type, one click to the result")
        )
        controls = QHBoxLayout()
        controls.addWidget(self.button)
        controls.addWidget(self.concurrency)
        controls.addWidget(self.duration)
        controls.addWidget(self.present_button)
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
        self.present_button.clicked.connect(self.presentation_requested)

    @property
    def active(self) -> bool:
        return self._active

    @property
    def ratio(self) -> float | None:
        """Triton throughput / baseline throughput of the last demo, once both ran."""
        base, triton = self._records.get("baseline"), self._records.get("pipeline")
        return None if base is None or triton is None else speedup(triton.result, base.result)

    @property
    def call(self) -> SpeedupCall | None:
        """The last demo's speed-up with its interval and verdict, once both ran."""
        base, triton = self._records.get("baseline"), self._records.get("pipeline")
        return None if base is None or triton is None else call_speedup(triton.result, base.result)

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
        if base is not None and triton is None:
            self.detail.setText(self.tr("Baseline: {0} at c={1}. Now Triton...").format(
                rate_text(base.result.throughput), base.result.concurrency))  # fmt: skip
            return
        call = self.call
        if call is None or base is None or triton is None:  # call is None unless both ran
            return
        headline, detail = headline_texts(call)
        t, b = triton.result, base.result
        rates = self.tr(
            "Same images, concurrency {0}: Triton {1} (p50 {2:.0f} ms) vs baseline {3} (p50 {4:.0f} ms)"
        )
        detail = rates.format(t.concurrency, rate_text(t.throughput), t.p50_ms, rate_text(b.throughput),
                              b.p50_ms) + "\n" + detail  # fmt: skip
        self.speedup.setText(headline)
        self.detail.setText(detail)
        self.result_shown.emit(headline, detail)


def headline_texts(call: SpeedupCall) -> tuple[str, str]:
    """The demo's headline and the sentence under it, worded by `call.verdict`."""
    translate = QCoreApplication.translate
    if call.verdict == Verdict.NO_REFERENCE or call.ratio is None:
        return translate("DemoPanel", "n/a"), translate(
            "DemoPanel", "The baseline completed no request; no ratio to show.")
    counts = translate(
        "DemoPanel", "{0} Triton vs {1} baseline responses, {2} vs {3} measured windows"
    ).format(
        call.candidate_completed, call.reference_completed, call.candidate_windows, call.reference_windows
    )
    if call.verdict == Verdict.TOO_SHORT:
        return translate("DemoPanel", "Too short to call"), translate(
            "DemoPanel",
            "Measured {0:.2f}x from {1}; calling a speed-up needs at least {2} responses and {3} windows "
            "on each side. Run longer (duration) or on more images.",
        ).format(call.ratio, counts, MIN_COMPLETED, MIN_WINDOWS)
    if call.verdict == Verdict.UNCLEAR:
        return translate("DemoPanel", "No clear difference"), translate(
            "DemoPanel",
            "{0:.2f}x, but the 95 % interval {1} includes 1.0 ({2}). Run longer to tell them apart.",
        ).format(call.ratio, call.interval_text, counts)
    head = translate("DemoPanel", "Triton {0:.1f}x").format(call.ratio)
    slower = translate("DemoPanel", " (slower here)") if call.verdict == Verdict.SLOWER else ""
    detail = translate("DemoPanel", "95 % interval {0}{1} ({2}).")
    return head, detail.format(call.interval_text, slower, counts)
