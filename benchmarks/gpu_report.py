"""benchmarks/gpu_check.py's table: one measured row, and the Markdown and JSON report."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass


@dataclass
class Row:
    """One measured cell of the table."""

    server: str  # "baseline", "triton", "triton-production"
    batching: bool | None
    instances: int | None
    concurrency: int
    images_per_s: float
    p50_ms: float
    p99_ms: float
    completed: int
    errors: int
    mismatches: int
    gpu_util_pct: float | None = None
    gpu_mem_mib: float | None = None
    avg_batch: dict[str, float] | None = None
    speedup: float | None = None

    def label(self) -> str:
        if self.server == "baseline":
            return "Flask baseline (serial)"
        batching = "on" if self.batching else "off"
        name = "Triton production configs" if self.server == "triton-production" else "Triton"
        return f"{name}, dyn. batching {batching}, {self.instances} inst."


# -- report ---------------------------------------------------------------------------------------
def markdown(rows: list[Row], meta: dict) -> str:
    lines = [
        f"# GPU check: {meta['device']}",
        "",
        f"{meta['images']} receipts, {meta['measure']} per level after {meta['warmup_s']} s warm-up; "
        f"`python benchmarks/gpu_check.py {meta['argv']}` on {meta['date']}.",
        "",
        "| server | concurrency | images/s | p50 ms | p99 ms | GPU util % | GPU mem MiB "
        "| avg batch det / rec | x baseline | errors |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        batch = r.avg_batch or {}
        det, rec = batch.get("text_detection"), batch.get("text_recognition")
        lines.append(
            f"| {r.label()} | {r.concurrency} | {r.images_per_s:.2f} | {r.p50_ms:.0f} | {r.p99_ms:.0f} | "
            f"{_fmt(r.gpu_util_pct)} | {_fmt(r.gpu_mem_mib)} | "
            f"{_fmt(det, '{:.2f}')} / {_fmt(rec, '{:.2f}')} | "
            f"{_fmt(r.speedup, '{:.2f}x')} | {r.errors} |"
        )
    lines += [
        "",
        f"perf_analyzer, ocr_pipeline, concurrency {meta['pa_concurrency']}: "
        f"{_fmt(meta.get('perf_analyzer'), '{:.2f} infer/s')}; the app's load generator on the same "
        f"server and load: {_fmt(meta.get('ours_at_pa'), '{:.2f} images/s')}.",
        "",
        f"Production configs (onnxruntime backend): {meta['production']}",
        "",
    ]
    return "\n".join(lines)


def _fmt(value: float | None, pattern: str = "{:.0f}") -> str:
    return "-" if value is None else pattern.format(value)


def write_report(rows: list[Row], meta: dict, args: argparse.Namespace) -> int:
    args.out.mkdir(parents=True, exist_ok=True)
    text = markdown(rows, meta)
    (args.out / "gpu_check.md").write_text(text, encoding="utf-8")
    (args.out / "gpu_check.json").write_text(
        json.dumps({"meta": meta, "rows": [asdict(r) for r in rows]}, indent=1), encoding="utf-8"
    )
    print("\n" + text)
    print(f"Written: {args.out / 'gpu_check.md'}, {args.out / 'gpu_check.json'}")
    failed = [r for r in rows if r.errors or r.mismatches or r.completed == 0]
    if failed:
        print(f"{len(failed)} row(s) had errors, mismatches or no completed request", file=sys.stderr)
        return 1
    return 0
