"""The XML of a fully digital invoice (数电票, root ``EInvoice``) read into field values, exactly.

Its public element names: ``TaxSupervisionInfo/InvoiceNumber``, ``IssueTime``; ``SellerInformation``
(``SellerName``, ``SellerIdNum``, ``SellerAddr``, ``SellerTelNum``, ``SellerBankName``,
``SellerBankAccNum``), the same for ``Buyer``; ``BasicInformation`` (``TotalAmWithoutTax``,
``TotalTaxAm``, ``TotalTax-includedAmount``, ``TotalTax-includedAmountInChinese``); one
``IssuItemInformation`` per item (``ItemName``, ``Quantity``, ``UnPrice``, ``Amount``, ``TaxRate``,
``ComTaxAm``). Values are normalised as extract_fields gives them (ISO date, ``1234.50``, ``13%``)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from decimal import Decimal, InvalidOperation

ROOT = "EInvoice"
_TEXT = {  # field name -> element paths (local names), first found wins
    "number": ("TaxSupervisionInfo/InvoiceNumber", "Header/EIid"),
    "seller_name": ("EInvoiceData/SellerInformation/SellerName",),
    "seller_tax_id": ("EInvoiceData/SellerInformation/SellerIdNum",),
    "seller_address": ("EInvoiceData/SellerInformation/SellerAddr",),
    "seller_phone": ("EInvoiceData/SellerInformation/SellerTelNum",),
    "seller_bank": ("EInvoiceData/SellerInformation/SellerBankName",),
    "seller_account": ("EInvoiceData/SellerInformation/SellerBankAccNum",),
    "buyer_name": ("EInvoiceData/BuyerInformation/BuyerName",),
    "buyer_tax_id": ("EInvoiceData/BuyerInformation/BuyerIdNum",),
    "total_words": ("EInvoiceData/BasicInformation/TotalTax-includedAmountInChinese",),
}
_AMOUNTS = {
    "net": "EInvoiceData/BasicInformation/TotalAmWithoutTax",
    "tax": "EInvoiceData/BasicInformation/TotalTaxAm",
    "total": "EInvoiceData/BasicInformation/TotalTax-includedAmount",
}
_ITEM = {"name": "ItemName", "quantity": "Quantity", "unit_price": "UnPrice", "amount": "Amount",
         "tax_rate": "TaxRate", "tax": "ComTaxAm"}  # fmt: skip
_DATE = re.compile(r"(\d{4})-?(\d{2})-?(\d{2})")


class NotAnEInvoice(ValueError):
    """The XML is well formed but not a fully digital invoice."""


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _find(node: ET.Element, path: str) -> str:
    found = node.find("/".join(f"{{*}}{part}" for part in path.split("/")))
    return (found.text or "").strip() if found is not None else ""


def amount(text: str) -> str:
    """``1234.5`` -> ``1234.50`` (empty when not a number)."""
    try:
        return f"{Decimal(text.replace(',', '')):.2f}" if text else ""
    except InvalidOperation:
        return ""


def rate(text: str) -> str:
    """``0.13`` or ``13%`` -> ``13%``."""
    text = text.strip()
    try:
        value = Decimal(text.rstrip("%"))
    except InvalidOperation:
        return ""
    percent = value if text.endswith("%") or value >= 1 else value * 100
    return f"{percent.normalize():f}%"


def iso_date(text: str) -> str:
    m = _DATE.search(text)
    return f"{m[1]}-{m[2]}-{m[3]}" if m else ""


def is_einvoice_xml(data: bytes) -> bool:
    """Whether ``data`` parses as XML with the ``EInvoice`` root."""
    try:
        return _local(ET.fromstring(data).tag) == ROOT
    except ET.ParseError:
        return False


def read_einvoice_xml(data: bytes) -> dict[str, str]:
    """Field values of a 数电票 XML, by extract_fields' names; raise ET.ParseError (not XML) or
    NotAnEInvoice (another XML)."""
    root = ET.fromstring(data)
    if _local(root.tag) != ROOT:
        raise NotAnEInvoice(f"not a fully digital invoice (root element <{_local(root.tag)}>, not <{ROOT}>)")
    out = {name: next((v for p in paths if (v := _find(root, p))), "") for name, paths in _TEXT.items()}
    issued = _find(root, "TaxSupervisionInfo/IssueTime") or _find(root, "*/BasicInformation/RequestTime")
    out["date"] = iso_date(issued)
    out.update({name: amount(_find(root, path)) for name, path in _AMOUNTS.items()})
    items = root.findall("{*}EInvoiceData/{*}IssuItemInformation")
    for n, item in enumerate(items, 1):
        for key, tag in _ITEM.items():
            value = _find(item, tag)
            if key in ("amount", "tax"):
                value = amount(value)
            elif key == "tax_rate":
                value = rate(value) if value else ""
            out[f"item{n}_{key}"] = value
    rates = {out.get(f"item{n}_tax_rate", "") for n in range(1, len(items) + 1)} - {""}
    if len(rates) == 1:
        out["tax_rate"] = rates.pop()
    return {k: v for k, v in out.items() if v}
