"""The rendered test documents: deterministic, consistent, and laid out so each item reads on its own."""

from __future__ import annotations

import io
import itertools
import json
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from scanner_app.samples import documents as samples
from scanner_app.samples.documents import RenderedDoc
from tests.helpers.paths import REPO

INVOICE_SEEDS = range(12)


def _overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _check_layout(doc: RenderedDoc, min_gap_x: float = 0) -> None:
    width, height = doc.image.size
    assert doc.lines
    for line in doc.lines:
        x0, y0, x1, y1 = line.box
        assert 0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height, line
        assert len(line.text) >= 3 and line.text == line.text.strip() and "  " not in line.text, line
        assert line.text.isascii() and "|" not in line.text, line
        assert not {"l", "I", "|"} & set(line.text.split()), line
    for a, b in itertools.combinations(doc.lines, 2):
        assert not _overlaps(a.box, b.box), (a, b)
        if a.box[1] < b.box[3] and b.box[1] < a.box[3]:  # same row: columns well apart
            assert max(a.box[0], b.box[0]) - min(a.box[2], b.box[2]) >= min_gap_x, (a, b)


def _rows(doc: RenderedDoc) -> list[list[str]]:
    """Texts grouped by row (vertically overlapping boxes), each row left to right."""
    rows: list[list[samples.RenderedLine]] = []
    for line in sorted(doc.lines, key=lambda ln: (ln.box[1], ln.box[0])):
        if rows and line.box[1] < rows[-1][0].box[3]:
            rows[-1].append(line)
        else:
            rows.append([line])
    return [[ln.text for ln in sorted(row, key=lambda ln: ln.box[0])] for row in rows]


def _num(text: str) -> Decimal:
    return Decimal(text.replace(",", ""))


def _same(a: RenderedDoc, b: RenderedDoc) -> bool:
    return a.lines == b.lines and np.array_equal(np.asarray(a.image), np.asarray(b.image))


def test_find_font() -> None:
    assert samples.find_font().name == "DejaVuSans.ttf"
    assert samples.find_font(bold=True).name == "DejaVuSans-Bold.ttf"


def test_find_font_missing_says_how_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(samples, "FONT_DIR", tmp_path)
    with pytest.raises(FileNotFoundError, match="apt-get install -y fonts-dejavu-core"):
        samples.find_font()


def test_renderers_are_deterministic() -> None:
    assert _same(samples.render_invoice(3), samples.render_invoice(3))
    assert samples.render_invoice(3).texts != samples.render_invoice(4).texts
    assert _same(samples.render_dense_page(40, seed=2), samples.render_dense_page(40, seed=2))
    assert _same(samples.render_text_lines(["abc", "def"], 1), samples.render_text_lines(["abc", "def"], 1))
    for a, b in zip(samples.distinct_receipts(3, 5), samples.distinct_receipts(3, 5), strict=True):
        assert _same(a, b)


@pytest.mark.parametrize("seed", INVOICE_SEEDS)
def test_invoice_layout(seed: int) -> None:
    doc = samples.render_invoice(seed)
    assert doc.image.size == (1240, 1754) and doc.image.mode == "RGB"
    _check_layout(doc, min_gap_x=60)
    body = [ln for ln in doc.lines if ln.text[0].isdigit()]  # table cells and address lines
    assert all(16 <= ln.box[3] - ln.box[1] <= 32 for ln in body)  # ~22-24 px glyphs at 1240 px
    tops = sorted({ln.box[1] for ln in doc.lines})
    assert min(b - a for a, b in itertools.pairwise(tops) if b - a > 3) >= 36  # >= 1.6 x 22 px


@pytest.mark.parametrize("seed", INVOICE_SEEDS)
def test_invoice_totals_add_up(seed: int) -> None:
    rows = _rows(samples.render_invoice(seed))
    assert rows[0][1] == "INVOICE"
    assert any(re.fullmatch(r"Invoice No: INV-20\d\d-\d{5}", t) for row in rows for t in row)
    start = rows.index(["Description", "Qty", "Unit Price", "Amount"]) + 1
    end = next(i for i, row in enumerate(rows) if row[0] == "Subtotal")
    assert 6 <= end - start <= 10
    subtotal = Decimal(0)
    for desc, qty, price, amount in rows[start:end]:
        assert re.fullmatch(r"\d+ [a-z]{3,4}", qty), qty
        assert _num(amount) == int(qty.split()[0]) * _num(price), (desc, qty, price, amount)
        subtotal += _num(amount)
    (_, sub), (tax_label, tax), (total_label, total) = rows[end : end + 3]
    assert _num(sub) == subtotal
    assert tax_label == "Tax 8%"
    assert _num(tax) == (subtotal * Decimal("0.08")).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    assert re.fullmatch(r"Total (USD|CAD|GBP)", total_label)
    assert any(t == f"Currency: {total_label.split()[1]}" for row in rows for t in row)
    assert _num(total) == subtotal + _num(tax)
    assert rows[-1] == ["Thank you for your business."]


