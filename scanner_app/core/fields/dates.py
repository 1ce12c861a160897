"""Dates in the forms receipts and invoices print, normalised to ISO 8601 (``2024-03-15``).

Handled: ``2024年3月15日``, ``2024-03-15`` / ``2024.03.15`` / ``2024/3/15``, ``15/03/2024``,
``15-03-24``, ``15-MAR-24``, ``15 March 2024``, ``March 15, 2024``. Numeric day/month order that
the numbers leave open (``03/04/2024``) follows ``order`` ("DMY" or "MDY"); a year glued to a
time (``18/01/201810:27:03``, ``18-11-1813:58``: OCR artefacts) still reads; numeric dates inside
codes (``HC03-7-15``) do not.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass

MONTHS = {
    "JAN": 1, "JANUARY": 1, "FEB": 2, "FEBRUARY": 2, "MAR": 3, "MARCH": 3, "APR": 4, "APRIL": 4,
    "MAY": 5, "JUN": 6, "JUNE": 6, "JUL": 7, "JULY": 7, "AUG": 8, "AUGUST": 8, "SEP": 9, "SEPT": 9,
    "SEPTEMBER": 9, "OCT": 10, "OCTOBER": 10, "NOV": 11, "NOVEMBER": 11, "DEC": 12, "DECEMBER": 12,
}  # fmt: skip
MIN_YEAR, MAX_YEAR = 1990, 2100

_CJK = re.compile(r"(?<!\d)(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日?")
_YMD = re.compile(r"(?<!\d)(\d{4})\s?([-./])\s?(\d{1,2})\2(\d{1,2})(?!\d)")
_NUMERIC = re.compile(
    r"(?:(?<![\dA-Z])|(?<=DATE))(\d{1,2})\s?([-./])\s?(\d{1,2})\2\s?(\d{2}(?=\d{1,2}:\d\d)|\d{4}|\d{2}(?!\d))"
)
_DAY_NAME = re.compile(
    r"(?<![\dA-Z])(\d{1,2})(?:ST|ND|RD|TH)?[\s\-./,]*([A-Z]{3,9})\.?[\s\-./,]*(\d{4}|\d{2}(?!\d))"
)
_NAME_DAY = re.compile(r"(?<![A-Z])([A-Z]{3,9})\.?\s*(\d{1,2})(?:ST|ND|RD|TH)?,?\s*(\d{4})(?!\d)")


@dataclass(frozen=True)
class DateMatch:
    """A date found in a text: ISO value and the span of the text it was read from."""

    iso: str
    start: int
    end: int
    raw: str


def _year(text: str) -> int:
    year = int(text)
    return year + (2000 if year < 70 else 1900) if len(text) == 2 else year


def make_date(year: int, month: int, day: int) -> str | None:
    """ISO date when the parts form a real date within MIN_YEAR..MAX_YEAR, else None."""
    if not MIN_YEAR <= year <= MAX_YEAR:
        return None
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return None


def _numeric(a: int, b: int, year: int, order: str) -> str | None:
    """Day and month from two numbers: the unambiguous reading, else the one ``order`` prefers."""
    dmy, mdy = make_date(year, b, a), make_date(year, a, b)
    if dmy and mdy:
        return mdy if order.upper() == "MDY" else dmy
    return dmy or mdy


def find_dates(text: str, order: str = "DMY", months: Mapping[str, int] = MONTHS) -> list[DateMatch]:
    """Every date in ``text``, left to right (overlapping readings: the first pattern wins)."""
    upper = text.upper()
    found: list[DateMatch] = []
    taken: list[tuple[int, int]] = []

    def add(iso: str | None, m: re.Match[str]) -> None:
        if iso and not any(m.start() < e and s < m.end() for s, e in taken):
            taken.append((m.start(), m.end()))
            found.append(DateMatch(iso, m.start(), m.end(), text[m.start() : m.end()]))

    for m in _CJK.finditer(upper):
        add(make_date(int(m[1]), int(m[2]), int(m[3])), m)
    for m in _YMD.finditer(upper):
        add(make_date(int(m[1]), int(m[3]), int(m[4])), m)
    for m in _NUMERIC.finditer(upper):
        add(_numeric(int(m[1]), int(m[3]), _year(m[4]), order), m)
    for m in _DAY_NAME.finditer(upper):
        if m[2] in months:
            add(make_date(_year(m[3]), months[m[2]], int(m[1])), m)
    for m in _NAME_DAY.finditer(upper):
        if m[1] in months:
            add(make_date(_year(m[3]), months[m[1]], int(m[2])), m)
    return sorted(found, key=lambda d: d.start)


def parse_date(text: str, order: str = "DMY", months: Mapping[str, int] = MONTHS) -> str | None:
    """The first date in ``text`` as ISO 8601, or None."""
    dates = find_dates(text, order, months)
    return dates[0].iso if dates else None
