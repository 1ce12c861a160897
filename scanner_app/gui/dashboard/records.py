"""Finished runs, the server's side of each run, comparisons and plain findings (no Qt)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from scanner_app.contract import ALL_MODELS, PIPELINE_MODEL

from .plan import SHORT_MODEL_NAMES, RunStep

QUEUE_BOUND_RATIO = 1.0  # queue time above this share of compute time: the model is a bottleneck
BATCHING_SEEN = 1.05  # an average batch above this: requests really were merged


@dataclass(frozen=True)
class ModelSummary:
    """One model over one run: average executed batch, per-request queue and compute time."""

    model: str
    inferences: int
    executions: int
    queue_ms: float
    compute_ms: float

    @property
    def avg_batch(self) -> float:
        return self.inferences / self.executions if self.executions else 0.0

    @property
    def short_name(self) -> str:
        return SHORT_MODEL_NAMES.get(self.model, self.model.removeprefix("ocr_"))


@dataclass
class ServerTotals:
    """Adds up ServerSamples (scanner_app.load.server_stats) taken while a run was measuring."""

    _sums: dict[str, list[float]] = field(default_factory=dict)  # model -> inf, exe, req, queue*req, comp*req
    _utilisation: list[float] = field(default_factory=list)
    utilisation_kind: str = ""  # "GPU" or "CPU"

    def add(self, sample: Any) -> None:
        for name, model in sample.models.items():
            sums = self._sums.setdefault(name, [0.0, 0.0, 0.0, 0.0, 0.0])
            requests = getattr(model, "requests", 0) or model.inferences
            compute = model.compute_input_us + model.compute_infer_us + model.compute_output_us
            sums[0] += model.inferences
            sums[1] += model.executions
            sums[2] += requests
            sums[3] += model.queue_us * requests
            sums[4] += compute * requests
        kind, value = utilisation(sample)
        if value is not None:
            self.add_utilisation(kind, value)

    def add_utilisation(self, kind: str, percent: float) -> None:
        """One CPU ("CPU") or GPU ("GPU") reading in percent, for the run's mean."""
        self.utilisation_kind = kind
        self._utilisation.append(percent)

    def summaries(self, exact: dict[str, dict[str, float]] | None = None) -> tuple[ModelSummary, ...]:
        """Per model over the samples; `exact` (RunResult.server_models) overrides the batch counts."""
        out = []
        for name, (inf, exe, req, queue, compute) in sorted(
            self._sums.items(), key=lambda i: model_order(i[0])
        ):
            if name == PIPELINE_MODEL or not exe or not req:
                continue
            counts = (exact or {}).get(name, {})
            inf, exe = counts.get("inferences", inf), counts.get("executions", exe)
            out.append(ModelSummary(name, int(inf), int(exe), queue / req / 1000, compute / req / 1000))
        return tuple(out)

    def mean_utilisation(self) -> float | None:
        return sum(self._utilisation) / len(self._utilisation) if self._utilisation else None


def model_order(model: str) -> tuple[int, str]:
    """Pipeline order (preprocess, detection, postprocess, recognition), unknown models last."""
    return (ALL_MODELS.index(model) if model in ALL_MODELS else len(ALL_MODELS), model)


def utilisation(sample: Any) -> tuple[str, float | None]:
    """("GPU", percent) when the server reports a GPU, else ("CPU", percent) or ("CPU", None)."""
    if sample.gpu_util is not None:
        return "GPU", float(sample.gpu_util)
    if sample.cpu_util is not None:
        return "CPU", float(sample.cpu_util)
    return "CPU", None


@dataclass(frozen=True)
class RunRecord:
    """A finished run as the runs table shows it. `result` is a scanner_app.load.engine.RunResult."""

    label: str
    step: RunStep
    result: Any
    models: tuple[ModelSummary, ...] = ()
    utilisation_kind: str = ""
    mean_utilisation: float | None = None
    dynamic_batching: frozenset[str] = frozenset()  # models that had Triton's dynamic batcher on

    @property
    def error_count(self) -> int:
        return sum(self.result.errors.values())

    def to_json(self) -> dict[str, Any]:
        """RunResult.to_json plus the label and the per-model server figures."""
        data = dict(self.result.to_json())
        data["label"] = self.label
        data["models"] = [
            {"model": m.model, "inferences": m.inferences, "executions": m.executions,
             "avg_batch": round(m.avg_batch, 3), "queue_ms": round(m.queue_ms, 3),
             "compute_ms": round(m.compute_ms, 3)}
            for m in self.models
        ]  # fmt: skip
        if self.mean_utilisation is not None:
            data[f"mean_{self.utilisation_kind.lower()}_util_percent"] = round(self.mean_utilisation, 1)
        return data


@dataclass(frozen=True)
class Comparison:
    """`candidate` against `reference`: >1 means the candidate is faster."""

    reference: str
    candidate: str
    throughput_ratio: float | None
    p50_ratio: float | None  # reference p50 / candidate p50
    p99_ratio: float | None


def compare(reference: RunRecord, candidate: RunRecord) -> Comparison:
    a, b = reference.result, candidate.result
    return Comparison(
        reference.label,
        candidate.label,
        _ratio(b.throughput, a.throughput),
        _ratio(a.p50_ms, b.p50_ms),
        _ratio(a.p99_ms, b.p99_ms),
    )


def _ratio(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator > 0 and numerator > 0 else None


def ordered_for_speedup(records: Sequence[RunRecord]) -> tuple[RunRecord, RunRecord]:
    """(reference, candidate) of two runs: the baseline is the reference, else the slower run."""
    first, second = records[0], records[1]
    if first.step.kind == "baseline" and second.step.kind != "baseline":
        return first, second
    if second.step.kind == "baseline" and first.step.kind != "baseline":
        return second, first
    return (first, second) if first.result.throughput <= second.result.throughput else (second, first)


def findings(
    models: Iterable[ModelSummary], dynamic_batching: Collection[str] = ()
) -> list[tuple[str, ModelSummary]]:
    """Plain facts about where the time went, as (kind, model): the Qt layer words and translates them.

    "queue_bound": requests waited longer in the model's queue than it computed (a bottleneck).
    "batched": the dynamic batcher merged requests (average executed batch above 1).
    "grouped": executions carried several items with the batcher off (the caller sent them together,
    e.g. ocr_postprocess sends a page's text crops to text_recognition in chunks).
    """
    out = []
    for m in models:
        if m.compute_ms > 0 and m.queue_ms > QUEUE_BOUND_RATIO * m.compute_ms:
            out.append(("queue_bound", m))
        if m.avg_batch > BATCHING_SEEN:
            out.append(("batched" if m.model in dynamic_batching else "grouped", m))
    return out
