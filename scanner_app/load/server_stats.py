"""The server's own view: Triton's statistics API per model, and GPU/CPU use, as deltas over time.

Average batch size = executed inferences / executions over the interval; the batch histogram
counts executions per batch size. Queue and compute times are per request (what perf_analyzer
shows). For the ensemble, its steps' times add up to the pipeline's server time; models called by
BLS (text_recognition from ocr_postprocess) are inside their caller's compute time, not added again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from tritonclient.utils import InferenceServerException

from scanner_app.core.client.triton import ClientOptions
from scanner_app.load.host_metrics import ProcessTreeCpu, fetch_metrics, mean, total

_PHASES = ("queue", "compute_input", "compute_infer", "compute_output")


@dataclass(frozen=True)
class ModelTotals:
    """Cumulative counters of one model since the server started."""

    inferences: int = 0
    executions: int = 0
    requests: int = 0  # successful requests
    failures: int = 0
    ns: dict[str, int] = field(default_factory=dict)  # phase -> total ns (queue, compute_*)
    batches: dict[int, int] = field(default_factory=dict)  # batch size -> executions


@dataclass(frozen=True)
class ServerTotals:
    """One reading of the statistics API: every model, and each ensemble's steps."""

    time: float
    models: dict[str, ModelTotals]
    steps: dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class ModelSample:
    """One model over an interval."""

    model: str
    inferences: int
    executions: int
    avg_batch: float
    batch_histogram: dict[int, int]  # batch size -> executions
    queue_us: float  # per request, averaged over the interval
    compute_input_us: float
    compute_infer_us: float
    compute_output_us: float
    requests: int = 0
    failures: int = 0


@dataclass(frozen=True)
class ServerSample:
    """The server over the interval since the previous sample."""

    time: float
    models: dict[str, ModelSample]
    gpu_util: float | None  # percent, mean over GPUs
    gpu_mem_used_bytes: float | None  # summed over GPUs
    cpu_util: float | None  # percent of all cores: the local server's /proc tree, else nv_cpu_utilization
    interval_s: float = 0.0
    error: str = ""  # why the statistics could not be read (server down...), else ""
    cpu_source: str = ""  # "proc" (the server's own process tree) | "prometheus" (a remote host) | ""
    # Other local servers watched over the same interval, (name, % of all cores): while the baseline
    # runs, the Triton tree beside it (near 0 when Triton idles).
    process_cpu: tuple[tuple[str, float], ...] = ()

    @property
    def utilisation(self) -> tuple[str, float | None]:
        """("GPU", percent) when the server reports a GPU, else ("CPU", percent) or ("CPU", None)."""
        if self.gpu_util is not None:
            return "GPU", float(self.gpu_util)
        return "CPU", None if self.cpu_util is None else float(self.cpu_util)


def mean_utilisation(samples: Sequence[ServerSample]) -> tuple[str, float | None]:
    """The kind ("GPU" or "CPU") and mean percent over the samples that have a reading."""
    readings = [s.utilisation for s in samples if s.utilisation[1] is not None]
    if not readings:
        return "", None
    kind = "GPU" if any(k == "GPU" for k, _ in readings) else "CPU"
    values = [v for k, v in readings if k == kind and v is not None]
    return kind, sum(values) / len(values)


class Monitor(Protocol):
    """What a load run samples once per measured window: ServerMonitor or ProcessMonitor."""

    def sample(self) -> ServerSample: ...

    @property
    def last_totals(self) -> ServerTotals | None: ...  # the statistics reading the last sample ended on


def _int(value: Any) -> int:
    return int(value or 0)


def parse_statistics(data: dict[str, Any]) -> dict[str, ModelTotals]:
    """get_inference_statistics(as_json=True) -> totals per model name (versions summed)."""
    out: dict[str, ModelTotals] = {}
    for stats in data.get("model_stats", []):
        inference = stats.get("inference_stats", {})
        batches: dict[int, int] = {}
        for entry in stats.get("batch_stats", []):
            size = _int(entry.get("batch_size"))
            batches[size] = batches.get(size, 0) + _int(entry.get("compute_infer", {}).get("count"))
        totals = ModelTotals(
            inferences=_int(stats.get("inference_count")),
            executions=_int(stats.get("execution_count")),
            requests=_int(inference.get("success", {}).get("count")),
            failures=_int(inference.get("fail", {}).get("count")),
            ns={phase: _int(inference.get(phase, {}).get("ns")) for phase in _PHASES},
            batches=batches,
        )
        out[stats["name"]] = _add(out.get(stats["name"]), totals)
    return out


