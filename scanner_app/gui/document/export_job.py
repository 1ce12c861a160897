"""Exporting the document on screen (edits applied); a blocking call for the document's writer queue."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from scanner_app.core.batch.export import documents, page_images_of
from scanner_app.core.export.formats import export
from scanner_app.core.store.batch_store import BatchStore, utf8_safe


def export_document(store: BatchStore, source: Path, out_dir: Path, formats: Sequence[str]) -> list[Path]:
    """Write one source file's stored pages (with edits) in the given formats; the paths written.

    A source whose name is not valid UTF-8 is found under its shown name (U+FFFD for the odd bytes)
    and its PDF made from the real file, as the CLI's export does. Run it after the document's
    pending edits (DocumentModel.after_writes), never beside them.
    """
    real = Path(source).absolute()
    wanted = utf8_safe(str(real))
    docs = [d for d in documents(store) if d.source == wanted]
    if not docs:
        raise ValueError(f"{utf8_safe(real.name)}: no recognised pages to export yet")
    pages = next((r.pages or 0 for r in store.files() if r.path == real), 0)
    if any(len(d.pages) != pages for d in docs):
        formats = [f for f in formats if f != "pdf"]  # a partial file cannot become its PDF
    return export(docs, Path(out_dir), list(formats), page_images=page_images_of(store))
