"""Dates, amounts, Chinese capital amounts and the USCC check character (no server)."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from scanner_app.core.fields.amounts import find_amounts, parse_chinese_upper, to_chinese_upper, to_decimal
from scanner_app.core.fields.dates import find_dates, parse_date
from scanner_app.core.fields.uscc import check_char, is_valid_uscc


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("2024年3月15日", "2024-03-15"),
        ("开票日期：2024 年 03 月 15 日", "2024-03-15"),
        ("15/03/2024", "2024-03-15"),
        ("15-MAR-24", "2024-03-15"),
        ("2024.03.15", "2024-03-15"),
        ("2024-3-5", "2024-03-05"),
        ("Date: 12-01-19 21:13", "2019-01-12"),
        ("March 15, 2024", "2024-03-15"),
        ("15 March 2024", "2024-03-15"),
        ("ORD #50 -REG #19- 18/01/201810:27:03", "2018-01-18"),  # year glued to the time
        ("19/10/20182 20:49:59", "2018-10-19"),  # an extra digit read after the year
        ("18-11-1813:58SH01Z153", "2018-11-18"),  # a two-digit year glued to the time
        ("01/02/202410:30", "2024-02-01"),
        ("03/04/2024", "2024-04-03"),  # ambiguous: day first by default
    ],
)
def test_dates_normalised_to_iso(text: str, iso: str) -> None:
    assert parse_date(text) == iso


def test_date_order_and_impossible_dates() -> None:
    assert parse_date("03/04/2024", order="MDY") == "2024-03-04"
    assert parse_date("13/04/2024", order="MDY") == "2024-04-13"  # 13 cannot be a month
    assert parse_date("31/02/2024") is None
    assert parse_date("Tel: 07-3507405") is None
    assert parse_date("INV-2024-00123") is None
    assert parse_date("HC03-7-15") is None  # a product code, not 3 July 2015
    assert [d.iso for d in find_dates("from 01/02/2024 to 2024-03-01")] == ["2024-02-01", "2024-03-01"]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("RM 33.92", ["33.92"]),
        ("-RM 0.02", ["-0.02"]),
        ("1 X 19.00 19.00", ["19.00", "19.00"]),
        ("¥1,130.00", ["1130.00"]),
        ("1.234,56 EUR", ["1234.56"]),
        ("Tel:07-3507405", []),
        ("Date 12-01-19 21:13", []),
        ("Discount 10.00%", []),
        ("-5.59", ["-5.59"]),
        ("合计:20.80 at 12:30", ["20.80"]),
        ("Total:9.00 on 1/2/24", ["9.00"]),
    ],
)
def test_amounts_found(text: str, values: list[str]) -> None:
    assert [str(a.value) for a in find_amounts(text)] == values


def test_integers_only_when_asked() -> None:
    assert find_amounts("Total 100") == []
    assert [a.value for a in find_amounts("Total 100", integers=True)] == [Decimal("100.00")]
    assert to_decimal("12,345.60") == Decimal("12345.60") and to_decimal("x") is None


@pytest.mark.parametrize(
    ("words", "value"),
    [
        ("壹仟壹佰叁拾元整", "1130.00"),
        ("⊗壹万贰仟叁佰肆拾伍元陆角柒分", "12345.67"),
        ("壹仟零伍元零伍分", "1005.05"),
        ("贰佰万元壹角", "2000000.10"),
        ("壹亿元整", "100000000.00"),
        ("伍角", "0.50"),
        ("拾元整", "10.00"),
        ("价税合计（大写）叁佰圆正", "300.00"),
    ],
)
def test_chinese_capital_amounts(words: str, value: str) -> None:
    assert parse_chinese_upper(words) == Decimal(value)


def test_chinese_capitals_round_trip_and_reject_junk() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        v = Decimal(rng.randrange(0, 10**11)) / 100
        assert parse_chinese_upper(to_chinese_upper(v)) == v, v
    assert parse_chinese_upper("合计金额") is None
    assert parse_chinese_upper("元角分") is None


def test_uscc_check_character() -> None:
    assert is_valid_uscc("91350100M000100Y43")  # the example printed in GB 32100-2015 guides
    assert not is_valid_uscc("91350100M000100Y44")
    assert not is_valid_uscc("91350100M000100Y4")  # 17 characters
    assert not is_valid_uscc("91350100I000100Y43")  # I is not in the code's alphabet
    body = "91440300MA5FABCD1"
    assert is_valid_uscc(body + check_char(body))
    with pytest.raises(ValueError):
        check_char("91440300MA5FABCDO")  # O is not either
