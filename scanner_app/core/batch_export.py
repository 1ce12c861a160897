"""From a batch store to the exporters: results with people's edits applied."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from PIL import Image

from scanner_app.core import images
from scanner_app.core.edits import edited_page
from scanner_app.core.export import DocumentResult, export
from scanner_app.core.export_layout import Namer, OutputLayout
from scanner_app.core.fields.export import export_fields
from scanner_app.core.store import BatchStore

PdfNames = Callable[[DocumentResult], str]


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
    store: BatchStore,
    out_dir: Path,
    formats: Sequence[str],
    fields: bool = False,
    layout: OutputLayout | None = None,
) -> list[Path]:
    """Write the requested formats of everything in the store into ``out_dir``. With ``fields``,
    each page's invoice fields join the JSON exports and ``results_fields.csv`` (the reimbursement
    sheet) joins the CSV ones. ``layout`` places the per-file PDFs (``pdf/2026/March/receipt.jpg.pdf``
    for the tree layout); None keeps them flat, ``pdf/<stem>.pdf``."""
    docs = documents(store)
    names = pdf_namer(docs, layout)
    if not fields:
        return export(docs, out_dir, formats, page_images=page_images, pdf_names=names)
    pdf = [f for f in formats if f.lower() == "pdf"] if names else []
    written = export_fields(docs, out_dir, [f for f in formats if f not in pdf], page_images)
    return written + export(docs, out_dir, pdf, page_images=page_images, pdf_names=names)


def pdf_namer(docs: Sequence[DocumentResult], layout: OutputLayout | None) -> PdfNames | None:
    """Names for the per-file PDFs under ``layout`` (None when it is the plain flat one)."""
    if layout is None or (layout.mode == "flat" and layout.template is None):
        return None
    namer = Namer(layout, [d.source for d in docs])
    return lambda doc: str(namer.name(doc.source, doc.pages[0] if doc.pages else None))
