"""What a batch store holds, as records (files, pages, line edits, counts), and how it stores a path
whose name is not valid UTF-8. The store itself: scanner_app.core.store.batch_store."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from scanner_app.core.results import PageResult

FileState = Literal["queued", "running", "done", "failed"]
STATES: tuple[FileState, ...] = get_args(FileState)


@dataclass(frozen=True)
class FileRecord:
    """One input file of the batch."""

    id: int
    path: Path
    sha256: str
    size: int
    mtime: float
    pages: int | None  # page count, once known
    state: FileState
    error: str | None
    updated_at: float
    retryable: int = 0  # 1: it failed because of the server, not the file (retried on resume)


@dataclass(frozen=True)
class LineEdit:
    """A person's correction of one line; the server's text stays in ``original``."""

    line_index: int
    original: str
    edited: str
    edited_at: float


@dataclass(frozen=True)
class PageRecord:
    """One stored page result with its edits."""

    id: int
    file_id: int
    index: int
    result: PageResult
    elapsed_ms: float
    edits: tuple[LineEdit, ...] = ()

    @property
    def line_texts(self) -> list[str]:
        """Each line's text with edits applied."""
        texts = [line.text for line in self.result.lines]
        for edit in self.edits:
            texts[edit.line_index] = edit.edited
        return texts

    @property
    def effective_text(self) -> str:
        """The page's text with edits applied, one line per row."""
        return "\n".join(self.line_texts)


@dataclass(frozen=True)
class FileResult:
    """A file and its stored pages, in page order (for exports)."""

    file: FileRecord
    pages: tuple[PageRecord, ...]


@dataclass(frozen=True)
class StoreSummary:
    """Counts over the whole store."""

    queued: int
    running: int
    done: int
    failed: int
    pages: int
    lines: int
    receipts: int = 0  # documents on the stored pages (an ordinary page is one)

    @property
    def files(self) -> int:
        return self.queued + self.running + self.done + self.failed


def record_id(item: FileRecord | PageRecord | int) -> int:
    """The id of a record, or the id itself (the store's methods take either)."""
    return item if isinstance(item, int) else item.id


def file_sha256(path: Path) -> str:
    """SHA-256 of a file's content, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


_RAW_PATH = "raw-bytes:"  # an absolute path never starts so


def path_text(path: Path) -> str:
    """How `path` is stored: as it is when it is valid UTF-8, else its bytes in hex (reversible)."""
    text = str(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a name that is not UTF-8 (Python keeps its bytes as surrogates)
        return _RAW_PATH + os.fsencode(path).hex()
    return text


def path_from_text(text: str) -> Path:
    """The path that path_text stored."""
    if text.startswith(_RAW_PATH):
        return Path(os.fsdecode(bytes.fromhex(text[len(_RAW_PATH) :])))
    return Path(text)


def utf8_safe(text: str) -> str:
    """`text` with the bytes of a non-UTF-8 file name shown as U+FFFD (for display and exports)."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