def test_invoice_scales_with_width() -> None:
    doc = samples.render_invoice(0, width=2480)
    assert doc.image.size == (2480, round(2480 * 297 / 210))
    assert doc.texts == samples.render_invoice(0).texts
    _check_layout(doc, min_gap_x=120)


@pytest.mark.parametrize("n_lines", [1, 40, 250, 600])
def test_dense_page(n_lines: int) -> None:
    doc = samples.render_dense_page(n_lines, seed=1)
    assert len(doc.lines) == n_lines == len(set(doc.texts))
    assert max(doc.image.size) <= 4000
    assert all(re.fullmatch(r"Line \d{3} ITEM [A-Z0-9]{4} \d+\.\d\d", t) for t in doc.texts)
    _check_layout(doc, min_gap_x=60)
    for a, b in itertools.pairwise(doc.lines):
        if a.box[0] == b.box[0]:  # same column
            assert b.box[1] - a.box[3] >= 10


def test_dense_page_default_is_250_lines() -> None:
    doc = samples.render_dense_page()
    assert len(doc.lines) == 250 and max(doc.image.size) <= 4000


def test_dense_page_too_many_lines() -> None:
    with pytest.raises(ValueError):
        samples.render_dense_page(5000)


def test_text_lines() -> None:
    lines = ['=HYPERLINK("http://x","y")', "Hello world 123", "", "Last line here"]
    doc = samples.render_text_lines(lines)
    assert doc.texts == [t for t in lines if t]
    _check_layout(doc)
    with pytest.raises(ValueError):
        samples.render_text_lines(["two\nlines"])


def test_blank() -> None:
    image = samples.render_blank(320, 200)
    assert image.size == (320, 200) and image.mode == "RGB"
    assert np.asarray(image).min() >= 240


@pytest.mark.parametrize("fmt", ["PNG", "JPEG"])
def test_encode_round_trip(fmt: str) -> None:
    image = samples.render_text_lines(["Encode me 42"]).image
    data = samples.encode(image, fmt)
    assert data[:4] == (b"\x89PNG" if fmt == "PNG" else b"\xff\xd8\xff\xe0")
    decoded = Image.open(io.BytesIO(data))
    assert decoded.format == fmt and decoded.size == image.size
    if fmt == "PNG":
        assert np.array_equal(np.asarray(decoded.convert("RGB")), np.asarray(image))
    with pytest.raises(ValueError):
        samples.encode(image, "GIF")


def test_distinct_receipts() -> None:
    docs = samples.distinct_receipts(30, seed=0)
    assert len(docs) == 30
    assert len({doc.lines[0].text for doc in docs}) == 30  # vendor names
    seen: set[str] = set()
    for doc in docs:
        _check_layout(doc, min_gap_x=60)
        tokens = {t for text in doc.texts for t in text.split() if any(c.isdigit() for c in t)}
        assert len(tokens) >= 5 and not tokens & seen
        seen |= tokens
        rows = _rows(doc)
        prices = [_num(row[1]) for row in rows if len(row) == 2 and row[0] != "Total"]
        assert [row[1] for row in rows if row[0] == "Total"] == [f"{sum(prices):,.2f}"]


def test_committed_demo_invoice_matches_renderer() -> None:
    """resources/samples/ holds render_invoice(0); rerun resources/make_samples.py if this fails."""
    truth = json.loads((REPO / "resources/samples/invoice.json").read_text())
    doc = samples.render_invoice(0)
    assert (truth["width"], truth["height"]) == doc.image.size
    assert [ln["text"] for ln in truth["lines"]] == doc.texts
    for ln, line in zip(truth["lines"], doc.lines, strict=True):
        assert np.allclose(ln["box"], line.box, atol=3)  # tolerate FreeType version differences
    with Image.open(REPO / "resources/samples/invoice.png") as png:
        assert png.size == doc.image.size
        assert np.abs(np.asarray(png.convert("L"), int) - np.asarray(doc.image.convert("L"), int)).mean() < 2
    assert (REPO / "resources/samples/invoice.png").stat().st_size < 300_000
