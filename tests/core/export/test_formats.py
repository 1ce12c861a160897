"""Exports (txt, json, jsonl, csv, searchable PDF) on hand-built results; no server needed."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from scanner_app.core.export.formats import (
    DocumentResult,
    export,
    layout_text,
    neutralise_cell,
    write_csv_files,
    write_csv_lines,
    write_json,
    write_jsonl,
    write_txt,
)
from scanner_app.core.pdf.export import DPI, write_searchable_pdf
from scanner_app.core.results import PageResult, TextLine
from scanner_app.samples.documents import render_text_lines

PDF_LINES = ["Invoice INV-2024-00017", "Café crème 3.50 EUR", "发票号码 12345", "Total amount due 1,234.56"]
FORMULA = '=HYPERLINK("http://x","y")'


def quad(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def line(text: str, x0: float, y0: float, x1: float, y1: float, score: float = 0.9) -> TextLine:
    return TextLine(quad(x0, y0, x1, y1), text, score)


def page(*lines: TextLine, name: str = "a.png") -> PageResult:
    return PageResult(name, 800, 600, tuple(lines), elapsed_ms=12.5)


@pytest.fixture
def docs() -> list[DocumentResult]:
    first = page(
        line("Item", 100, 100, 180, 130), line("9.99", 600, 102, 660, 132), line(FORMULA, 100, 150, 500, 180)
    )
    cells = ["+1 555", "-5.59", "@sum", "\tx", "\ry"]
    second = page(*(line(t, 100, 50 + 40 * i, 300, 80 + 40 * i, 0.5) for i, t in enumerate(cells)))
    return [
        DocumentResult("scans/one.png", (first,)),
        DocumentResult("scans/two.pdf", (page(line("Page one", 10, 10, 200, 40)), second)),
        DocumentResult("scans/broken.jpg", (), error="unreadable file: truncated JPEG"),
    ]


def test_layout_text_keeps_rows_columns_and_gaps() -> None:
    result = page(
        line("Item", 100, 100, 180, 130),
        line("9.99", 600, 104, 660, 134),
        line("Tax", 100, 150, 160, 180),
        line("0.80", 600, 150, 660, 180),
        line("Thank you", 100, 400, 280, 430),
    )
    rows = layout_text(result).split("\n")
    assert [r.split() for r in rows] == [["Item", "9.99"], ["Tax", "0.80"], [], ["Thank", "you"]]
    assert rows[0].index("9.99") == rows[1].index("0.80") > len("Item") + 10  # columns line up
    assert layout_text(page()) == ""


def test_txt(docs: list[DocumentResult], tmp_path: Path) -> None:
    text = write_txt(docs, tmp_path / "out.txt").read_text("utf-8")
    assert "=== scans/one.png ===\nItem" in text
    assert "--- page 2 ---" in text and "=== scans/broken.jpg ===\n[error] unreadable file" in text
    assert not list(tmp_path.glob(".*.tmp"))  # atomic write left no temporary file


def test_json_round_trip(docs: list[DocumentResult], tmp_path: Path) -> None:
    data = json.loads(write_json(docs, tmp_path / "out.json").read_text("utf-8"))
    files = data["files"]
    assert [f["source"] for f in files] == [d.source for d in docs]
    assert [p["page"] for p in files[1]["pages"]] == [1, 2]
    assert PageResult.from_json(files[0]["pages"][0]) == docs[0].pages[0]
    assert files[2] == {"source": "scans/broken.jpg", "error": docs[2].error, "pages": []}


def test_jsonl(docs: list[DocumentResult], tmp_path: Path) -> None:
    records = [json.loads(r) for r in write_jsonl(docs, tmp_path / "o.jsonl").read_text("utf-8").splitlines()]
    assert [(r["source"], r["page"]) for r in records] == [
        ("scans/one.png", 1), ("scans/two.pdf", 1), ("scans/two.pdf", 2), ("scans/broken.jpg", None)
    ]  # fmt: skip
    assert PageResult.from_json(records[2]) == docs[1].pages[1]
    assert records[3]["error"] == docs[2].error


@pytest.mark.parametrize(
    ("cell", "expected"),
    [(FORMULA, "'" + FORMULA), ("+1", "'+1"), ("-5.59", "'-5.59"), ("@x", "'@x"), ("\tx", "'\tx"),
     ("\rx", "'\rx"), ("Total =5", "Total =5"), ("", ""), ("'quoted", "'quoted")],
)  # fmt: skip
def test_neutralise_cell(cell: str, expected: str) -> None:
    assert neutralise_cell(cell) == expected


def read_csv(path: Path) -> list[dict[str, str]]:
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")  # the BOM Excel needs
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def test_csv_lines(docs: list[DocumentResult], tmp_path: Path) -> None:
    rows = read_csv(write_csv_lines(docs, tmp_path / "lines.csv"))
    assert len(rows) == 3 + 1 + 5 + 1
    assert rows[0]["text"] == "Item" and rows[0]["page"] == "1" and rows[0]["line_no"] == "1"
    assert [rows[0][k] for k in ("x0", "y0", "x2", "y2", "score")] == [
        "100.0",
        "100.0",
        "180.0",
        "130.0",
        "0.9000",
    ]
    assert rows[2]["text"] == "'" + FORMULA
    assert [r["text"] for r in rows[4:9]] == ["'+1 555", "'-5.59", "'@sum", "'\tx", "'\ry"]
    assert rows[4]["page"] == "2" and rows[8]["line_no"] == "5"
    assert rows[9]["source"] == "scans/broken.jpg" and rows[9]["error"] == docs[2].error
    assert rows[9]["text"] == rows[9]["page"] == ""


def test_csv_files(docs: list[DocumentResult], tmp_path: Path) -> None:
    rows = read_csv(write_csv_files(docs, tmp_path / "files.csv"))
    assert [(r["source"], r["pages"], r["lines"], r["status"]) for r in rows] == [
        ("scans/one.png", "1", "3", "ok"),
        ("scans/two.pdf", "2", "6", "ok"),
        ("scans/broken.jpg", "0", "0", "failed"),
    ]
    assert rows[0]["text"] == f"Item | 9.99 | {FORMULA}" and rows[0]["error"] == ""
    assert rows[1]["text"].startswith("Page one | +1 555")  # not at the cell's start: left alone
    assert rows[2]["error"] == docs[2].error


def page_of(doc_lines: list[str], seed: int = 0) -> tuple[Image.Image, PageResult]:
    rendered = render_text_lines(doc_lines, seed=seed)
    lines = tuple(TextLine(quad(*rl.box), rl.text, 0.9) for rl in rendered.lines)
    return rendered.image, PageResult("p.png", *rendered.image.size, lines)


@pytest.fixture(scope="module")
def pdf_pages() -> list[tuple[Image.Image, PageResult]]:
    image, result = page_of(PDF_LINES)
    # A line slanted 10 degrees up to the right, turned about its bottom-left corner (560, 330).
    cos, sin = math.cos(math.radians(-10)), math.sin(math.radians(-10))
    slanted = [(560 + dx * cos - dy * sin, 330 + dx * sin + dy * cos) for dx, dy in quad(0, -30, 220, 0)]
    result = PageResult(
        result.image,
        result.width,
        result.height,
        (*result.lines, TextLine(tuple(slanted), "slanted words", 0.8)),
    )
    return [(image, result), page_of(["Second page", "Thank you"], seed=1)]


def to_pixels(rect: tuple[float, float, float, float], page_height: float) -> tuple[float, ...]:
    left, bottom, right, top = rect
    k = DPI / 72
    return left * k, (page_height - top) * k, right * k, (page_height - bottom) * k


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Intersection area over the area of ``a``."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(w, 0) * max(h, 0) / ((a[2] - a[0]) * (a[3] - a[1]))


def test_searchable_pdf(pdf_pages: list[tuple[Image.Image, PageResult]], tmp_path: Path) -> None:
    path = write_searchable_pdf(pdf_pages, tmp_path / "doc.pdf")
    assert b"/DCTDecode" in path.read_bytes()  # JPEG inside
    pdf = pdfium.PdfDocument(path)
    assert len(pdf) == 2
    for (image, result), pdf_page in zip(pdf_pages, pdf, strict=True):
        assert pdf_page.get_size() == pytest.approx(
            (image.width * 72 / DPI, image.height * 72 / DPI), abs=0.01
        )
        textpage = pdf_page.get_textpage()
        assert textpage.get_text_range().split() == " ".join(ln.text for ln in result.lines).split()
        # The text layer is invisible: the rendered page is the image, give or take JPEG noise.
        rendered = np.asarray(pdf_page.render(scale=DPI / 72).to_pil().convert("RGB"), dtype=float)
        assert rendered.shape[:2] == (image.height, image.width)
        assert np.abs(rendered - np.asarray(image, dtype=float)).mean() < 3
    # Stricter: on blank images the whole text layer paints not one pixel.
    blank = [(Image.new("RGB", image.size, "white"), result) for image, result in pdf_pages]
    for pdf_page in pdfium.PdfDocument(write_searchable_pdf(blank, tmp_path / "blank.pdf")):
        assert np.asarray(pdf_page.render(scale=DPI / 72).to_pil().convert("L")).min() == 255
        assert pdf_page.get_textpage().get_text_range().strip()  # yet the text is there

    first, height = pdf[0].get_textpage(), pdf[0].get_size()[1]
    for word, index in (("amount", 3), ("crème", 1), ("发票", 2), ("Total", 3), ("slanted", 4)):
        found = first.search(word).get_next()
        assert found is not None, word
        assert first.count_rects(*found) == 1
        rect = to_pixels(first.get_rect(0), height)
        xs, ys = zip(*pdf_pages[0][1].lines[index].box, strict=True)
        assert overlap(rect, (min(xs), min(ys), max(xs), max(ys))) > 0.6, (word, rect)
        if word == "Total":  # it starts the line: so does its highlight
            assert rect[0] == pytest.approx(min(xs), abs=3)


def test_pdf_characters_no_font_has(tmp_path: Path) -> None:
    """Glyphless characters still extract exactly; those above U+FFFF become U+FFFD."""
    image, result = page_of(["placeholder"])
    text = "Ünïcödé 合计 ☃ Ж 𠀋 end"
    result = PageResult("p.png", result.width, result.height, (TextLine(result.lines[0].box, text, 0.9),))
    textpage = pdfium.PdfDocument(write_searchable_pdf([(image, result)], tmp_path / "u.pdf"))[
        0
    ].get_textpage()
    assert textpage.get_text_range() == text.replace("𠀋", "\ufffd")


def test_export_all_formats(docs: list[DocumentResult], tmp_path: Path) -> None:
    image, result = page_of(["Hello export"])
    pdf_docs = [*docs, DocumentResult("other/one.png", (result,))]
    calls: list[str] = []

    def page_images(source: str) -> list[Image.Image]:
        calls.append(source)
        return [image] * len(next(d for d in pdf_docs if d.source == source).pages)

    written = export(
        pdf_docs, tmp_path / "out", ["txt", "json", "jsonl", "csv", "pdf"], page_images=page_images
    )
    names = [p.relative_to(tmp_path / "out").as_posix() for p in written]
    assert names == ["results.txt", "results.json", "results.jsonl", "results_lines.csv", "results_files.csv",
                     "pdf/one.pdf", "pdf/two.pdf", "pdf/one_2.pdf"]  # fmt: skip
    assert calls == ["scans/one.png", "scans/two.pdf", "other/one.png"]  # never the failed file
    assert "Hello export" in pdfium.PdfDocument(written[-1])[0].get_textpage().get_text_range()
    assert export(docs, tmp_path / "x", ["pdf", "json"], stem="s") == [tmp_path / "x" / "s.json"]
    with pytest.raises(ValueError, match="docx"):
        export(docs, tmp_path, ["docx"])
