"""Vendor names and addresses that OCR splits over several lines (no server: line lists)."""

from __future__ import annotations

from scanner_app.core.fields import extract_fields
from tests.helpers.fields import page_from_rows

TAIL = [
    ("TAX INVOICE", 120, 300),
    ("Date: 05/11/2019", 20, 340),
    ("TOTAL", 20, 400),
    ("12.50", 450, 400),
]


def _fields(rows: list[tuple[str, float, float]]) -> tuple[str, str]:
    fields = extract_fields(page_from_rows([*rows, *TAIL]))
    return fields.value("vendor"), fields.value("address")


def test_name_split_on_its_row_and_address_after_registration() -> None:
    # OCR cut the name at a wide gap: "... SDN" and "BHD" are two lines on one row.
    vendor, address = _fields([
        ("KEDAI RUNCIT (SETIA ALAM) SDN", 20, 60), ("BHD", 420, 60),
        ("(123456-X)", 140, 85),
        ("NO 8, JALAN SETIA 3/4,", 70, 110),
        ("TAMAN SETIA INDAH,", 70, 135),
        ("40170 SHAH ALAM, SELANGOR", 60, 160),
        ("GST REG NO: 000123456789", 60, 185),
    ])  # fmt: skip
    assert vendor == "KEDAI RUNCIT (SETIA ALAM) SDN BHD"
    assert address == "NO 8, JALAN SETIA 3/4, TAMAN SETIA INDAH, 40170 SHAH ALAM, SELANGOR"


def test_name_over_two_lines_suffix_below() -> None:
    vendor, address = _fields([
        ("S.H.H. MOTOR (SUNGAI RENGIT)", 60, 60),
        ("SDN. BHD.", 160, 82),
        ("NO. 343, JALAN KURAU,", 80, 110),
        ("81620 PENGERANG, JOHOR.", 70, 135),
        ("TEL: 07-8261234", 90, 160),
    ])  # fmt: skip
    assert vendor == "S.H.H. MOTOR (SUNGAI RENGIT) SDN. BHD."
    assert address == "NO. 343, JALAN KURAU, 81620 PENGERANG, JOHOR."


def test_address_first_line_without_street_word_and_glued_words() -> None:
    # The first line has only a house number; OCR dropped the spaces in the second; a 0 read as O.
    vendor, address = _fields([
        ("LIM KEE HARDWARE TRADING", 40, 60),
        ("No 7, Simpang Off Batu Village,", 40, 85),
        ("JALANIPOH BATU 5, 5120O KUALA LUMPUR", 20, 110),
        ("Tel&Fax No03-62587191", 60, 135),
    ])  # fmt: skip
    assert vendor == "LIM KEE HARDWARE TRADING"
    assert address == "No 7, Simpang Off Batu Village, JALANIPOH BATU 5, 51200 KUALA LUMPUR"


def test_registration_on_the_name_line_and_before_the_address() -> None:
    vendor, address = _fields([
        ("T.A.S Leisure Sdn Bhd (256864-P)", 40, 60),
        ("(No.193573-M)", 140, 85),
        ("Level G2, Block D1,", 90, 110),
        ("50480 Kuala Lumpur.", 90, 135),
        ("(GST ID No:000377700352)", 50, 160),
    ])  # fmt: skip
    assert vendor == "T.A.S Leisure Sdn Bhd"
    assert address == "Level G2, Block D1, 50480 Kuala Lumpur."


def test_a_branch_line_under_the_name_is_not_address() -> None:
    vendor, address = _fields([
        ("GOOD FOOD SDN BHD", 60, 60),
        ("Mid Valley Branch", 80, 85),
        ("LOT 5, JALAN BESAR,", 70, 110),
        ("58000 KUALA LUMPUR", 70, 135),
        ("TEL: 03-22821234", 80, 160),
    ])  # fmt: skip
    assert vendor == "GOOD FOOD SDN BHD"
    assert address == "LOT 5, JALAN BESAR, 58000 KUALA LUMPUR"
