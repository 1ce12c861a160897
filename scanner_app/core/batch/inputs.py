"""A batch's inputs: the files found under the paths given, added to its store; those skipped, with why."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from scanner_app.core import images
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore

PROGRESS_EVERY = 50  # files added between two add_to_store progress calls


def add_to_store(
    store: BatchStore, paths: Iterable[Path | str], on_progress: Callable[[int, int], object] | None = None
) -> list[tuple[Path, str]]:
    """Discover files under ``paths`` (recursive) and add them to ``store``; the skipped ones, with why.

    Files inside the store's folder (the output folder) are never inputs. ``on_progress(done, found)``
    is called every PROGRESS_EVERY files (hashing a large folder takes a while).
    """
    out_dir = store.path.parent.absolute()
    found, skipped = images.discover([Path(p) for p in paths])
    skipped = [(p, why) for p, why in skipped if not (p.name.startswith(STORE_NAME) and p.parent == out_dir)]
    for n, path in enumerate(found, 1):
        if path.absolute().is_relative_to(out_dir):
            skipped.append((path, "inside the output folder"))
        else:
            try:
                store.add_files([path])
            except OSError as exc:
                skipped.append((path, f"cannot be read ({exc.strerror or exc})"))
        if on_progress is not None and n % PROGRESS_EVERY == 0:
            on_progress(n, len(found))
    return skipped
