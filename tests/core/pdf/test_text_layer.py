"""PDF pages with a real text layer are read from it, exact; image-only and junk-layer pages are OCR'd.

The PDFs are generated here with reportlab (Latin text in Helvetica, Chinese in the CID font
STSong-Light, scanned-looking pages as embedded images, an invisible junk "OCR" layer over an image).
The OCR'd pages go through the real embedded Triton server via ``scanner-app scan``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import jsonschema
import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas

from scanner_app.core.images import iter_pages
from scanner_app.core.results import PageResult
from scanner_app.core.schema import PAGE_SCHEMA
from scanner_app.server.embedded import EmbeddedServer

PAGE = (300.0, 420.0)  # points
LATIN = [
    (20, 380, "KEDAI RUNCIT MAJU (SETIA ALAM) SDN BHD"),
    (20, 362, "NO 12, JALAN SETIA 3/4, 40170 SHAH ALAM"),
    (20, 330, "Invoice No: INV-2018/0042"),
    (20, 312, "Date: 25/12/2018"),
]
TOTAL = ((20, 280, "TOTAL"), (230, 280, "RM 19.90"))  # one row, far apart: two lines as OCR reads them
CJK = (20, 240, "发票号码 12345678 合计")


def _scanned_image(text: str) -> Image.Image:
    image = Image.new("RGB", (600, 840), "white")
    ImageDraw.Draw(image).text((40, 60), text, fill="black", font=ImageFont.load_default(size=44))
    return image


def _text_page(c: canvas.Canvas) -> None:
    c.setFont("Helvetica", 11)
    for x, y, text in (*LATIN, *TOTAL):
        c.drawString(x, y, text)
    c.setFont("STSong-Light", 13)
    c.drawString(*CJK)
    c.showPage()


def _image_page(c: canvas.Canvas, text: str) -> None:
    c.drawImage(ImageReader(_scanned_image(text)), 0, 0, *PAGE)
    c.showPage()


def _junk_ocr_page(c: canvas.Canvas, text: str, hidden: list[str]) -> None:
    """A scanned image with an earlier OCR's text drawn invisibly over it (render mode 3)."""
    c.drawImage(ImageReader(_scanned_image(text)), 0, 0, *PAGE)
    layer = c.beginText(20, 380)
    layer.setTextRenderMode(3)
    layer.setFont("Helvetica", 11)
    for line in hidden:
        layer.textLine(line)
    c.drawText(layer)
    c.showPage()


