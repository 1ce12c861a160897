"""Export recognition results as text, JSON, JSON Lines, CSV and searchable PDF (no Qt).

Every writer replaces its target atomically (a temporary file beside it, then ``os.replace``), so a
reader never sees a half-written export, and returns the path it wrote.
"""

from __future__ import annotations

import csv
import json
import os
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from scanner_app.core.atomic_write import open_atomic
from scanner_app.core.pdf.export import write_searchable_pdf
from scanner_app.core.results import PageResult, TextLine

FORMATS = ("txt", "json", "jsonl", "csv", "pdf")
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
LINE_COLUMNS = ["source", "page", "line_no", "text", "score"]
LINE_COLUMNS += [f"{axis}{i}" for i in range(4) for axis in "xy"] + ["error", "orientation"]
FILE_COLUMNS = ["source", "pages", "lines", "status", "error", "text", "orientation"]
# Excel reads a CSV as UTF-8 only when it begins with a byte order mark ("utf-8-sig" writes one);
# without it, accented and CJK text is shown in the legacy ANSI code page.
CSV_ENCODING = "utf-8-sig"


@dataclass(frozen=True)
class DocumentResult:
    """The OCR result of one input file: its pages, or the error that stopped it (and no pages)."""

    source: str
    pages: tuple[PageResult, ...]
    error: str | None = None


def _geometry(line: TextLine) -> tuple[float, float, float, float]:
    """(left, right, vertical centre, height) of a line's box."""
    xs = [x for x, _ in line.box]
    ys = [y for _, y in line.box]
    return min(xs), max(xs), sum(ys) / len(ys), max(ys) - min(ys)


def layout_text(page: PageResult) -> str:
    """The page's text with its layout approximated in characters.

    Lines whose vertical centres lie within half a line height of a row's are one row; cells of a
    row are placed at character columns (x / the page's median character width), at least one space
    apart; rows end in a newline, and a vertical gap taller than a line adds one blank line.
    """
    items = [(line, *_geometry(line)) for line in page.upright_lines() if line.text.strip()]
    if not items:
        return ""
    height = statistics.median(h for *_, h in items) or 1.0
    char_w = statistics.median((right - left) / len(line.text) for line, left, right, _, _ in items)
    char_w = char_w if char_w > 0 else height / 2
    margin = min(left for _, left, *_ in items)

    rows: list[list[tuple[TextLine, float, float, float, float]]] = []
    for item in sorted(items, key=lambda it: it[3]):
        if rows:
            row = rows[-1]
            row_cy = sum(it[3] for it in row) / len(row)
            row_h = sum(it[4] for it in row) / len(row)
            if abs(item[3] - row_cy) <= 0.5 * min(item[4] or height, row_h or height):
                row.append(item)
                continue
        rows.append([item])

    out: list[str] = []
    prev_bottom: float | None = None
    for row in rows:
        top = min(cy - h / 2 for *_, cy, h in row)
        if prev_bottom is not None and top - prev_bottom > height:
            out.append("")
        prev_bottom = max(cy + h / 2 for *_, cy, h in row)
        text = ""
        for line, left, *_ in sorted(row, key=lambda it: it[1]):
            column = round((left - margin) / char_w)
            gap = max(column - len(text), 1 if text else 0)
            text += " " * gap + line.text.strip()
        out.append(text.rstrip())
    return "\n".join(out)


def write_txt(docs: Iterable[DocumentResult], path: str | os.PathLike[str]) -> Path:
    """Plain text: per file a ``=== source ===`` header, then each page laid out by ``layout_text``."""
    with open_atomic(path) as handle:
        for i, doc in enumerate(docs):
            handle.write(("\n" if i else "") + f"=== {doc.source} ===\n")
            if doc.error:
                handle.write(f"[error] {doc.error}\n")
            for n, page in enumerate(doc.pages, 1):
                if len(doc.pages) > 1:
                    handle.write(f"--- page {n} ---\n")
                text = layout_text(page)
                handle.write(text + "\n" if text else "")
    return Path(path)


PageExtra = Callable[[PageResult], dict[str, Any]]


def _page_json(page: PageResult, n: int, extra: PageExtra | None = None) -> dict[str, Any]:
    return {**page.to_json(), "page": n, **(extra(page) if extra else {})}


def write_json(
    docs: Iterable[DocumentResult], path: str | os.PathLike[str], page_extra: PageExtra | None = None
) -> Path:
    """One JSON document: ``{"files": [{"source", "error", "pages": [page JSON + "page": n]}]}``;
    ``page_extra(page)`` adds keys to each page (e.g. ``"fields"``)."""
    files = [
        {
            "source": doc.source,
            "error": doc.error,
            "pages": [_page_json(page, n, page_extra) for n, page in enumerate(doc.pages, 1)],
        }
        for doc in docs
    ]
    with open_atomic(path) as handle:
        json.dump({"files": files}, handle, ensure_ascii=False, indent=2)
        handle.write("\n")
    return Path(path)


def write_jsonl(
    docs: Iterable[DocumentResult], path: str | os.PathLike[str], page_extra: PageExtra | None = None
) -> Path:
    """One JSON object a line: ``{"source", "error", page JSON, "page": n, "page_source"}`` per page; a file
    without pages (failed) is one line ``{"source", "error", "page": null}``."""
    with open_atomic(path) as handle:
        for doc in docs:
            # The page's own "source" (ocr / text-layer) becomes "page_source": "source" is the file here.
            records = [{**_page_json(p, n, page_extra), "source": doc.source, "error": doc.error,
                        "page_source": p.source} for n, p in enumerate(doc.pages, 1)]  # fmt: skip
            for record in records or [{"source": doc.source, "error": doc.error, "page": None}]:
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    return Path(path)


