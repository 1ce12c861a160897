"""Deciding when a file that appeared in a watched folder is complete enough to read (no threads).

A file is ready when its size and modification time have not changed for ``settle_s`` and its
format's end marker is there (core/watch/complete.py), or at once when the writer closed it and the
marker is there. A file whose marker never comes (a truncated copy) is read after ``incomplete_s``
without a change, so that it fails with its cause instead of waiting for ever.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from scanner_app.core.watch.complete import looks_complete


@dataclass
class _Seen:
    size: int
    mtime_ns: int
    changed_at: float
    closed: bool = False


@dataclass
class Settler:
    """Candidates by path; ``check(now)`` returns those ready and when to check again."""

    settle_s: float = 2.0
    incomplete_s: float = 120.0
    _seen: dict[Path, _Seen | None] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self._seen)

    def touch(self, path: Path, now: float, closed: bool = False) -> bool:
        """Note that ``path`` changed (``closed``: its writer closed it); True when it is new here."""
        new = path not in self._seen
        if closed:  # what the writer left at close: complete unless it changes again
            try:
                st = os.stat(path)
            except OSError:
                self._seen.setdefault(path, None)
                return new
            self._seen[path] = _Seen(st.st_size, st.st_mtime_ns, now, closed=True)
        elif new:
            self._seen[path] = None  # stat'ed at the next check
        return new

    def forget(self, path: Path) -> None:
        self._seen.pop(path, None)

    def check(self, now: float) -> tuple[list[Path], float | None]:
        """(paths ready to read, seconds until the next check is useful or None when none waits).

        Paths that vanished are dropped; paths that cannot be stat'ed or opened are ready (the
        reader reports the cause)."""
        ready: list[Path] = []
        due: float | None = None
        for path, seen in list(self._seen.items()):
            try:
                st = os.stat(path)
            except FileNotFoundError:
                del self._seen[path]
                continue
            except OSError:
                ready.append(path)
                continue
            key = (st.st_size, st.st_mtime_ns)
            if seen is None or (seen.size, seen.mtime_ns) != key:
                seen = self._seen[path] = _Seen(*key, changed_at=now)
            try:
                complete = looks_complete(path) if st.st_size else False
            except OSError:
                ready.append(path)
                continue
            quiet = now - seen.changed_at
            if complete is False:
                enough = quiet >= self.incomplete_s
            else:  # True: the end marker is there; None: no marker to check
                enough = quiet >= self.settle_s or (complete is True and seen.closed)
            if enough:
                ready.append(path)
            else:
                wait = (self.incomplete_s if complete is False else self.settle_s) - quiet
                due = wait if due is None else min(due, wait)
                continue
        for path in ready:
            del self._seen[path]
        return ready, (max(due, 0.05) if due is not None else None)
