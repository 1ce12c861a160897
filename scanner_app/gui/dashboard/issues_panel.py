"""What went wrong or why, shown prominently: golden mismatches, errors by cause, plain findings."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QLabel, QListWidget, QVBoxLayout, QWidget

from scanner_app.gui.theme import readable

from .records import ModelSummary, RunRecord, findings

MAX_CAUSES = 20
_ALARM = "QLabel { background: #b00020; color: white; font-weight: bold; padding: 4px; }"
_CALM_GREEN = QColor("#1b5e20")


def _calm(label: QLabel) -> str:
    """Green text readable on the label's background (the palette may be dark)."""
    colour = readable(_CALM_GREEN, label.palette().color(QPalette.ColorRole.Window))
    return f"QLabel {{ color: {colour.name()}; padding: 4px; }}"


class IssuesPanel(QWidget):
    """Mismatches and errors (live during a run, final after it) and findings about the server."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.mismatches = QLabel()
        self.mismatches.setWordWrap(True)
        self.causes = QListWidget()
        self.causes.setMaximumHeight(110)
        self.notes = QListWidget()
        self.notes.setWordWrap(True)
        self.notes.setMaximumHeight(130)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.mismatches)
        layout.addWidget(QLabel(self.tr("Errors by cause")))
        layout.addWidget(self.causes)
        layout.addWidget(QLabel(self.tr("Where the time goes")))
        layout.addWidget(self.notes)
        self._problems: list[str] = []
        self.clear()

    @property
    def mismatch_count(self) -> int:
        return self._mismatch_count

    def clear(self) -> None:
        self._mismatch_count = 0
        self._problems = []
        self._show_counts(0, 0)
        self.causes.clear()
        self.notes.clear()

    def show_live(self, stats: Any) -> None:
        """LoadRun.live(): the counts so far, errors grouped by cause."""
        self._show_counts(stats.mismatches, stats.errors)
        self._show_causes(stats.error_causes)

    def show_record(self, record: RunRecord) -> None:
        """A finished run: its final counts, causes and what the server figures say."""
        result = record.result
        self._show_counts(result.mismatches, record.error_count, record.label)
        if not result.completed:
            self.mismatches.setStyleSheet(_ALARM)
            self.mismatches.setText(self.tr(
                "{0}: no request completed in the {1:.1f} s measured; make the duration longer than one "
                "request takes, or lower the concurrency."
            ).format(record.label, result.duration_s))  # fmt: skip
        self._show_causes(result.errors.items())
        self.notes.clear()
        for kind, model in findings(record.models, record.dynamic_batching):
            self.notes.addItem(self._finding_text(kind, model))
        for text in self._problems:
            self.notes.addItem(text)

    def add_problems(self, problems: Iterable[str]) -> None:
        """Notes that are not errors of a request: skipped files, server statistics unavailable."""
        for text in problems:
            if text not in self._problems:
                self._problems.append(text)
                self.notes.addItem(text)

    def _show_counts(self, mismatches: int, errors: int, label: str = "") -> None:
        self._mismatch_count = mismatches
        prefix = f"{label}: " if label else ""
        if mismatches or errors:
            self.mismatches.setStyleSheet(_ALARM)
            self.mismatches.setText(prefix + self.tr(
                "{0} responses differed from the golden results · {1} requests failed"
            ).format(mismatches, errors))  # fmt: skip
        else:
            self.mismatches.setStyleSheet(_calm(self.mismatches))
            self.mismatches.setText(prefix + self.tr("No golden-check mismatches, no errors"))

    def _show_causes(self, causes: Iterable[tuple[str, int]]) -> None:
        self.causes.clear()
        ranked = sorted(causes, key=lambda item: -item[1])
        for cause, count in ranked[:MAX_CAUSES]:
            self.causes.addItem(self.tr("{0} x {1}").format(count, cause))
        if len(ranked) > MAX_CAUSES:
            self.causes.addItem(self.tr("... and {0} more causes").format(len(ranked) - MAX_CAUSES))

    def _finding_text(self, kind: str, m: ModelSummary) -> str:
        if kind == "queue_bound":
            return self.tr(
                "{0}: requests wait {1:.0f} ms in its queue for {2:.0f} ms of compute - this step is the "
                "bottleneck (give it more instances, or send fewer requests at once)."
            ).format(m.model, m.queue_ms, m.compute_ms)
        if kind == "grouped":
            return self.tr(
                "{0}: {1:.2f} items per execution, sent together by its caller (dynamic batching is off)."
            ).format(m.model, m.avg_batch)
        return self.tr(
            "{0}: the dynamic batcher merged {1:.2f} requests per execution on average. On a CPU a batch "
            "costs about as much per item as single requests, so batching adds waiting, not speed "
            "(compare a run with it off); on a GPU it pays."
        ).format(m.model, m.avg_batch)
