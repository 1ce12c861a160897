"""From a batch store to the exporters: results with people's edits applied."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from pathlib import Path

from PIL import Image

from scanner_app.core import images
from scanner_app.core.export import DocumentResult, export
from scanner_app.core.results import PageResult
from scanner_app.core.store import BatchStore, PageRecord


def edited_page(record: PageRecord) -> PageResult:
    """The stored page with each edited line's text replaced by the edit."""
    texts = record.line_texts
    lines = tuple(
        dataclasses.replace(line, text=text) for line, text in zip(record.result.lines, texts, strict=True)
    )
    return dataclasses.replace(record.result, lines=lines)


def documents(store: BatchStore) -> list[DocumentResult]:
    """Every file in the store, done or failed, as the exporters take them (queued files left out)."""
    docs = []
    for result in store.results():
        state = result.file.state
        if state == "failed":
            docs.append(DocumentResult(str(result.file.path), (), result.file.error or "failed"))
        elif state == "done":
            docs.append(DocumentResult(str(result.file.path), tuple(edited_page(p) for p in result.pages)))
    return docs


def page_images(source: str) -> Iterator[Image.Image]:
    """The page images of a source file, read again (for the searchable PDF)."""
    for page in images.iter_pages(Path(source)):
        yield page.image


def export_store(
    store: BatchStore, out_dir: Path, formats: Sequence[str], fields: bool = False
) -> list[Path]:
    """Write the requested formats of everything in the store into ``out_dir``. With ``fields``,
    each page's invoice fields join the JSON exports and ``results_fields.csv`` (the reimbursement
    sheet) joins the CSV ones."""
    docs = documents(store)
    if not fields:
        return export(docs, out_dir, formats, page_images=page_images)
    from scanner_app.core.fields.cli_export import export_fields  # only when asked for

    return export_fields(docs, out_dir, formats, page_images)
