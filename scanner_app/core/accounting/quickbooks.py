"""QuickBooks Online's bank transactions upload CSV (Transactions > Bank transactions > Upload from
file): one transaction per receipt, paid from the account the file is uploaded to (no Qt).

Intuit's help accepts exactly two layouts, in this order and with these headers: 3 columns (Date,
Description, Amount: money out negative, money in positive) or 4 columns (Date, Description,
Credit, Debit: one of the two filled, both positive, the other blank). Intuit's article names
Credit "money out" and Debit "money in" (some third-party guides say the opposite; the upload
wizard shows both columns for mapping). No zero amounts (a zero receipt is skipped), no currency
signs or thousands separators, one date format in the file: MM/DD/YYYY by default, the form the
wizard asks for (``date_format`` for another). A bank account has one currency and the file has
no currency column: receipts in another currency are skipped.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from scanner_app.core.accounting.common import (
    ExportSummary,
    Skipped,
    booking_problem,
    cents,
    currency_of,
    label_of,
    plain,
)
from scanner_app.core.accounting.records import AccountingReceipt
from scanner_app.core.atomic_write import open_atomic

COLUMNS_3 = ("Date", "Description", "Amount")
COLUMNS_4 = ("Date", "Description", "Credit", "Debit")
CREDIT_IS_MONEY_OUT = True  # Intuit: "Credit (money out), and Debit (money in)"
DATE_MDY = "%m/%d/%Y"
DATE_DMY = "%d/%m/%Y"


def _account_currency(
    receipts: Sequence[AccountingReceipt], currency: str | None, default: str | None
) -> str | None:
    """The one currency of the file: ``currency``, else the receipts' one currency; several raise."""
    if currency:
        return currency.strip().upper()
    found = sorted({c for r in receipts if booking_problem(r) is None and (c := currency_of(r, default))})
    if len(found) > 1:
        raise ValueError(f"receipts in {len(found)} currencies {found}: pass the bank account's currency")
    return found[0] if found else None


def write_quickbooks(
    receipts: Sequence[AccountingReceipt],
    path: Path,
    *,
    columns: Literal[3, 4] = 3,
    date_format: str = DATE_MDY,
    currency: str | None = None,
    default_currency: str | None = None,
) -> ExportSummary:
    """Write the bank CSV in the 3- or 4-column layout; a receipt is money out, a refund (negative
    total) money in.

    ``currency``: the bank account's; None takes the receipts' one currency (ValueError when they
    have several; when none has one, all are written). Skipped: no total, a zero total, no date,
    another currency, or none (after ``default_currency``) in a file that has one.
    """
    if columns not in (3, 4):
        raise ValueError(f"QuickBooks takes 3 or 4 columns, not {columns}")
    account_currency = _account_currency(receipts, currency, default_currency)
    skipped: list[Skipped] = []
    rows: list[list[str]] = []
    for receipt in receipts:
        code = currency_of(receipt, default_currency)
        problem = booking_problem(receipt)
        if problem is None and code != account_currency:
            problem = f"currency {code}, not the account's {account_currency}" if code else "no currency"
        if problem is not None:
            skipped.append(Skipped(receipt.id, problem))
            continue
        assert receipt.total is not None and receipt.date is not None  # booking_problem
        money_in = -cents(receipt.total)  # a receipt is money out
        row = [receipt.date.strftime(date_format), label_of(receipt)]
        if columns == 3:
            row.append(plain(money_in))
        else:
            out, into = (plain(abs(money_in)), "") if money_in < 0 else ("", plain(money_in))
            row += [out, into] if CREDIT_IS_MONEY_OUT else [into, out]
        rows.append(row)
    with open_atomic(path, "utf-8", newline="") as handle:
        writer = csv.writer(handle)  # QUOTE_MINIMAL, CRLF rows
        writer.writerow(COLUMNS_3 if columns == 3 else COLUMNS_4)
        writer.writerows(rows)
    return ExportSummary(Path(path), len(rows), tuple(skipped))
