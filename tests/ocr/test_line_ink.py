"""Notes in another ink (a clerk's pen on a receipt) are kept apart from the page's print.

The pure tests draw pages with cv2 (print in black or a tint, notes in a pen's blue or red); the
server tests send a rendered invoice with a pen note written on it to the real embedded server and
read the same page through the in-process engine with the check off.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from scanner_app.baseline.engine import build_engine
from scanner_app.core.client.triton import OcrClient
from scanner_app.core.fields.extract import extract_fields
from scanner_app.core.results import MARK_DOCUMENT, PageResult, TextLine, page_from_owned
from scanner_app.ocr.documents import MARK, DocumentParams
from scanner_app.ocr.line_ink import InkParams, foreign_ink
from scanner_app.samples.documents import encode, render_invoice
from scanner_app.server.embedded import EmbeddedServer

BLACK, TINT, BLUE_PEN, RED_PEN = (20, 20, 20), (120, 60, 40), (170, 60, 20), (40, 30, 200)  # BGR
BROWN_FORM = (20, 60, 128)  # a fapiao's printed labels


def _page(inks: list[tuple[int, int, int]], thickness: int = 2) -> tuple[np.ndarray, list[np.ndarray]]:
    """A white page with one printed row per ink, and each row's box."""
    page = np.full((60 + 50 * len(inks), 640, 3), 250, np.uint8)
    boxes = []
    for row, ink in enumerate(inks):
        y = 60 + 50 * row
        cv2.putText(
            page, f"ROW {row} TOTAL 12.{row}0", (20, y), cv2.FONT_HERSHEY_SIMPLEX, 1.0, ink, thickness
        )
        boxes.append(np.array([[15, y - 30], [420, y - 30], [420, y + 8], [15, y + 8]], np.float32))
    return page, boxes


def test_a_line_in_a_pens_colour_on_a_printed_page_is_a_note() -> None:
    page, boxes = _page([BLACK, BLACK, BLUE_PEN, BLACK, BLACK, RED_PEN, BLACK, BLACK, BLACK])
    assert foreign_ink(page, boxes) == [False, False, True, False, False, True, False, False, False]
    assert foreign_ink(page, boxes, InkParams(enabled=False)) == [False] * len(boxes)