def _add(a: ModelTotals | None, b: ModelTotals) -> ModelTotals:
    if a is None:
        return b
    return ModelTotals(
        a.inferences + b.inferences, a.executions + b.executions, a.requests + b.requests,
        a.failures + b.failures, {k: a.ns.get(k, 0) + b.ns.get(k, 0) for k in _PHASES},
        {k: a.batches.get(k, 0) + b.batches.get(k, 0) for k in {*a.batches, *b.batches}},
    )  # fmt: skip


def model_delta(name: str, before: ModelTotals | None, after: ModelTotals) -> ModelSample:
    """What one model did between two readings."""
    before = before or ModelTotals()
    inferences = after.inferences - before.inferences
    executions = after.executions - before.executions
    requests = after.requests - before.requests
    per = 1e-3 / requests if requests > 0 else 0.0
    times = {p: (after.ns.get(p, 0) - before.ns.get(p, 0)) * per for p in _PHASES}
    histogram = {
        size: after.batches[size] - before.batches.get(size, 0)
        for size in sorted(after.batches)
        if after.batches[size] - before.batches.get(size, 0) > 0
    }
    return ModelSample(
        model=name, inferences=inferences, executions=executions,
        avg_batch=inferences / executions if executions > 0 else 0.0, batch_histogram=histogram,
        queue_us=times["queue"], compute_input_us=times["compute_input"],
        compute_infer_us=times["compute_infer"], compute_output_us=times["compute_output"],
        requests=requests, failures=after.failures - before.failures,
    )  # fmt: skip


def deltas(before: ServerTotals | None, after: ServerTotals) -> dict[str, ModelSample]:
    old = before.models if before else {}
    return {name: model_delta(name, old.get(name), totals) for name, totals in after.models.items()}


def breakdown(
    before: ServerTotals | None,
    after: ServerTotals | None,
    model: str,
    mean_us: float,
    client_send_us: float = 0.0,
    client_recv_us: float = 0.0,
) -> tuple[dict[str, float] | None, dict[str, dict[str, float]]]:
    """perf_analyzer's latency breakdown of `model` (us per request) and every model's batching."""
    if before is None or after is None or model not in after.models:
        return None, {}
    samples = deltas(before, after)
    models = {
        name: {
            "inferences": s.inferences, "executions": s.executions, "avg_batch": s.avg_batch,
            "requests": s.requests, "queue_us": s.queue_us,
            "compute_us": s.compute_input_us + s.compute_infer_us + s.compute_output_us,
        }
        for name, s in samples.items()
        if s.executions > 0
    }  # fmt: skip
    top = samples[model]
    if top.requests <= 0:
        return None, models
    # Each step runs once per pipeline request: add up the steps' own per-request averages (steps
    # that finished a different number of requests inside the interval than the ensemble still count right).
    parts = [samples[step] for step in after.steps.get(model, ()) if step in samples] or [top]
    server = {phase: sum(getattr(p, f"{phase}_us") for p in parts if p.requests > 0) for phase in _PHASES}
    spent = sum(server.values()) + client_send_us + client_recv_us
    server.update(client_send=client_send_us, client_recv=client_recv_us, network=max(0.0, mean_us - spent))
    return server, models


