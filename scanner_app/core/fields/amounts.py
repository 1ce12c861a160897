"""Money amounts in text (``1,234.56``, ``1.234,56``, ``RM 33.90``, ``-RM 0.02``, ``¥1130.00``) and
Chinese capital amounts (大写: ``壹仟壹佰叁拾元整``) as Decimal."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

CENT = Decimal("0.01")
MAX_DIGITS = 15  # longer digit runs are codes or account numbers, not amounts
_DIGITS = {"零": 0, "〇": 0, "壹": 1, "贰": 2, "貳": 2, "叁": 3, "參": 3, "肆": 4, "伍": 5, "陆": 6,
           "陸": 6, "柒": 7, "捌": 8, "玖": 9, "两": 2, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5,
           "六": 6, "七": 7, "八": 8, "九": 9}  # fmt: skip
_SMALL_UNITS = {"拾": 10, "十": 10, "佰": 100, "百": 100, "仟": 1000, "千": 1000}
_BIG_UNITS = {"万": 10_000, "萬": 10_000, "亿": 100_000_000, "億": 100_000_000}
_FRACTION_UNITS = {"角": Decimal("0.1"), "分": Decimal("0.01")}
UPPER_CHARS = set(_DIGITS) | set(_SMALL_UNITS) | set(_BIG_UNITS) | set(_FRACTION_UNITS) | set("元圆整正")
_UPPER_RUN = re.compile("[" + "".join(sorted(UPPER_CHARS)) + "]{2,}")

# A number with two decimals (thousands by "," or "." or a thin space), or a plain integer.
_AMOUNT = re.compile(
    r"(?P<sign>[-−–])?\s?(?P<cur>RM|USD|EUR|GBP|CNY|RMB|MYR|SGD|[$€£¥￥])?\s?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d{1,3}(?:\.\d{3})+,\d{2}|\d+[.,]\d{2}(?!\d)|\d+)"
    r"(?![\d%])"
)


@dataclass(frozen=True)
class AmountMatch:
    """An amount found in a text: its value, whether it had two decimals, and its span."""

    value: Decimal
    decimals: bool
    currency: str
    start: int
    end: int


def to_decimal(number: str) -> Decimal | None:
    """``1,234.56`` / ``1.234,56`` / ``33,90`` / ``1234`` as Decimal (None if it is not a number)."""
    s = number.strip()
    if re.fullmatch(r"\d{1,3}(?:\.\d{3})+,\d{2}", s):
        s = s.replace(".", "").replace(",", ".")
    elif re.fullmatch(r"\d+,\d{2}", s):
        s = s.replace(",", ".")
    else:
        s = s.replace(",", "")
    try:
        return Decimal(s)
    except InvalidOperation:
        return None


def find_amounts(text: str, integers: bool = False) -> list[AmountMatch]:
    """Amounts in ``text``, left to right; plain integers only when ``integers``.

    Numbers inside longer alphanumeric tokens (``INV-2024``, ``12PCS``, dates, times) are skipped.
    """
    out = []
    for m in _AMOUNT.finditer(text.upper()):
        num = m["num"]
        before = text[m.start("num") - 1] if m.start("num") > 0 else " "
        after = text[m.end() : m.end() + 1]
        glued = m.start("num") >= 2 and text[m.start("num") - 2].isalnum()
        after_digit = m.start("num") >= 2 and text[m.start("num") - 2].isdigit()
        if (before.isalnum() and not m["cur"]) or (before in "/:" and after_digit) or after in (":", "/"):
            continue  # inside a token, a time (12:30) or a date (1/2/24)
        if after.isalpha():
            continue
        if m["sign"] and m.start() > 0 and text[m.start() - 1].isalnum():
            continue  # a hyphen inside a token (phone numbers, codes), not a minus sign
        if not re.search(r"[.,]\d{2}$", num) and ((after in ".,-%" and after) or before in "-.,"):
            continue  # part of a date, time, decimal or range
        if before in "-." and not m["sign"] and not m["cur"] and glued:
            continue
        decimals = bool(re.search(r"[.,]\d{2}$", num))
        if not decimals and not integers:
            continue
        value = to_decimal(num)
        if value is None or sum(c.isdigit() for c in num) > MAX_DIGITS:
            continue
        if m["sign"]:
            value = -value
        cur = m["cur"] or ""
        out.append(AmountMatch(value.quantize(CENT), decimals, cur, m.start(), m.end()))
    return out


def format_amount(value: Decimal) -> str:
    """Two decimals, no thousands separator (``1234.50``)."""
    return str(value.quantize(CENT))


def _section(text: str) -> int:
    """Value of a run below 万 (e.g. 壹仟零伍拾 = 1050)."""
    total, digit = 0, None
    for ch in text:
        if ch in _DIGITS:
            digit = _DIGITS[ch]
        elif ch in _SMALL_UNITS:
            total += (1 if digit is None else digit) * _SMALL_UNITS[ch]
            digit = None
        else:
            raise ValueError(f"unexpected {ch!r} in {text!r}")
    return total + (digit or 0)


def parse_chinese_upper(text: str) -> Decimal | None:
    """A 大写 amount such as ``壹万贰仟叁佰肆拾伍元陆角柒分`` or ``⊗壹仟元整`` as Decimal; None when
    ``text`` holds no such amount or it is malformed."""
    run = max(_UPPER_RUN.findall(text), key=len, default="")
    if not any(c in _DIGITS or c in _SMALL_UNITS or c in _BIG_UNITS for c in run):
        return None
    run = run.replace("圆", "元").rstrip("整正")
    integer_part, _, fraction = run.partition("元")
    if "元" not in run and any(c in _FRACTION_UNITS for c in run):
        integer_part, fraction = "", run
    try:
        value = Decimal(_integer(integer_part))
        digit = None
        for ch in fraction:
            if ch in _DIGITS:
                digit = _DIGITS[ch]
            elif ch in _FRACTION_UNITS and digit is not None:
                value += digit * _FRACTION_UNITS[ch]
                digit = None
            else:
                return None
    except ValueError:
        return None
    return value.quantize(CENT)


def _integer(text: str) -> int:
    """Value of the part before 元, with 亿 and 万 sections."""
    total = 0
    for unit_char, unit in (("亿", 100_000_000), ("億", 100_000_000), ("万", 10_000), ("萬", 10_000)):
        if unit_char in text:
            head, text = text.split(unit_char, 1)
            total += _integer(head) * unit if head else unit
    return total + (_section(text) if text else 0)


_UPPER_DIGITS = "零壹贰叁肆伍陆柒捌玖"


def to_chinese_upper(value: Decimal) -> str:
    """The 大写 form of a non-negative amount, as printed on VAT invoices (``壹仟壹佰叁拾元整``)."""
    cents = int((value.quantize(CENT) * 100).to_integral_value())
    if cents < 0:
        raise ValueError("negative amounts have no 大写 form here")
    yuan, jiao, fen = cents // 100, cents // 10 % 10, cents % 10
    out = _upper_integer(yuan) + "元" if yuan else ""
    if jiao == 0 and fen == 0:
        return (out or "零元") + "整"
    if jiao:
        out += _UPPER_DIGITS[jiao] + "角"
    elif yuan:
        out += "零"
    if fen:
        out += _UPPER_DIGITS[fen] + "分"
    return out


def _upper_integer(n: int) -> str:
    if n >= 100_000_000:
        head, rest = divmod(n, 100_000_000)
        return (
            _upper_integer(head)
            + "亿"
            + (("零" if rest < 10_000_000 else "") + _upper_integer(rest) if rest else "")
        )
    if n >= 10_000:
        head, rest = divmod(n, 10_000)
        return (
            _upper_integer(head)
            + "万"
            + (("零" if rest < 1000 else "") + _upper_integer(rest) if rest else "")
        )
    out, zero = "", False
    for unit, name in ((1000, "仟"), (100, "佰"), (10, "拾"), (1, "")):
        d = n // unit % 10
        if d:
            out += ("零" if zero and out else "") + _UPPER_DIGITS[d] + name
            zero = False
        else:
            zero = True
    return out
