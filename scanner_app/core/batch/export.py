"""From a batch store to the exporters: results with people's edits applied."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from PIL import Image

from scanner_app.core import images
from scanner_app.core.batch.fields import sheet_edits, sheet_receipt_edits
from scanner_app.core.export.fields_sheet import export_fields
from scanner_app.core.export.formats import DocumentResult, export
from scanner_app.core.export.layout import Namer, OutputLayout
from scanner_app.core.store.apply_edits import edited_page
from scanner_app.core.store.batch_store import BatchStore, utf8_safe

PdfNames = Callable[[DocumentResult], str]


def documents(store: BatchStore) -> list[DocumentResult]:
    """Every file in the store, done or failed, as the exporters take them (queued files left out).

    A source name that is not UTF-8 is shown with U+FFFD for its odd bytes (utf8_safe).
    """
    docs = []
    for result in store.results():
        state, source = result.file.state, utf8_safe(str(result.file.path))
        if state == "failed":
            docs.append(DocumentResult(source, (), result.file.error or "failed"))
        elif state == "done":
            docs.append(DocumentResult(source, tuple(edited_page(p) for p in result.pages)))
    return docs


def page_images(source: str) -> Iterator[Image.Image]:
    """The page images of a source file, read again (for the searchable PDF)."""
    for page in images.iter_pages(Path(source)):
        yield page.image


def page_images_of(store: BatchStore) -> Callable[[str], Iterator[Image.Image]]:
    """page_images that finds the file behind a utf8_safe source name."""
    real = {utf8_safe(str(f.path)): f.path for f in store.files("done")}
    return lambda source: page_images(str(real.get(source, source)))


def export_store(
    store: BatchStore,
    out_dir: Path,
    formats: Sequence[str],
    fields: bool = False,
    layout: OutputLayout | None = None,
) -> list[Path]:
    """Write the requested formats of everything in the store into ``out_dir``. With ``fields``,
    each page's invoice fields join the JSON exports and ``results_fields.csv`` (the reimbursement
    sheet) joins the CSV ones. ``layout`` places the per-file PDFs (``pdf/2026/March/receipt.pdf`` for
    the tree layout, ``_2``... when names repeat); None keeps them flat, ``pdf/<stem>.pdf``."""
    docs = documents(store)
    names = pdf_namer(docs, layout)
    page_images = page_images_of(store)
    if not fields:
        return export(docs, out_dir, formats, page_images=page_images, pdf_names=names)
    pdf = [f for f in formats if f.lower() == "pdf"] if names else []
    edits, receipt_edits = sheet_edits(store), sheet_receipt_edits(store)  # fields set by hand (GUI)
    kept = [f for f in formats if f not in pdf]
    written = export_fields(docs, out_dir, kept, page_images, edits, receipt_edits)
    return written + export(docs, out_dir, pdf, page_images=page_images, pdf_names=names)


def pdf_namer(docs: Sequence[DocumentResult], layout: OutputLayout | None) -> PdfNames | None:
    """Names for the per-file PDFs under ``layout`` (None when it is the plain flat one)."""
    if layout is None or (layout.mode == "flat" and layout.template is None):
        return None
    namer = Namer(layout, [d.source for d in docs], keep_suffix=False)
    return lambda doc: str(namer.name(doc.source, doc.pages[0] if doc.pages else None))
