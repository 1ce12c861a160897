"""Start the built desktop bundle offscreen; pass when it shows its main window and exits cleanly.

    python packaging/desktop/smoke_test.py [dist/scanner-app/scanner-app]

Runs the binary with QT_QPA_PLATFORM=offscreen and --smoke-test (see launcher.py) in a throw-away
HOME, so no settings of the user are read or written. Exit code 0 on success, 1 on failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_BINARY = ROOT / "dist" / "scanner-app" / "scanner-app"
TIMEOUT_S = 120
MARKER = "smoke-test: visible main windows: "


def folder_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def smoke_test(binary: Path) -> list[str]:
    """Problems found (empty when the bundle passed)."""
    if not binary.is_file():
        return [f"{binary} does not exist: build it with packaging/desktop/build_linux.sh"]
    with tempfile.TemporaryDirectory(prefix="scanner-app-smoke-") as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "QT_", "XDG_"))}
        env.update(HOME=home, XDG_CONFIG_HOME=f"{home}/.config", XDG_CACHE_HOME=f"{home}/.cache",
                   XDG_RUNTIME_DIR=home, QT_QPA_PLATFORM="offscreen", LANG="C.UTF-8")  # fmt: skip
        started = time.monotonic()
        try:
            result = subprocess.run(
                [str(binary), "--smoke-test"], env=env, capture_output=True, text=True, timeout=TIMEOUT_S
            )
        except subprocess.TimeoutExpired:
            return [f"{binary} did not exit within {TIMEOUT_S} s"]
        elapsed = time.monotonic() - started
    print(f"exit code {result.returncode} after {elapsed:.1f} s")
    print("stdout:", result.stdout.strip() or "(empty)")
    if result.stderr.strip():
        print("stderr (last lines):\n" + "\n".join(result.stderr.strip().splitlines()[-15:]))
    problems = []
    if result.returncode != 0:
        problems.append(f"exit code {result.returncode}, expected 0")
    shown = [line for line in result.stdout.splitlines() if line.startswith(MARKER)]
    if not shown or shown[-1] == MARKER + "none":
        problems.append("no visible main window was reported")
    if "Traceback (most recent call last)" in result.stderr:
        problems.append("a Python traceback was printed")
    return problems


def main(argv: list[str]) -> int:
    binary = Path(argv[0]) if argv else DEFAULT_BINARY
    problems = smoke_test(binary)
    if binary.is_file():
        print(f"bundle {binary.parent}: {folder_size(binary.parent) / 2**20:.0f} MiB")
    for problem in problems:
        print(f"FAIL: {problem}", file=sys.stderr)
    if not problems:
        print("smoke test passed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