def neutralise_cell(value: str) -> str:
    """Prefix ``'`` to a cell that a spreadsheet would read as a formula (OWASP CSV injection).

    Cells beginning with = + - @ tab or carriage return get the apostrophe. Trade-off: text such
    as ``-5.59`` or ``+1 555`` is prefixed too, and then reads as text, not a number, in a
    spreadsheet; we prefix consistently rather than guess what is a harmless number.
    """
    return "'" + value if value.startswith(FORMULA_PREFIXES) else value


def write_csv_lines(docs: Iterable[DocumentResult], path: str | os.PathLike[str]) -> Path:
    """A row per recognised line: source, page, line_no, text, score, x0..y3 (pixels), error.

    A file without pages gets one row with only its source and error.
    """
    with open_atomic(path, CSV_ENCODING, newline="") as handle:
        writer = csv.writer(handle)  # QUOTE_MINIMAL, CRLF rows
        writer.writerow(LINE_COLUMNS)
        for doc in docs:
            source = neutralise_cell(doc.source)
            if not doc.pages:
                empty = [""] * (len(LINE_COLUMNS) - 3)
                writer.writerow([source, *empty, neutralise_cell(doc.error or ""), ""])
            for n, page in enumerate(doc.pages, 1):
                for i, line in enumerate(page.lines, 1):
                    coords = [f"{v:.1f}" for point in line.box for v in point]
                    text = neutralise_cell(line.text)
                    writer.writerow([source, n, i, text, f"{line.score:.4f}", *coords, "", page.orientation])
    return Path(path)


def write_csv_files(
    docs: Iterable[DocumentResult], path: str | os.PathLike[str], joiner: str = " | "
) -> Path:
    """A row per file: source, pages, lines, status (ok/failed), error, all lines joined by ``joiner``."""
    with open_atomic(path, CSV_ENCODING, newline="") as handle:
        writer = csv.writer(handle)  # QUOTE_MINIMAL, CRLF rows
        writer.writerow(FILE_COLUMNS)
        for doc in docs:
            texts = [line.text for page in doc.pages for line in page.lines]
            status = "failed" if doc.error else "ok"
            angles = ";".join(str(page.orientation) for page in doc.pages)  # degrees clockwise to upright
            row = [doc.source, len(doc.pages), len(texts), status, doc.error or "", joiner.join(texts)]
            row.append(angles)
            writer.writerow([neutralise_cell(v) if isinstance(v, str) else v for v in row])
    return Path(path)


PageImages = Callable[[str], Iterable[Image.Image]]


def _unique(path: Path, used: set[Path]) -> Path:
    candidate, n = path, 1
    while candidate in used:
        n += 1
        candidate = path.with_name(f"{path.stem}_{n}{path.suffix}")
    used.add(candidate)
    return candidate


def export(
    docs: Sequence[DocumentResult],
    out_dir: str | os.PathLike[str],
    formats: Iterable[str],
    stem: str = "results",
    page_images: PageImages | None = None,
    page_extra: PageExtra | None = None,
    pdf_names: Callable[[DocumentResult], str] | None = None,
) -> list[Path]:
    """Write ``docs`` in each of ``formats`` (txt, json, jsonl, csv, pdf) under ``out_dir``.

    txt/json/jsonl: ``<stem>.<ext>``; csv: ``<stem>_lines.csv`` and ``<stem>_files.csv``; pdf: one
    searchable PDF per file with pages, ``pdf/<source stem>.pdf`` (``_2``... when stems repeat),
    made from ``page_images(source)`` (the page images, in order; a count that differs from the
    result's pages raises ValueError); skipped when ``page_images`` is None. ``page_extra(page)``
    adds keys to each page of the JSON and JSON Lines exports. ``pdf_names(doc)`` names a file's PDF
    under ``pdf/`` instead (``2026/March/receipt``: ``export_layout.Namer``). Returns the paths written.
    """
    wanted = list(dict.fromkeys(f.lower() for f in formats))
    unknown = sorted(set(wanted) - set(FORMATS))
    if unknown:
        raise ValueError(f"unknown export format(s) {unknown}; choose from {list(FORMATS)}")
    out = Path(out_dir)
    written: list[Path] = []
    for fmt in wanted:
        if fmt == "txt":
            written.append(write_txt(docs, out / f"{stem}.txt"))
        elif fmt == "json":
            written.append(write_json(docs, out / f"{stem}.json", page_extra))
        elif fmt == "jsonl":
            written.append(write_jsonl(docs, out / f"{stem}.jsonl", page_extra))
        elif fmt == "csv":
            written.append(write_csv_lines(docs, out / f"{stem}_lines.csv"))
            written.append(write_csv_files(docs, out / f"{stem}_files.csv"))
        elif fmt == "pdf" and page_images is not None:

            used: set[Path] = set()
            for doc in docs:
                if doc.pages:
                    name = pdf_names(doc) if pdf_names else Path(doc.source).stem
                    target = _unique(out / "pdf" / f"{name}.pdf", used)
                    pairs = list(zip(page_images(doc.source), doc.pages, strict=True))
                    written.append(write_searchable_pdf(pairs, target))
    return written
