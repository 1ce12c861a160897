"""The embedded server's log files: each start writes a new one, and the logs of the last few
processes stay beside it (`tritonserver-8001.1.log` is the one before), so that the log of a
server that died by itself is still there to read after the supervisor restarted it."""

from __future__ import annotations

import contextlib
import re
import signal
import time
from pathlib import Path

KEPT_LOGS = 3  # earlier processes' logs kept beside the current one
# Each port has its own log, and the app's server takes a free port at each start: without pruning,
# every start would leave a file for good. The newest are kept whatever their age; the others go
# once a week old (a server still running keeps writing to its log, so its file stays new).
KEPT_LOG_FILES = 40
LOG_MAX_AGE_S = 7 * 24 * 3600
LOG_PATTERN = "tritonserver-*.log"


def earlier_log(path: Path, n: int) -> Path:
    """The log of the n-th process before the current one (`name.log` -> `name.<n>.log`)."""
    return path.with_name(f"{path.stem}.{n}{path.suffix}")


def rotate(path: Path, keep: int = KEPT_LOGS) -> Path | None:
    """Move `path` to `earlier_log(path, 1)` and older ones one further, dropping the oldest past
    `keep`; the path the previous log now has (None when there was none or keep is 0)."""
    if keep <= 0 or not path.is_file():
        return None
    with contextlib.suppress(OSError):
        earlier_log(path, keep).unlink(missing_ok=True)
        for n in range(keep - 1, 0, -1):
            older = earlier_log(path, n)
            if older.is_file():
                older.replace(earlier_log(path, n + 1))
        path.replace(earlier_log(path, 1))
        return earlier_log(path, 1)
    return None


def prune(directory: Path, keep: int = KEPT_LOG_FILES, max_age_s: float = LOG_MAX_AGE_S,
          now: float | None = None) -> list[Path]:  # fmt: skip
    """Delete the server logs in `directory` past the `keep` newest that are older than `max_age_s`;
    the paths deleted."""
    now = time.time() if now is None else now
    logs = []
    for path in directory.glob(LOG_PATTERN):
        with contextlib.suppress(OSError):  # gone meanwhile (another server's start pruned it)
            logs.append((path.stat().st_mtime, path))
    logs.sort(reverse=True)
    deleted = []
    for mtime, path in logs[keep:]:
        if now - mtime > max_age_s:
            with contextlib.suppress(OSError):
                path.unlink()
                deleted.append(path)
    return deleted


def signal_words(number: int) -> str:
    """"signal 6 (SIGABRT)"; "signal 99" for a number with no name."""
    try:
        return f"signal {number} ({signal.Signals(number).name})"
    except ValueError:
        return f"signal {number}"


def describe_exit(code: int) -> str:
    """A Popen return code in words: "exited with code 1", "was killed by signal 6 (SIGABRT)"."""
    return f"exited with code {code}" if code >= 0 else f"was killed by {signal_words(-code)}"


# Triton's error lines ("E1204 10:51:00.123 ..."), and what a C++ abort or a crash prints.
_ERROR_LINE = re.compile(
    r"^E\d{4} |terminate called|what\(\)|Signal \(\d+\) received|Segmentation fault|Aborted"
)

# Error lines every server on a machine without a GPU writes at start: no cause of anything.
_ROUTINE = re.compile(r"CudaDriverHelper has not been initialized|CUDA driver version is insufficient")


def last_errors(log_text: str, count: int = 3, width: int = 240) -> list[str]:
    """The last `count` error lines of a server log, each cut to `width` characters."""
    lines = [line.strip() for line in log_text.splitlines()]
    lines = [line for line in lines if _ERROR_LINE.search(line) and not _ROUTINE.search(line)]
    return [line[:width] for line in lines[-count:]]
