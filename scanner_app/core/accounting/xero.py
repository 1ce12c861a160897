"""Xero's bills import CSV (Business > Bills to pay > Import): one bill of one line per receipt (no Qt).

The columns are those of Xero's bill template, required ones starred as in the template (Xero
accepts the names with or without the star). Per Xero's import help: dates as the organisation's
region writes them (DD/MM/YYYY outside the US, MM/DD/YYYY in the US: ``date_format``); a negative
amount imports as a credit note; UnitAmount is gross when the file is imported as "Tax inclusive"
(the default here, ``amounts_inclusive``), net otherwise; TaxType is the name of a tax rate as set
up in Xero; at most 500 lines a file. Rows with the same InvoiceNumber would merge into one bill,
so numbers are made unique in the file: a missing number becomes ``SA-<id>``, a repeated one gets
``-SA-<id>`` appended. Amounts as plain numbers with a decimal point. Cells are not apostrophe-
neutralised: they are data for Xero, and an apostrophe would become part of a contact's name.
"""

from __future__ import annotations

import csv
import datetime
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path

from scanner_app.core.accounting.common import (
    ExportSummary,
    Skipped,
    booking_problem,
    cents,
    label_of,
    one_line,
    plain,
    signed_tax,
    tax_rate_of,
)
from scanner_app.core.accounting.records import AccountingReceipt
from scanner_app.core.atomic_write import open_atomic

COLUMNS = (
    "*ContactName", "EmailAddress", "POAddressLine1", "POAddressLine2", "POAddressLine3", "POAddressLine4",
    "POCity", "PORegion", "POPostalCode", "POCountry", "*InvoiceNumber", "*InvoiceDate", "*DueDate", "Total",
    "InventoryItemCode", "Description", "*Quantity", "*UnitAmount", "*AccountCode", "*TaxType", "TaxAmount",
    "TrackingName1", "TrackingOption1", "TrackingName2", "TrackingOption2", "Currency",
)  # fmt: skip
REQUIRED = tuple(name.lstrip("*") for name in COLUMNS if name.startswith("*"))
DATE_DMY = "%d/%m/%Y"  # Xero outside the US
DATE_MDY = "%m/%d/%Y"  # a US organisation
MAX_LINES = 500  # Xero's limit for one import file
GENERATED_PREFIX = "SA-"


def _tax_type(
    receipt: AccountingReceipt, tax_type: str, no_tax_type: str, tax_types: Mapping[Decimal, str]
) -> str:
    tax = signed_tax(receipt)
    if not tax and not receipt.tax_rate:
        return no_tax_type
    rate = tax_rate_of(receipt)
    if rate is not None:
        for known, name in tax_types.items():
            if abs(rate - known) <= Decimal("0.5"):
                return name
    return tax_type


def _unique_number(receipt: AccountingReceipt, used: set[str]) -> str:
    number = one_line(receipt.number) or f"{GENERATED_PREFIX}{receipt.id}"
    if number.casefold() in used:
        number = f"{number}-{GENERATED_PREFIX}{receipt.id}"
    used.add(number.casefold())
    return number


def write_xero(
    receipts: Sequence[AccountingReceipt],
    path: Path,
    *,
    date_format: str = DATE_DMY,
    due_days: int = 0,
    amounts_inclusive: bool = True,
    tax_type: str = "Tax on Purchases",
    no_tax_type: str = "Tax Exempt",
    tax_types: Mapping[Decimal, str] | None = None,
    default_account: str | None = None,
    unknown_contact: str = "Unknown supplier",
    default_currency: str | None = None,
) -> ExportSummary:
    """Write the bills CSV; returns what was written and skipped.

    Skipped: no total, a zero total, no date, no account code (and no ``default_account``).
    DueDate = InvoiceDate + ``due_days``. TaxType: ``tax_types[rate]`` (rate in percent, within
    0.5) for a taxed receipt, else ``tax_type``; ``no_tax_type`` for an untaxed one. A receipt
    without a vendor gets ``unknown_contact``, one without a currency ``default_currency`` (blank:
    the organisation's base currency).
    """
    rates = dict(tax_types or {})
    skipped: list[Skipped] = []
    rows: list[dict[str, str]] = []
    used: set[str] = set()
    for receipt in receipts:
        account = one_line(receipt.account_code) or default_account
        problem = booking_problem(receipt) or (None if account else "no account code")
        if problem is not None:
            skipped.append(Skipped(receipt.id, problem))
            continue
        assert receipt.total is not None and receipt.date is not None and account  # booking_problem
        total = cents(receipt.total)
        tax = signed_tax(receipt)
        unit = total if amounts_inclusive else total - (tax or 0)
        date = receipt.date
        row = dict.fromkeys(COLUMNS, "")
        row.update({
            "*ContactName": one_line(receipt.vendor) or unknown_contact,
            "*InvoiceNumber": _unique_number(receipt, used),
            "*InvoiceDate": date.strftime(date_format),
            "*DueDate": (date + datetime.timedelta(days=due_days)).strftime(date_format),
            "Total": plain(total),
            "Description": label_of(receipt),
            "*Quantity": "1",
            "*UnitAmount": plain(unit),
            "*AccountCode": account,
            "*TaxType": _tax_type(receipt, tax_type, no_tax_type, rates),
            "TaxAmount": plain(tax) if tax is not None else "",
            "Currency": (receipt.currency or default_currency or "").strip().upper(),
        })  # fmt: skip
        rows.append(row)
    with open_atomic(path, "utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)  # QUOTE_MINIMAL, CRLF rows
        writer.writeheader()
        writer.writerows(rows)
    too_many = len(rows) > MAX_LINES
    notes = [f"{len(rows)} bills: Xero imports at most {MAX_LINES} lines a file"] if too_many else []
    return ExportSummary(Path(path), len(rows), tuple(skipped), tuple(notes))
