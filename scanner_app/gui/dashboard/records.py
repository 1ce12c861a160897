"""Finished runs, the server's side of each run, comparisons and plain findings (no Qt)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scanner_app.contract import ALL_MODELS, PIPELINE_MODEL
from scanner_app.load.report import RunResult, ratio, speedup
from scanner_app.load.server_stats import mean_utilisation

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


def model_order(model: str) -> tuple[int, str]:
    """Pipeline order (preprocess, detection, postprocess, recognition), unknown models last."""
    return (ALL_MODELS.index(model) if model in ALL_MODELS else len(ALL_MODELS), model)


def model_summaries(server_models: dict[str, dict[str, float]]) -> tuple[ModelSummary, ...]:
    """RunResult.server_models (exact, over the measured interval) in pipeline order, ensemble left out."""
    out = []
    for name in sorted(server_models, key=model_order):
        figures = server_models[name]
        if name == PIPELINE_MODEL or not figures.get("executions") or not figures.get("requests"):
            continue
        out.append(ModelSummary(
            name, int(figures["inferences"]), int(figures["executions"]),
            figures.get("queue_us", 0.0) / 1000, figures.get("compute_us", 0.0) / 1000,
        ))  # fmt: skip
    return tuple(out)


@dataclass(frozen=True)
class RunRecord:
    """A finished run as the runs table shows it: a labelled RunResult (scanner_app.load.report).

    Every server figure comes from the result itself (its server_models and server_samples).
    """

    label: str
    step: RunStep
    result: RunResult
    dynamic_batching: frozenset[str] = frozenset()  # models that had Triton's dynamic batcher on
    config: str = ""  # the server's model config, read back before the run ("dyn-batching on · 1 inst")

    @property
    def models(self) -> tuple[ModelSummary, ...]:
        return model_summaries(self.result.server_models)

    @property
    def utilisation_kind(self) -> str:
        return mean_utilisation(self.result.server_samples)[0]

    @property
    def mean_utilisation(self) -> float | None:
        return mean_utilisation(self.result.server_samples)[1]

    @property
    def error_count(self) -> int:
        return sum(self.result.errors.values())

    def to_json(self) -> dict[str, Any]:
        """RunResult.to_json plus the label and the per-model server figures."""
        data = dict(self.result.to_json())
        data["label"] = self.label
        data["server_config"] = self.config
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
        reference.label, candidate.label, speedup(b, a), ratio(a.p50_ms, b.p50_ms), ratio(a.p99_ms, b.p99_ms)
    )


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
