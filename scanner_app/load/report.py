"""What a load run reports: per-window figures, the run's result, perf_analyzer's CSV layout."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

PERF_CSV_COLUMNS = (
    "Concurrency", "Inferences/Second", "Client Send", "Network+Server Send/Recv", "Server Queue",
    "Server Compute Input", "Server Compute Infer", "Server Compute Output", "Client Recv",
    "p50 latency", "p90 latency", "p95 latency", "p99 latency",
)  # fmt: skip
# Keys of RunResult.server, in microseconds per inference, in the CSV's order.
SERVER_KEYS = (
    "client_send", "network", "queue", "compute_input", "compute_infer", "compute_output", "client_recv",
)  # fmt: skip


@dataclass(frozen=True)
class WindowStats:
    """One measurement window: responses that completed inside it."""

    index: int
    duration_s: float
    completed: int
    errors: int
    mismatches: int
    throughput: float  # completed responses per second
    mean_ms: float
    p50_ms: float
    p90_ms: float
    p95_ms: float
    p99_ms: float


@dataclass(frozen=True)
class RunResult:
    """The measured part of one run (warm-up excluded); latencies in milliseconds."""

    target: str
    url: str
    concurrency: int
    completed: int
    errors: dict[str, int]  # cause -> count
    mismatches: int  # responses that differ from their input's golden response
    throughput: float  # completed responses per second
    mean_ms: float
    p50_ms: float
    p90_ms: float
    p95_ms: float
    p99_ms: float
    duration_s: float
    stable: bool  # perf_analyzer's rule held for the last 3 windows
    windows: tuple[WindowStats, ...]
    server: dict[str, float] | None  # SERVER_KEYS -> us per inference; None without a ServerMonitor
    rate_per_s: float | None = None  # the requested rate (None: closed loop)
    delayed: int = 0  # rate mode: requests sent later than scheduled because every worker was busy
    model: str = ""  # the model the target calls (ensemble for the pipeline)
    server_models: dict[str, dict[str, float]] = field(default_factory=dict)  # per model: avg_batch...
    server_samples: tuple[Any, ...] = ()  # load.server_stats.ServerSample per measured window, in order

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["windows"] = [asdict(w) for w in self.windows]
        data["error_count"] = self.error_count
        return data

    def perf_csv_row(self) -> list[str]:
        """This result as a row under PERF_CSV_COLUMNS (times in microseconds, as perf_analyzer)."""
        breakdown = self.server_breakdown()
        latencies = (self.p50_ms, self.p90_ms, self.p95_ms, self.p99_ms)
        return [
            str(self.concurrency),
            f"{self.throughput:.4f}",
            *(str(round(breakdown[key])) for key in SERVER_KEYS),
            *(str(round(ms * 1000.0)) for ms in latencies),
        ]

    def server_breakdown(self) -> dict[str, float]:
        """The server breakdown; without one, the whole mean latency counts as network + server."""
        if self.server:
            return {key: float(self.server.get(key, 0.0)) for key in SERVER_KEYS}
        empty = dict.fromkeys(SERVER_KEYS, 0.0)
        empty["network"] = self.mean_ms * 1000.0
        return empty


def ratio(numerator: float, denominator: float) -> float | None:
    """numerator / denominator; None when the denominator is not above 0 (nothing to compare with)."""
    return numerator / denominator if denominator > 0 else None


def speedup(candidate: RunResult, reference: RunResult) -> float | None:
    """Throughput of `candidate` over `reference` (> 1: the candidate is faster); None when the
    reference completed nothing. The one definition of "speed-up" for the CLI and the dashboard."""
    return ratio(candidate.throughput, reference.throughput)


def write_perf_csv(results: Sequence[RunResult], path: Path) -> None:
    """perf_analyzer's -f layout: one row per run, header PERF_CSV_COLUMNS."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(PERF_CSV_COLUMNS)
        for result in results:
            writer.writerow(result.perf_csv_row())
