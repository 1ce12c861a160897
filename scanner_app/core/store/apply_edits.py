"""People's corrections applied to stored results (no Qt)."""

from __future__ import annotations

import dataclasses

from scanner_app.core.results import PageResult
from scanner_app.core.store.batch_store import PageRecord


def edited_page(record: PageRecord) -> PageResult:
    """The stored page with each edited line's text replaced by the edit."""
    texts = record.line_texts
    lines = tuple(
        dataclasses.replace(line, text=text) for line, text in zip(record.result.lines, texts, strict=True)
    )
    return dataclasses.replace(record.result, lines=lines)
