"""Load testing against the server, measured like perf_analyzer (core: no Qt).

`targets` makes what is sent (pipeline, detection or recognition alone; `baseline_target` the
baseline over HTTP; `golden` their golden checks), `engine` runs workers against it and measures,
`sweep` runs one level after another, `server_stats` reads the server's own statistics (sampled
once per measured window, carried by the result), `stats` holds the bounded-memory statistics,
`report` the results, the speed-up and perf_analyzer's CSV layout.
"""

from scanner_app.load.engine import LiveStats, LoadRun, LoadSpec
from scanner_app.load.report import PERF_CSV_COLUMNS, RunResult, WindowStats, speedup, write_perf_csv
from scanner_app.load.server_stats import ModelSample, ServerMonitor, ServerSample
from scanner_app.load.sweep import run_sweep
from scanner_app.load.targets import KINDS, Target, make_target, sample_images

__all__ = [
    "KINDS", "PERF_CSV_COLUMNS", "LiveStats", "LoadRun", "LoadSpec", "ModelSample", "RunResult",
    "ServerMonitor", "ServerSample", "Target", "WindowStats", "make_target", "run_sweep", "sample_images",
    "speedup", "write_perf_csv",
]  # fmt: skip
