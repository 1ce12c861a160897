"""Recogniser slips that only the text can show, put back in the places where no word is spelt.

Zeros: receipt fonts print a faint or broken ``0`` that the recogniser takes for ``C``, ``D``, ``Q``
or ``O``. Repaired in the two decimals of an amount (``106.1C``, ``2.O5``: a number, a point or
comma, two characters with at least one digit, standing alone) and for a capital ``O`` straight
after a digit and not followed by a letter (``ES100O``, ``RM50O``, ``NO 29O,``); a letter ``O``
followed by a letter may be a unit such as ``OZ`` and is left alone.

Points: where a thermal printer leaves an amount's decimal point too faint to see, the recogniser
reads a space (``57 50``). A line that is nothing but one to four digits, a space and two digits is
an amount in a price column, and reads with its point (``57.50``); digits inside a longer line
(``TEL 6258 7191``, ``12 31 00``) are left alone.

Brackets: the recogniser pads a bracket with a space inside it (``( 801580-T )``) and reads a Latin
line's brackets as the full-width CJK ones (``MOTOR（ SUNGAI``, which carry their own spacing). Inside
spaces go; in a line with no CJK character, full-width brackets become ASCII ones, with the space
outside that their glyph stood for, and the multiplication sign the recogniser writes for a
receipt font's ``x`` (``2 ×``, ``35.5×25.5CM``) becomes that letter.
"""

from __future__ import annotations

import re

_ZERO_LOOKALIKES = "OoCDQ"
_AMOUNT = re.compile(rf"(?<![A-Za-z0-9])(\d+[.,])([0-9{_ZERO_LOOKALIKES}]{{2}})(?![A-Za-z0-9])")
_O_AFTER_DIGIT = re.compile(r"(?<=\d)O(?![A-Za-z])")
_SPACED_AMOUNT = re.compile(r"(\s*\d{1,4}) (\d\d\s*)")
_LOOKALIKE = re.compile(f"[{_ZERO_LOOKALIKES}]")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_SPACE_INSIDE_OPEN = re.compile(r"([(（])\s+")
_SPACE_INSIDE_CLOSE = re.compile(r"\s+([)）])")
_WIDE_OPEN_AFTER_TEXT = re.compile(r"(?<=[^\s(（])（")
_WIDE_CLOSE_BEFORE_TEXT = re.compile(r"）(?=[^\s)）.,:;])")


def repair_text(text: str) -> str:
    """``text`` with the slips of the module docstring put back."""
    return repair_brackets(repair_digits(text))


def repair_digits(text: str) -> str:
    """Zero look-alikes inside numbers read as ``0``; a line that is a spaced amount with its point."""
    spaced = _SPACED_AMOUNT.fullmatch(text)
    if spaced:
        text = f"{spaced.group(1)}.{spaced.group(2)}"
    text = _AMOUNT.sub(_amount, text)
    return _O_AFTER_DIGIT.sub("0", text)


def repair_brackets(text: str) -> str:
    """No space just inside a bracket; a Latin line's full-width brackets as ASCII ones, its ``×`` as x."""
    text = _SPACE_INSIDE_CLOSE.sub(r"\1", _SPACE_INSIDE_OPEN.sub(r"\1", text))
    if _CJK.search(text):
        return text
    text = _WIDE_OPEN_AFTER_TEXT.sub(" (", text).replace("（", "(").replace("×", "x")
    return _WIDE_CLOSE_BEFORE_TEXT.sub(") ", text).replace("）", ")")


def _amount(match: re.Match[str]) -> str:
    whole, cents = match.groups()
    if not any(c.isdigit() for c in cents):  # "1.OO" may be a word's letters: too little to go on
        return match.group(0)
    return whole + _LOOKALIKE.sub("0", cents)
