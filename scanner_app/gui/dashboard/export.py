"""Export of finished runs: perf_analyzer's CSV layout and JSON (no Qt; blocking, call off the GUI thread)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from scanner_app.load.engine import write_perf_csv

from .records import RunRecord


def export_runs(records: Sequence[RunRecord], path: Path) -> Path:
    """`.json` -> {"runs": [...]} (RunResult.to_json, label, per-model figures); anything else -> CSV."""
    if not records:
        raise ValueError("no runs selected to export")
    path = Path(path)
    if path.suffix.lower() == ".json":
        temporary = path.with_name(path.name + ".part")
        temporary.write_text(json.dumps({"runs": [r.to_json() for r in records]}, indent=2), encoding="utf-8")
        os.replace(temporary, path)
    else:
        write_perf_csv([r.result for r in records], path)
    return path
