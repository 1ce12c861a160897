"""Exports of a page the server read turned: the angle is carried, text and PDF come out upright."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from scanner_app.core.export.formats import (
    DocumentResult,
    layout_text,
    write_csv_files,
    write_csv_lines,
    write_json,
)
from scanner_app.core.pdf.export import DPI, write_searchable_pdf
from scanner_app.core.results import PageResult, TextLine
from scanner_app.samples.documents import render_text_lines

TEXTS = ["First line on top", "Second line below", "Third line at the end"]


def _upright_page() -> tuple[Image.Image, PageResult]:
    doc = render_text_lines(TEXTS)
    lines = tuple(
        TextLine(((x0, y0), (x1, y0), (x1, y1), (x0, y1)), line.text, 0.99)
        for line in doc.lines
        for x0, y0, x1, y1 in [line.box]
    )
    return doc.image, PageResult("upright.png", doc.image.width, doc.image.height, lines)


@pytest.fixture(params=[90, 180, 270])
def turned(request: pytest.FixtureRequest) -> tuple[Image.Image, PageResult, int]:
    """The page turned counter-clockwise in pixels, as the server reports it (boxes as sent)."""
    angle = request.param
    image, page = _upright_page()
    sent = image.rotate(angle, expand=True)
    w, h = image.width, image.height  # upright size

    def to_sent(x: float, y: float) -> tuple[float, float]:
        return {90: (y, w - x), 180: (w - x, h - y), 270: (h - y, x)}[angle]

    lines = tuple(TextLine(tuple(to_sent(x, y) for x, y in ln.box), ln.text, ln.score) for ln in page.lines)
    return sent, PageResult("turned.png", sent.width, sent.height, lines, orientation=angle), angle


def test_upright_boxes_undo_the_turn(turned: tuple[Image.Image, PageResult, int]) -> None:
    _, page = _upright_page()
    _, result, _ = turned
    for back, original in zip(result.upright_lines(), page.lines, strict=True):
        assert np.allclose(np.array(back.box), np.array(original.box), atol=1e-3)
    assert result.upright_size == (page.width, page.height)


def test_text_layout_and_exports_carry_the_angle(
    turned: tuple[Image.Image, PageResult, int], tmp_path: Path
) -> None:
    _, result, angle = turned
    _, upright = _upright_page()
    assert layout_text(result) == layout_text(upright)  # rows as on the upright page
    assert [row.strip() for row in layout_text(result).split("\n") if row] == TEXTS
    docs = [DocumentResult("turned.png", (result,))]
    data = json.loads(write_json(docs, tmp_path / "r.json").read_text(encoding="utf-8"))
    page_json = data[0]["pages"][0] if isinstance(data, list) and "pages" in data[0] else data
    assert f'"orientation": {angle}' in json.dumps(page_json)
    assert PageResult.from_json(result.to_json()).orientation == angle
    with open(write_csv_lines(docs, tmp_path / "l.csv"), encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert {row["orientation"] for row in rows} == {str(angle)}
    with open(write_csv_files(docs, tmp_path / "f.csv"), encoding="utf-8-sig", newline="") as f:
        assert next(csv.DictReader(f))["orientation"] == str(angle)


def test_searchable_pdf_page_is_upright(turned: tuple[Image.Image, PageResult, int], tmp_path: Path) -> None:
    upright_image, _ = _upright_page()
    sent, result, _ = turned
    pdf = pdfium.PdfDocument(write_searchable_pdf([(sent, result)], tmp_path / "t.pdf"))
    page = pdf[0]
    assert page.get_size() == pytest.approx(
        (upright_image.width * 72 / DPI, upright_image.height * 72 / DPI), abs=0.01
    )
    assert page.get_textpage().get_text_range().split() == " ".join(TEXTS).split()
    rendered = np.asarray(page.render(scale=DPI / 72).to_pil().convert("RGB"), dtype=float)
    assert np.abs(rendered - np.asarray(upright_image, dtype=float)).mean() < 3
