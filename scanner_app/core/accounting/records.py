"""The accounting writers' one input: a receipt as the library knows it (no Qt)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class AccountingReceipt:
    """One receipt for the accounting exports; amounts are as on the receipt (``total`` gross).

    ``page`` counts from 1; ``currency`` is ISO 4217 ("MYR", "EUR", "CNY"); ``tax_rate`` is a
    percentage (``Decimal("6")``); ``account_code`` is the GL account of ``category``;
    ``description`` one line (vendor and items), maybe ""; ``image_jpeg`` the upright receipt crop
    for the PDF report, or None.
    """

    id: int  # the library's receipt id
    source_path: str
    page: int  # from 1
    vendor: str | None
    date: datetime.date | None
    total: Decimal | None  # gross, as on the receipt
    currency: str | None  # ISO 4217, e.g. "MYR", "EUR", "CNY"
    tax: Decimal | None
    tax_rate: Decimal | None  # percent, e.g. Decimal("6")
    net: Decimal | None
    number: str | None  # receipt / invoice number
    category: str | None
    account_code: str | None  # GL account of the category
    description: str  # a one-line description (vendor + items), may be ""
    note: str
    image_jpeg: bytes | None  # the upright receipt crop (for the PDF report), or None