class ServerMonitor:
    """Reads the statistics API (and the metrics page) of one server; sample() gives deltas."""

    def __init__(
        self,
        grpc_url: str,
        metrics_url: str | None = None,
        options: ClientOptions | None = None,
        *,
        server_pid: int | None = None,
    ) -> None:
        self.grpc_url = grpc_url
        self.metrics_url = metrics_url
        options = options or ClientOptions()
        self._timeout = min(options.timeout_s, 10.0)
        self._client = options.grpc_client(grpc_url)
        self._lock = threading.Lock()
        self._steps: dict[str, tuple[str, ...]] = {}
        self._cpu: ProcessTreeCpu | None = ProcessTreeCpu(server_pid) if server_pid else None
        self._cpu_looked_up = server_pid is not None
        self._last: ServerTotals | None = None
        self._last_ok: ServerTotals | None = None
        try:
            self._last = self.totals()
        except Exception:  # the server may come up later; the first sample then has no baseline
            self._last = None

    @property
    def last_totals(self) -> ServerTotals | None:
        """The statistics reading the last sample() ended on (None when it could not be read)."""
        return self._last_ok

    def totals(self) -> ServerTotals:
        """Cumulative counters now (raises tritonclient's exception when the server cannot answer)."""
        data = self._client.get_inference_statistics(as_json=True, client_timeout=self._timeout)
        models = parse_statistics(data)
        for name in models:
            if name not in self._steps:
                steps = self._ensemble_steps(name)
                if steps is not None:  # a failed lookup is asked again at the next reading
                    self._steps[name] = steps
        return ServerTotals(time.monotonic(), models, dict(self._steps))

    def _ensemble_steps(self, model: str) -> tuple[str, ...] | None:
        """The ensemble's steps in order (() for a plain model); None when the config could not be read."""
        try:
            config = self._client.get_model_config(model, as_json=True, client_timeout=self._timeout)
        except InferenceServerException:
            return None
        steps = config.get("config", {}).get("ensemble_scheduling", {}).get("step", [])
        return tuple(step["model_name"] for step in steps)

    def sample(self) -> ServerSample:
        """Deltas since the previous call; never raises for a server that is down (see .error)."""
        with self._lock:
            error = ""
            try:
                now = self.totals()
            except Exception as exc:
                now, error = None, f"statistics of {self.grpc_url} unavailable: {exc}"
            before, self._last = self._last, now or self._last
            self._last_ok = now
            models = deltas(before, now) if now else {}
            interval = now.time - before.time if now and before else 0.0
            gpu_util, gpu_mem, cpu, source = self._machine()
            return ServerSample(time.time(), models, gpu_util, gpu_mem, cpu, interval, error, source)

    def _machine(self) -> tuple[float | None, float | None, float | None, str]:
        metrics: dict[str, list[float]] = {}
        if self.metrics_url:
            try:
                metrics = fetch_metrics(self.metrics_url, self._timeout)
            except (OSError, ValueError):
                metrics = {}
        util = mean(metrics.get("nv_gpu_utilization"))
        gpu_util = None if util is None else util * 100.0
        gpu_mem = total(metrics.get("nv_gpu_memory_used_bytes"))
        # A local server's own process tree (tritonserver and its Python stubs) first: Triton's
        # nv_cpu_utilization is the whole host's, which reads 100 % while only the baseline works.
        if not self._cpu_looked_up:
            self._cpu_looked_up = True
            self._cpu = ProcessTreeCpu.for_url(self.grpc_url)
        if self._cpu is not None:
            return gpu_util, gpu_mem, self._cpu.read(), "proc"
        cpu = mean(metrics.get("nv_cpu_utilization"))
        if cpu is not None:
            return gpu_util, gpu_mem, cpu * 100.0, "prometheus"
        return gpu_util, gpu_mem, None, ""

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> ServerMonitor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ProcessMonitor:
    """A Monitor of a server without Triton's statistics (the baseline): the CPU use of its process tree."""

    def __init__(self, pid: int, others: Mapping[str, ProcessTreeCpu] | None = None) -> None:
        """`others`: more local process trees to read over the same intervals (name -> tree)."""
        self._cpu = ProcessTreeCpu(pid)
        self._others = dict(others or {})
        self._last = time.monotonic()  # ProcessTreeCpu took its first reading just now

    @property
    def last_totals(self) -> ServerTotals | None:
        return None

    def sample(self) -> ServerSample:
        now = time.monotonic()
        interval, self._last = now - self._last, now
        readings = ((name, tree.read()) for name, tree in self._others.items())
        others = tuple((name, value) for name, value in readings if value is not None)
        return ServerSample(time.time(), {}, None, None, self._cpu.read(), interval, "", "proc", others)

    def close(self) -> None:
        """Nothing to release; here so that every monitor closes alike."""
