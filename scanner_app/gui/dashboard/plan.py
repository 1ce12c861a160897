"""What a stress session runs: the request from the form, its steps, run labels (no Qt).

A session is a list of steps; steps against the same target share one Target object, so the
golden responses are taken once per target and image set, at concurrency 1, before the first run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from scanner_app.contract import DETECTION_MODEL, RECOGNITION_MODEL

TARGET_KINDS = ("pipeline", "detection", "recognition", "baseline")
MAX_CONCURRENCY = 256
SHORT_MODEL_NAMES = {DETECTION_MODEL: "det", RECOGNITION_MODEL: "rec"}


@dataclass(frozen=True)
class ImageSource:
    """Generated receipts (folder None) or every image in a folder (recursive)."""

    folder: Path | None = None
    generated_count: int = 8

    def describe(self) -> str:
        return str(self.folder) if self.folder else f"{self.generated_count} generated receipts"


@dataclass(frozen=True)
class LoadSettings:
    """The LoadSpec fields a form sets; concurrency comes from each step."""

    duration_s: float | None = 20.0
    requests: int | None = None
    rate_per_s: float | None = None
    poisson: bool = False
    warmup_s: float = 2.0
    window_s: float = 2.0
    stability: bool = False


@dataclass(frozen=True)
class RunStep:
    """One measured run. No urls with kind "baseline": the session starts a local baseline server."""

    kind: str
    concurrency: int
    urls: tuple[str, ...] = ()
    label: str = ""

    @property
    def target_key(self) -> tuple[str, tuple[str, ...]]:
        return (self.kind, self.urls)


@dataclass(frozen=True)
class SessionPlan:
    """Everything a session needs; built on the GUI thread, run on a worker thread."""

    steps: tuple[RunStep, ...]
    images: ImageSource = field(default_factory=ImageSource)
    load: LoadSettings = field(default_factory=LoadSettings)
    metrics_url: str | None = None  # Triton's Prometheus metrics (GPU/CPU use), when known
    golden: bool = True

    def __post_init__(self) -> None:
        if not self.steps:
            raise ValueError("a session needs at least one run")
        for step in self.steps:
            if step.kind not in TARGET_KINDS:
                raise ValueError(f"unknown target {step.kind!r}; one of {', '.join(TARGET_KINDS)}")
            if not 1 <= step.concurrency <= MAX_CONCURRENCY:
                raise ValueError(f"concurrency {step.concurrency} is outside 1..{MAX_CONCURRENCY}")
            if step.kind != "baseline" and not step.urls:
                raise ValueError(f"target {step.kind} needs a server URL")


def parse_concurrency(text: str) -> tuple[int, ...]:
    """ "4" -> (4,); "1, 2, 4 8" -> a sweep; "1-16" -> powers of two from 1 to 16 (1, 2, 4, 8, 16)."""
    levels: list[int] = []
    for part in text.replace(",", " ").split():
        if "-" in part:
            low_text, _, high_text = part.partition("-")
            low, high = _positive(low_text), _positive(high_text)
            if high < low:
                raise ValueError(f"range {part!r} goes down")
            level = low
            while level <= high:
                levels.append(level)
                level *= 2
            if levels[-1] != high:
                levels.append(high)
        else:
            levels.append(_positive(part))
    if not levels:
        raise ValueError("give a concurrency, e.g. 8, or a sweep, e.g. 1,2,4,8 or 1-16")
    too_big = [n for n in levels if n > MAX_CONCURRENCY]
    if too_big:
        raise ValueError(f"concurrency {too_big[0]} is over the limit of {MAX_CONCURRENCY}")
    return tuple(dict.fromkeys(levels))


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise ValueError(f"concurrency must be at least 1, not {value}")
    return value


def steps_for(kind: str, urls: Sequence[str], levels: Sequence[int]) -> tuple[RunStep, ...]:
    """One step per concurrency level against one target."""
    urls = () if kind == "baseline" else tuple(urls)
    return tuple(RunStep(kind, n, urls) for n in levels)


def run_label(kind: str, concurrency: int, server_tag: str = "") -> str:
    """ "Triton c=16 · batching off · 2 inst", "baseline c=16", "Triton detection c=4"."""
    if kind == "baseline":
        head = "baseline"
    elif kind == "pipeline":
        head = "Triton"
    else:
        head = f"Triton {kind}"
    label = f"{head} c={concurrency}"
    return f"{label} · {server_tag}" if server_tag and kind != "baseline" else label


def server_tag(facts: Sequence[object]) -> str:
    """Dynamic batching and instance counts of the ONNX models, e.g. "batching off · 2 inst".

    `facts` are scanner_app.core.client.triton.ModelFacts; models not present are left out.
    """
    wanted = [f for f in facts if getattr(f, "name", "") in SHORT_MODEL_NAMES]
    if not wanted:
        return ""
    batching = {f.name: bool(f.dynamic_batching) for f in wanted}  # type: ignore[attr-defined]
    instances = {f.name: sum(g.count for g in f.instance_groups) or 1 for f in wanted}  # type: ignore[attr-defined]
    parts = []
    if len(set(batching.values())) == 1:
        parts.append("dyn-batching " + ("on" if next(iter(batching.values())) else "off"))
    else:
        parts.extend(f"{SHORT_MODEL_NAMES[m]} batching {'on' if on else 'off'}" for m, on in batching.items())
    if len(set(instances.values())) == 1:
        parts.append(f"{next(iter(instances.values()))} inst")
    else:
        parts.extend(f"{SHORT_MODEL_NAMES[m]} {n} inst" for m, n in instances.items())
    return " · ".join(parts)
