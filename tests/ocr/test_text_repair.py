"""The recogniser's slips put back where no word is spelt (scanner_app.ocr.text_repair): zeros, points,
brackets, the multiplication sign."""

from __future__ import annotations

import numpy as np
import pytest

from scanner_app.ocr.engine import assemble_lines
from scanner_app.ocr.params import RecParams
from scanner_app.ocr.text_repair import repair_brackets, repair_digits


@pytest.mark.parametrize(
    ("read", "meant"),
    [
        ("106.1C", "106.10"),
        ("15.0C", "15.00"),
        ("TOTAL 2.O5", "TOTAL 2.05"),
        ("RM 7,D0", "RM 7,00"),
        ("ES100O 1L", "ES1000 1L"),
        ("EW-100O-1L", "EW-1000-1L"),
        ("WIN RM50O CASH", "WIN RM500 CASH"),
        ("NO 29O, JALAN", "NO 290, JALAN"),
    ],
)
def test_a_zero_look_alike_inside_a_number_is_a_zero(read: str, meant: str) -> None:
    assert repair_digits(read) == meant


@pytest.mark.parametrize(
    "text",
    [
        "TOKEN NO: O, STATION",  # a letter O alone
        "12OZ CUP",  # a unit after the number
        "CHOPPING BOARD 35.5X25.5CM",
        "DISCOUNT 1.OO",  # no digit among the decimals: nothing to go on
        "CODE AB1.CD",  # letters before the number: not an amount
        "QTY 2.0CM",  # more letters after: a size, not an amount
        "MO26588",
        "ORDER NO.5",
    ],
)
def test_words_and_units_are_left_alone(text: str) -> None:
    assert repair_digits(text) == text


def test_lines_are_repaired_when_assembled_unless_turned_off() -> None:
    box = np.array([[10, 10], [110, 10], [110, 40], [10, 40]], np.float32)
    decoded = {0: ("( 106.1C )", 0.9)}
    assert [ln.text for ln in assemble_lines([box], decoded, RecParams())] == ["(106.10)"]
    off = RecParams(repair_text=False)
    assert [ln.text for ln in assemble_lines([box], decoded, off)] == ["( 106.1C )"]


@pytest.mark.parametrize(
    ("read", "meant"),
    [
        ("( 801580-T )", "(801580-T)"),
        ("MOTOR（ SUNGAI RENGIT ） SDN. BHD.", "MOTOR (SUNGAI RENGIT) SDN. BHD."),
        ("ITEM（S）: 5", "ITEM (S): 5"),
        ("14/01/2018 （SUN） 12:06", "14/01/2018 (SUN) 12:06"),
        ("（801580-T）BHD", "(801580-T) BHD"),
        ("ITEM(S) : 5", "ITEM(S) : 5"),
    ],
)
def test_brackets_lose_inside_spaces_and_latin_lines_get_ascii_brackets(read: str, meant: str) -> None:
    assert repair_brackets(read) == meant


def test_a_cjk_line_keeps_its_full_width_brackets() -> None:
    assert repair_brackets("发票（ 普通 ）") == "发票（普通）"


@pytest.mark.parametrize(
    ("read", "meant"),
    [("57 50", "57.50"), ("0 00", "0.00"), ("7 42", "7.42"), ("1234 56", "1234.56"), (" 3 60 ", " 3.60 ")],
)
def test_a_line_that_is_a_spaced_amount_reads_with_its_point(read: str, meant: str) -> None:
    assert repair_digits(read) == meant


@pytest.mark.parametrize(
    "text",
    ["12 31 00", "TEL 6258 7191", "1 20.00", "12345 67", "7 420", "RM 7 42", "7  42"],
)
def test_digits_with_a_space_inside_a_longer_line_are_left_alone(text: str) -> None:
    assert repair_digits(text) == text


def test_a_latin_lines_multiplication_sign_is_the_letter_x() -> None:
    assert repair_brackets("2 ×") == "2 x"
    assert repair_brackets("CHOPPING BOARD 35.5×25.5CM") == "CHOPPING BOARD 35.5x25.5CM"
    assert repair_brackets("尺寸 35.5×25.5") == "尺寸 35.5×25.5"  # a CJK line keeps it
