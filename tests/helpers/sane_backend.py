"""SANE's own `test` backend: a real virtual scanner (Debian libsane1), selected through SANE_CONFIG_DIR.

SANE reads its configuration once per process (at sane.init, which the app calls once), so the first
test that needs it sets the folder for the whole session.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

DEVICE = "sane:test:0"


def use_sane_test_backend() -> Path:
    """Point SANE at a config folder whose dll.conf holds only `test`; the same folder every call."""
    current = os.environ.get("SANE_CONFIG_DIR")
    if current and (Path(current) / "dll.conf").read_text().strip() == "test":
        return Path(current)
    folder = Path(tempfile.mkdtemp(prefix="scanner-app-sane-"))
    (folder / "dll.conf").write_text("test\n")
    os.environ["SANE_CONFIG_DIR"] = str(folder)  # no trailing ':' -> the system's backends stay out
    return folder
