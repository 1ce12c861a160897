"""Review flags of invoice fields (``net_tax_total``, ``low_confidence``...) as sentences for people."""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication


def flag_sentence(flag: str) -> str:
    """One flag of a field in the UI language; an unknown flag reads as its words."""
    fixed = {
        "missing": QCoreApplication.translate("FlagText", "required, but not found"),
        "low_confidence": QCoreApplication.translate("FlagText", "low confidence"),
        "net_tax_total": QCoreApplication.translate("FlagText", "net + tax does not equal the total"),
        "date_format": QCoreApplication.translate("FlagText", "not a date"),
        "tax_rate": QCoreApplication.translate("FlagText", "the tax rate does not match net and tax"),
        "total_words": QCoreApplication.translate("FlagText", "the amount in words does not match the total"),
        "items_tax": QCoreApplication.translate("FlagText", "the items' tax does not add up to the tax"),
        "items_net": QCoreApplication.translate("FlagText", "the items do not add up to the net amount"),
    }
    if flag in fixed:
        return fixed[flag]
    if m := re.fullmatch(r"item(\d+)_amount", flag):
        text = QCoreApplication.translate("FlagText", "item {0}: quantity x price does not equal the amount")
        return text.format(m[1])
    if m := re.fullmatch(r"item(\d+)_tax", flag):
        text = QCoreApplication.translate("FlagText", "item {0}: the tax does not match the rate")
        return text.format(m[1])
    if flag.endswith("_checksum"):
        return QCoreApplication.translate("FlagText", "not a valid taxpayer number")
    if flag.endswith("_format"):
        return QCoreApplication.translate("FlagText", "not an amount")
    if flag.startswith("qr_"):
        return QCoreApplication.translate("FlagText", "corrected from the QR code")
    if flag.startswith("items_"):
        return QCoreApplication.translate("FlagText", "the items do not add up")
    return flag.replace("_", " ")
