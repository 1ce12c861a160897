"""A receipt on a glass page read in its own upright frame (pure geometry, no server).

On a glass page each receipt lies a few degrees askew somewhere on a tall page; its fields must
come out as when it is scanned alone (benchmarks/multi_receipt.py found the total of a receipt
turned 4 degrees read from the wrong row before document_page turned it upright).
"""

from __future__ import annotations

import math

import pytest

from scanner_app.core.fields.extract import extract_fields
from scanner_app.core.page.receipt_frame import frame_transform, tilt_of
from scanner_app.core.results import PageResult, Receipt, TextLine

# (text, left x, top y, width) of a receipt 600 px wide; rows 32 px apart, 40 px tall, as the
# server reads a tight receipt's summary block (the label and its amount at both ends of a row).
ROWS = [
    ("RESTORAN WAN SHENG", 170, 20, 260),
    ("Date: 14-03-2018 10:22:59", 20, 60, 400),
    ("Kopi 0 (B)", 20, 140, 150),
    ("2.10", 460, 140, 70),
    ("GST payable (6%):", 20, 432, 240),
    ("0.13", 496, 432, 84),
    ("Total (Inclusive of GST):", 20, 464, 350),
    ("2.30", 510, 464, 70),
    ("TOTAL:", 20, 496, 170),
    ("2.30", 460, 496, 120),
    ("CASH :", 20, 560, 95),
    ("2.30", 510, 560, 70),
]
WIDTH, HEIGHT = 600, 640


def _turn(points: list[tuple[float, float]], degrees: float, at: tuple[float, float]) -> tuple:
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    return tuple((at[0] + (x - at[0]) * c - (y - at[1]) * s, at[1] + (x - at[0]) * s + (y - at[1]) * c)
                 for x, y in points)  # fmt: skip


def _receipt(left: float, top: float, degrees: float) -> tuple[tuple, list[TextLine]]:
    """A receipt's outline and lines, placed at (left, top) on the page and turned ``degrees``."""
    centre = (left + WIDTH / 2, top + HEIGHT / 2)
    outline = _turn([(left, top), (left + WIDTH, top), (left + WIDTH, top + HEIGHT), (left, top + HEIGHT)],
                    degrees, centre)  # fmt: skip
    lines = []
    for text, x, y, w in ROWS:
        x, y = x + left, y + top
        box = _turn([(x, y), (x + w, y), (x + w, y + 40), (x, y + 40)], degrees, centre)
        lines.append(TextLine(box, text, 0.99))
    return outline, lines


def _glass(degrees: tuple[float, float], orientation: int = 0) -> PageResult:
    """Two receipts on an A4 bed (2480 x 3508), high on the page, turned by ``degrees``."""
    left_outline, left = _receipt(100, 300, degrees[0])
    right_outline, right = _receipt(1300, 500, degrees[1])
    receipts = (Receipt(left_outline, tuple(range(len(left)))),
                Receipt(right_outline, tuple(range(len(left), len(left) + len(right)))))  # fmt: skip
    lines = tuple(left + right)
    return PageResult("glass.jpg", 2480, 3508, lines, receipts=receipts, orientation=orientation)


@pytest.mark.parametrize("degrees", [(-4.0, 4.0), (4.0, -2.5), (0.0, 0.0)])
def test_each_tilted_receipt_reads_its_total_as_alone(degrees: tuple[float, float]) -> None:
    alone = PageResult("alone.jpg", WIDTH, HEIGHT, _receipt(0, 0, 0.0)[1])
    assert extract_fields(alone).value("total") == "2.30"
    page = _glass(degrees)
    for index in range(2):
        receipt = page.document_page(index)
        assert (receipt.width, receipt.height) == pytest.approx((WIDTH, HEIGHT), abs=1)
        assert extract_fields(receipt).value("total") == "2.30"
        assert extract_fields(receipt).value("date") == "2018-03-14"


def test_in_page_pixels_the_tilted_total_was_read_from_the_wrong_row() -> None:
    """What document_page used to give (the page's own pixels and size): the receipt turned so that
    its right side is lower pairs each label with the amount of the row above (the tax)."""
    page = _glass((-4.0, 4.0))
    lines = tuple(page.lines[i] for i in page.receipts[1].lines)
    assert extract_fields(PageResult("glass.jpg", 2480, 3508, lines)).value("total") == "0.13"


def test_the_frame_puts_the_outline_upright_at_the_origin() -> None:
    outline, _ = _receipt(700, 900, 3.0)
    assert math.degrees(tilt_of(outline)) == pytest.approx(3.0)
    to_frame, size = frame_transform(outline)
    assert size == pytest.approx((WIDTH, HEIGHT))
    corners = [to_frame(x, y) for x, y in outline]
    assert corners == [pytest.approx(p, abs=1e-6) for p in [(0, 0), (WIDTH, 0), (WIDTH, HEIGHT), (0, HEIGHT)]]


def test_a_glass_page_read_on_its_side_gives_upright_receipts() -> None:
    """Boxes stay in the pixels as sent (here turned 90 degrees); each receipt comes out upright."""
    upright = _glass((-4.0, 4.0))
    w, h = upright.width, upright.height  # sent = upright turned 90 counter-clockwise: (y, w - x)

    def sent(box: tuple) -> tuple:
        return tuple((y, w - x) for x, y in box)

    lines = tuple(TextLine(sent(ln.box), ln.text, ln.score) for ln in upright.lines)
    receipts = tuple(Receipt(sent(r.box), r.lines) for r in upright.receipts)
    page = PageResult("glass.jpg", h, w, lines, receipts=receipts, orientation=90)
    for index in range(2):
        receipt = page.document_page(index)
        assert receipt.orientation == 0
        assert extract_fields(receipt).value("total") == "2.30"


def test_an_ordinary_page_keeps_its_own_pixels() -> None:
    _, lines = _receipt(40, 50, 2.0)
    page = PageResult("one.jpg", 800, 900, tuple(lines), orientation=0)
    assert page.document_page(0) == page


def test_the_legal_suffix_read_son_bhd_is_sdn_bhd() -> None:
    """Small print read ``SDN`` as ``SON`` on a glass page (and not alone): the vendor is the same."""

    def vendor(name: str) -> str:
        lines = (TextLine(((100, 20), (500, 20), (500, 60), (100, 60)), name, 0.99),
                 TextLine(((100, 70), (500, 70), (500, 110), (100, 110)), "NO. 1, JALAN DUTAMAS 1,", 0.99),
                 TextLine(((100, 300), (300, 300), (300, 340), (100, 340)), "TOTAL 4.00", 0.99))  # fmt: skip
        return extract_fields(PageResult("one.jpg", 600, 800, lines)).value("vendor")

    assert vendor("SUN VICTORY SON BHD") == "SUN VICTORY SDN BHD"
    assert vendor("Gerbang Alaf S0n. Bhd.") == "Gerbang Alaf Sdn. Bhd."
    assert vendor("LEE & SON BHD") == "LEE & SON BHD"
