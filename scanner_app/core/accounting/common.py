"""What every accounting writer shares: the summary it returns and the checks on a receipt (no Qt)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from scanner_app.core.accounting.records import AccountingReceipt

CENT = Decimal("0.01")
_BREAKS = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")  # control characters, line and paragraph separators


@dataclass(frozen=True)
class Skipped:
    """A receipt a writer left out, and why (``"no total"``, ``"no date"``...)."""

    receipt_id: int
    reason: str


@dataclass(frozen=True)
class ExportSummary:
    """What a writer did: the file, how many receipts it wrote, which it skipped and why, and notes
    (``"receipt 7: ..."``) on receipts written with a caveat."""

    path: Path
    written: int
    skipped: tuple[Skipped, ...] = ()
    notes: tuple[str, ...] = ()


def one_line(text: str | None) -> str:
    """``text`` on one line: line breaks, tabs and other control characters become one space."""
    return _BREAKS.sub(" ", text or "").strip()


def cents(value: Decimal) -> Decimal:
    """``value`` rounded to cents, half up (as receipts round)."""
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def plain(value: Decimal) -> str:
    """A decimal as digits and a point, never an exponent (``Decimal("1E+2")`` -> ``"100"``)."""
    return format(value, "f")


def currency_of(receipt: AccountingReceipt, default: str | None) -> str | None:
    """The receipt's currency upper-cased, else ``default`` (None when neither is known)."""
    code = (receipt.currency or default or "").strip().upper()
    return code or None


def booking_problem(receipt: AccountingReceipt, *, needs_date: bool = True) -> str | None:
    """Why a receipt cannot be booked (no total, a zero total, no date), or None.

    A receipt without a total is never booked as 0; a zero total books nothing.
    """
    if receipt.total is None:
        return "no total"
    if not receipt.total.is_finite():
        return f"total {receipt.total} is not a number"
    if cents(receipt.total) == 0:
        return "total is 0"
    if needs_date and receipt.date is None:
        return "no date"
    return None


def signed_tax(receipt: AccountingReceipt) -> Decimal | None:
    """The tax with the total's sign (a refund's tax is negative too), in cents; None without one."""
    if receipt.tax is None or receipt.total is None or not receipt.tax.is_finite():
        return None
    tax = cents(abs(receipt.tax))
    return -tax if receipt.total < 0 else tax


def tax_rate_of(receipt: AccountingReceipt) -> Decimal | None:
    """The receipt's tax rate in percent: as given, else tax / net (net = total - tax when absent)."""
    if receipt.tax_rate is not None:
        return receipt.tax_rate
    if receipt.tax is None or receipt.total is None:
        return None
    net = receipt.net if receipt.net is not None else abs(receipt.total) - abs(receipt.tax)
    if not net:
        return None
    return abs(receipt.tax) / abs(net) * 100


def label_of(receipt: AccountingReceipt) -> str:
    """A one-line text for a booking: the description, else the vendor, else the category, else
    ``"Receipt <id>"``."""
    for text in (receipt.description, receipt.vendor, receipt.category):
        if one_line(text):
            return one_line(text)
    return f"Receipt {receipt.id}"