def test_a_tinted_scan_a_two_colour_print_and_black_on_colour_stay_print() -> None:
    tinted, boxes = _page([TINT] * 6)  # one ink, however bluish the scan
    assert foreign_ink(tinted, boxes) == [False] * 6
    two_colour, boxes = _page([BLACK, BLUE_PEN, BLACK, BLUE_PEN, BLACK, BLUE_PEN])  # half the page
    assert foreign_ink(two_colour, boxes) == [False] * 6
    blue_print, boxes = _page([BLUE_PEN] * 5 + [BLACK])  # black is never a pen's colour here
    assert foreign_ink(blue_print, boxes) == [False] * 6
    form, boxes = _page(([BLACK] * 4 + [BROWN_FORM]) * 5)  # a form's labels: a fifth of its ink, 5 lines
    assert foreign_ink(form, boxes) == [False] * 25
    assert sum(foreign_ink(form, boxes, InkParams(max_lines=5))) == 5  # what the line count rules out
    few, boxes = _page([BLACK, BLUE_PEN])  # too few lines to know the print's ink
    assert foreign_ink(few, boxes) == [False, False]
    coloured, boxes = _page([BLACK, BLUE_PEN, BLACK, BLACK])
    grey = cv2.cvtColor(cv2.cvtColor(coloured, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)  # a grey scan
    assert foreign_ink(grey, boxes) == [False] * 4 and foreign_ink(grey[..., 0], boxes) == [False] * 4


def _line(y: float, text: str) -> TextLine:
    return TextLine(((10.0, y), (90.0, y), (90.0, y + 10), (10.0, y + 10)), text, 0.9)


def test_lines_of_no_document_become_the_pages_marks_and_survive_json_and_scaling() -> None:
    assert MARK == MARK_DOCUMENT
    lines = [_line(0, "a"), _line(20, "b"), _line(40, "c"), _line(60, "pen")]
    outlines = [
        ((0.0, 0.0), (100.0, 0.0), (100.0, 30.0), (0.0, 30.0)),
        ((0.0, 35.0), (100.0, 35.0), (100.0, 55.0), (0.0, 55.0)),
    ]
    page = page_from_owned("p.png", (100, 80), lines, [0, 0, 1, MARK_DOCUMENT], outlines)
    assert [ln.text for ln in page.lines] == ["a", "b", "c"] and [m.text for m in page.marks] == ["pen"]
    assert [r.lines for r in page.receipts] == [(0, 1), (2,)]
    assert "pen" not in page.text
    again = PageResult.from_json(page.to_json())
    assert again.marks == page.marks and again.lines == page.lines
    assert page.rescaled(2.0).marks[0].box[2] == (180.0, 140.0)
    assert "marks" not in page_from_owned("p.png", (100, 80), lines, [], []).to_json()


def _with_pen_note(seed: int) -> tuple[Image.Image, tuple[int, int, int, int], str]:
    """A rendered invoice with "Paid 12/03" written under its text in a blue pen; the note's rectangle."""
    doc = render_invoice(seed=seed)
    page = cv2.cvtColor(np.array(doc.image.convert("RGB")), cv2.COLOR_RGB2BGR)
    ink_rows = np.where((page.mean(axis=2) < 128).any(axis=1))[0]
    y = int(ink_rows.max()) + 140
    cv2.putText(page, "Paid 12/03", (700, y), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 2.2, BLUE_PEN, 4, cv2.LINE_AA)
    image = Image.fromarray(cv2.cvtColor(page, cv2.COLOR_BGR2RGB))
    return image, (690, y - 70, 1120, y + 30), doc.lines[-1].text


def _inside(box: tuple[tuple[float, float], ...], rect: tuple[int, int, int, int]) -> bool:
    cx = sum(x for x, _ in box) / len(box)
    cy = sum(y for _, y in box) / len(box)
    return rect[0] <= cx <= rect[2] and rect[1] <= cy <= rect[3]


@pytest.fixture(scope="module")
def client(triton: EmbeddedServer) -> OcrClient:
    with OcrClient(triton.grpc_url, timeout_s=300) as ocr:
        ocr.connect()
        yield ocr


def test_the_server_keeps_a_pen_note_apart_from_the_printed_invoice(client: OcrClient) -> None:
    image, note, last_printed = _with_pen_note(seed=6)
    plain = client.recognize(encode(render_invoice(seed=6).image, "PNG"), "plain.png")
    page = client.recognize(encode(image, "PNG"), "noted.png")
    assert plain.marks == ()
    assert len(page.marks) >= 1 and all(_inside(m.box, note) for m in page.marks)
    assert not any(_inside(line.box, note) for line in page.lines)
    assert [ln.text for ln in page.lines] == [ln.text for ln in plain.lines]  # the print reads as before
    assert last_printed in page.text
    assert extract_fields(page).value("total") == extract_fields(plain).value("total") is not None
    again = PageResult.from_json(page.to_json()).marks  # boxes rounded to 0.1 px in the JSON
    assert [m.text for m in again] == [m.text for m in page.marks]
    assert all(
        abs(a - b) <= 0.05
        for kept, mark in zip(again, page.marks, strict=True)
        for p, q in zip(kept.box, mark.box, strict=True)
        for a, b in zip(p, q, strict=True)
    )


def test_with_the_check_off_the_note_is_one_of_the_pages_lines(model_repository: Path) -> None:
    image, note, _ = _with_pen_note(seed=6)
    engine = build_engine(model_repository)
    bgr = cv2.cvtColor(np.array(image), cv2.COLOR_RGB2BGR)
    read = engine.read(bgr)
    assert MARK in read.line_documents
    assert all(
        _inside(line.box, note) for line, d in zip(read.lines, read.line_documents, strict=True) if d == MARK
    )
    engine.documents = DocumentParams(ink=InkParams(enabled=False))
    off = engine.read(bgr)
    assert MARK not in off.line_documents
    assert any(_inside(line.box, note) for line in off.lines)


def test_a_request_can_turn_the_check_off(triton: EmbeddedServer) -> None:
    """Request parameter "marks" = "off": the note is one of the page's lines; the next request
    without it keeps the note apart (same server)."""
    import tritonclient.grpc as grpcclient

    from scanner_app.contract import IMAGE_INPUT, PIPELINE_MODEL
    from scanner_app.core.client.triton import page_from_response

    image, note, _ = _with_pen_note(seed=6)
    tensor = grpcclient.InferInput(IMAGE_INPUT, [1, 1], "BYTES")
    tensor.set_data_from_numpy(np.array([[encode(image, "PNG")]], dtype=np.object_))
    with grpcclient.InferenceServerClient(triton.grpc_url) as raw:
        off = page_from_response(raw.infer(PIPELINE_MODEL, [tensor], parameters={"marks": "off"}), "off", 0.0)
        on = page_from_response(raw.infer(PIPELINE_MODEL, [tensor]), "on", 0.0)
    assert off.marks == () and any(_inside(line.box, note) for line in off.lines)
    assert on.marks and not any(_inside(line.box, note) for line in on.lines)
