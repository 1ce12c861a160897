"""benchmarks/gpu_check.py's readings of Triton: GPU utilisation and memory from its metrics, and the
average executed batch per model from its statistics (loopback, no proxy)."""

from __future__ import annotations

import json
import threading
import urllib.request

_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class MetricsSampler:
    """Samples Triton's GPU metrics every 0.5 s while a run goes on (mean utilisation, peak memory)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.util: list[float] = []
        self.memory: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self) -> MetricsSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)

    def _loop(self) -> None:
        while not self._stop.wait(0.5):
            try:
                with _NO_PROXY.open(self.url, timeout=2) as page:
                    text = page.read().decode("utf-8", "replace")
            except OSError:
                continue
            util = [_value(line) for line in text.splitlines() if line.startswith("nv_gpu_utilization{")]
            used = [
                _value(line) for line in text.splitlines() if line.startswith("nv_gpu_memory_used_bytes{")
            ]
            if util:
                self.util.append(100.0 * sum(util) / len(util))
            if used:
                self.memory.append(sum(used) / 2**20)

    def summary(self) -> tuple[float | None, float | None]:
        util = sum(self.util) / len(self.util) if self.util else None
        return util, max(self.memory) if self.memory else None


def _value(line: str) -> float:
    try:
        return float(line.rsplit(" ", 1)[1])
    except (IndexError, ValueError):
        return 0.0


def model_counts(http_url: str) -> dict[str, tuple[int, int]]:
    """model -> (inference_count, execution_count) from Triton's statistics API."""
    with _NO_PROXY.open(f"{http_url}/v2/models/stats", timeout=10) as page:
        stats = json.loads(page.read())
    return {
        s["name"]: (int(s.get("inference_count", 0)), int(s.get("execution_count", 0)))
        for s in stats.get("model_stats", [])
    }


def average_batches(
    before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]
) -> dict[str, float]:
    """Average executed batch per model between two snapshots (models that executed)."""
    batches = {}
    for model, (inferences, executions) in after.items():
        old_inferences, old_executions = before.get(model, (0, 0))
        if executions > old_executions:
            batches[model] = round((inferences - old_inferences) / (executions - old_executions), 2)
    return batches
