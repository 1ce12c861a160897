"""The images a stress session sends: generated receipts or a folder's pages, encoded once (no Qt)."""

from __future__ import annotations

from dataclasses import dataclass

from scanner_app.load.targets import images_from, sample_images

from .plan import ImageSource

MAX_PAGES = 200  # pages held in memory for one session


@dataclass(frozen=True)
class LoadedImages:
    """Encoded images ready to send, their names, and the files that could not be used (name: cause)."""

    data: tuple[bytes, ...]
    names: tuple[str, ...]
    problems: tuple[str, ...] = ()


def load_images(source: ImageSource) -> LoadedImages:
    """Blocking (decodes and encodes): call off the GUI thread. Raises ValueError when nothing is usable."""
    if source.folder is None:
        data = tuple(sample_images(max(1, source.generated_count)))
        return LoadedImages(data, tuple(f"receipt-{i + 1}.jpg" for i in range(len(data))))
    if not source.folder.is_dir():
        raise ValueError(f"{source.folder}: not a folder")
    found = images_from(source.folder, MAX_PAGES)
    problems = [f"{path}: {reason}" for path, reason in found.skipped]
    if found.truncated:
        problems.append(f"{source.folder}: only the first {MAX_PAGES} pages are used")
    if not found.data:
        detail = f" ({problems[0]})" if problems else ""
        raise ValueError(f"{source.folder}: no readable images{detail}")
    return LoadedImages(found.data, found.names, tuple(problems))
