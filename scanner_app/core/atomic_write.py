"""Atomic file writes: a temporary file beside the target, then ``os.replace`` (no Qt).

A reader never sees a half-written file, and a failed write leaves the old file as it was.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO


@contextlib.contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success it replaces ``path`` (mode 0644)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        yield Path(name)
        os.chmod(name, 0o644)  # mkstemp creates 0600
        os.replace(name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


@contextlib.contextmanager
def open_atomic(
    path: str | os.PathLike[str], encoding: str = "utf-8", newline: str | None = None
) -> Iterator[IO[str]]:
    """``open(path, "w")`` through :func:`atomic_path`."""
    target = Path(path)
    with atomic_path(target) as tmp, open(tmp, "w", encoding=encoding, newline=newline) as handle:
        yield handle
