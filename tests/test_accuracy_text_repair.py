"""The recogniser's slips put back where no word is spelt (scanner_app.ocr.text_repair): zeros, brackets."""

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
