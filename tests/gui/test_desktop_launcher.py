"""The desktop bundle's entry point, run from source: `--smoke-test` shows the main window and exits 0.

The bundle itself is built and smoke-tested by packaging/desktop/build_linux.sh (minutes of CPU,
so not part of this suite); this checks the same entry point and protocol on every run.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from tests.helpers.paths import REPO

LAUNCHER = REPO / "packaging" / "desktop" / "launcher.py"


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_launcher_smoke_test_shows_the_main_window(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QT_", "XDG_"))}
    env.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"), QT_QPA_PLATFORM="offscreen")
    # A server that is not there: the app must not start an embedded one for this check.
    command = [sys.executable, str(LAUNCHER), "--smoke-test", "--server", f"127.0.0.1:{closed_port()}"]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result
    assert "smoke-test: visible main windows: '" in result.stdout, result  # a title, not 'none'
    assert "Traceback" not in result.stderr, result.stderr