def _junk_lines(seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [
        " ".join("".join(rng.choice("qxzjkQXZJK#@%^~|") for _ in range(9)) for _ in range(3))
        for _ in range(6)
    ]


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    root = tmp_path_factory.mktemp("pdfs")
    paths = {name: root / f"{name}.pdf" for name in ("text", "image", "junk", "hidden_good", "mixed")}
    c = canvas.Canvas(str(paths["text"]), pagesize=PAGE)
    _text_page(c)
    c.save()
    c = canvas.Canvas(str(paths["image"]), pagesize=PAGE)
    _image_page(c, "SCANNED 42")
    c.save()
    c = canvas.Canvas(str(paths["junk"]), pagesize=PAGE)
    _junk_ocr_page(c, "SCANNED 42", _junk_lines())
    c.save()
    c = canvas.Canvas(str(paths["hidden_good"]), pagesize=PAGE)
    _junk_ocr_page(c, "SCANNED 42", ["Payment received, thank you", "Total 42.00"])
    c.save()
    c = canvas.Canvas(str(paths["mixed"]), pagesize=PAGE)
    _text_page(c)
    _image_page(c, "SCANNED 42")
    _junk_ocr_page(c, "RECEIPT 77", _junk_lines(3))
    c.save()
    return paths


def _only_page(path: Path):
    pages = list(iter_pages(path, text_layer=True))
    assert len(pages) == 1
    return pages[0]


def test_text_layer_lines_are_exact_in_reading_order(pdfs: dict[str, Path]) -> None:
    layer = _only_page(pdfs["text"]).text_layer
    assert layer is not None and layer.usable and not layer.invisible, layer
    expected = [text for _, _, text in LATIN] + [text for _, _, text in TOTAL] + [CJK[2]]
    assert [line.text for line in layer.lines] == expected
    assert all(line.score == 1.0 for line in layer.lines)


def test_text_layer_boxes_land_on_the_rendered_glyphs(pdfs: dict[str, Path]) -> None:
    page = _only_page(pdfs["text"])
    assert page.text_layer is not None
    ink = np.asarray(page.image.convert("L")) < 128
    assert ink.sum() > 1000
    covered = np.zeros_like(ink)
    scale = page.image.width / PAGE[0]
    for line, (x, y, _) in zip(page.text_layer.lines, (*LATIN, *TOTAL, CJK), strict=True):
        (left, top), _, (right, bottom), _ = line.box
        # The line starts where it was drawn and sits on its baseline (page pixels, y down).
        assert left == pytest.approx(x * scale, abs=3)
        assert top < (PAGE[1] - y) * scale < bottom
        box_ink = ink[int(top) : int(bottom) + 1, int(left) : int(right) + 1]
        assert box_ink.sum() > 0.05 * box_ink.size  # glyphs inside, not empty paper
        covered[max(0, int(top) - 2) : int(bottom) + 3, max(0, int(left) - 2) : int(right) + 3] = True
    assert (ink & ~covered).sum() <= 0.01 * ink.sum()  # every glyph is inside some line's box


def test_rotated_page_lines_read_upright(pdfs: dict[str, Path], tmp_path: Path) -> None:
    rotated = tmp_path / "rotated.pdf"
    doc = pdfium.PdfDocument(pdfs["text"])
    doc[0].set_rotation(90)  # a landscape /Rotate: rendered sideways
    doc.save(rotated)
    doc.close()
    page = _only_page(rotated)
    layer = page.text_layer
    assert layer is not None and layer.usable and layer.orientation == 270
    assert [line.text for line in layer.lines][:2] == [LATIN[0][2], LATIN[1][2]]
    result = PageResult(
        "r.pdf", page.image.width, page.image.height, layer.lines, orientation=layer.orientation
    )
    assert result.upright_size == (page.image.height, page.image.width)  # portrait again
    ink = np.asarray(page.image.convert("L")) < 128
    covered = np.zeros_like(ink)
    for line in layer.lines:
        xs, ys = [x for x, _ in line.box], [y for _, y in line.box]
        covered[int(min(ys)) - 2 : int(max(ys)) + 3, int(min(xs)) - 2 : int(max(xs)) + 3] = True
    assert (ink & ~covered).sum() <= 0.01 * ink.sum()
    (left, top), *_ = result.upright_lines()[0].box
    scale = page.image.height / PAGE[0]
    assert left == pytest.approx(LATIN[0][0] * scale, abs=3)  # upright, it starts where it was drawn
    assert top < (PAGE[1] - LATIN[0][1]) * scale


def test_image_only_page_has_no_text_layer(pdfs: dict[str, Path]) -> None:
    assert _only_page(pdfs["image"]).text_layer is None


def test_invisible_junk_ocr_layer_is_rejected(pdfs: dict[str, Path]) -> None:
    layer = _only_page(pdfs["junk"]).text_layer
    assert layer is not None and layer.invisible
    assert not layer.usable and "look like words" in layer.reason


def test_plausible_invisible_ocr_layer_is_kept(pdfs: dict[str, Path]) -> None:
    layer = _only_page(pdfs["hidden_good"]).text_layer
    assert layer is not None and layer.invisible and layer.usable, layer
    assert [line.text for line in layer.lines] == ["Payment received, thank you", "Total 42.00"]


def _raw_pdf(content: bytes, font: bytes) -> bytes:
    """A one-page PDF written by hand (reportlab always maps its glyphs to Unicode)."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 5 0 R >> >>"
        b" /Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        font,
    ]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def test_glyphs_without_unicode_are_a_junk_layer(tmp_path: Path) -> None:
    # A font whose encoding names glyphs /g0../g39: no Unicode for any of them (a garbage encoding).
    names = b" ".join(b"/g%d" % i for i in range(40))
    font = (
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Differences [65 "
        + names
        + b"] >> >>"
    )
    path = tmp_path / "garbage.pdf"
    path.write_bytes(_raw_pdf(b"BT /F1 14 Tf 20 150 Td (ABCDEFG HIJKLM) Tj ET", font))
    layer = _only_page(path).text_layer
    assert layer is not None and not layer.usable
    assert "13 of 13 characters are unmapped" in layer.reason


def test_layer_not_read_unless_asked(pdfs: dict[str, Path]) -> None:
    assert next(iter(iter_pages(pdfs["text"]))).text_layer is None


def _scan(triton: EmbeddedServer, pdf: Path, out: Path, *extra: str) -> list[dict]:
    command = [sys.executable, "-m", "scanner_app.cli", "scan", str(pdf), "--server", triton.grpc_url]
    result = subprocess.run([*command, "--json", str(out), "--quiet", *extra], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return [json.loads((out / f"{pdf.stem}_p{i}.json").read_text()) for i in (1, 2, 3)]


def test_mixed_document_through_the_server(
    triton: EmbeddedServer, pdfs: dict[str, Path], tmp_path: Path
) -> None:
    text, image, junk = _scan(triton, pdfs["mixed"], tmp_path / "default")
    assert [p["source"] for p in (text, image, junk)] == ["text-layer", "ocr", "ocr"]
    for page in (text, image, junk):
        jsonschema.validate(page, PAGE_SCHEMA)
    assert [line["text"] for line in text["lines"]][:2] == [LATIN[0][2], LATIN[1][2]]
    assert CJK[2] in [line["text"] for line in text["lines"]]
    assert "42" in " ".join(line["text"] for line in image["lines"])
    assert "77" in " ".join(line["text"] for line in junk["lines"])  # the pixels, not the hidden junk
    assert (text["width"], text["height"]) == (image["width"], image["height"])

    forced = _scan(triton, pdfs["mixed"], tmp_path / "forced", "--force-ocr")
    assert [p["source"] for p in forced] == ["ocr", "ocr", "ocr"]
    ocr_text = " ".join(line["text"] for line in forced[0]["lines"]).upper()
    assert "TOTAL" in ocr_text and "SDN BHD" in ocr_text
