"""The QR code printed on a fapiao, decoded with zxing-cpp, as a second, exact reading of the
invoice code, number, amount before tax, date and check code: it confirms the OCR'd fields, fills
those OCR missed, and corrects those it misread, each disagreement kept as a failed check.

The payload is comma-separated: ``01,<kind>,<code>,<number>,<net>,<YYYYMMDD>,<check code>,<crc>,``
(``kind`` 01 专用, 04 普通, 10 电子普通, 31/32 数电; code and check code empty on 数电票)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

import zxingcpp
from PIL import Image

from scanner_app.core.fields.amounts import format_amount, to_decimal
from scanner_app.core.fields.checks import run_checks
from scanner_app.core.fields.model import InvoiceFields
from scanner_app.core.fields.values import Check, Field

KINDS = {"01": "增值税专用发票", "04": "增值税普通发票", "10": "增值税电子普通发票", "11": "卷式发票",
         "14": "通行费发票", "20": "电子发票（增值税专用发票）", "31": "数电票（专用发票）",
         "32": "数电票（普通发票）"}  # fmt: skip
QR_CONFIDENCE = 0.99


@dataclass(frozen=True)
class FapiaoQr:
    """The fields a fapiao's QR code carries (empty where the kind of invoice prints none)."""

    kind: str
    invoice_code: str
    number: str
    net: str
    date: str
    check_code: str
    text: str

    def fields(self) -> dict[str, str]:
        """The QR's values under extract_fields' names (empty ones left out)."""
        values = {"invoice_code": self.invoice_code, "number": self.number, "net": self.net,
                  "date": self.date, "check_code": self.check_code}  # fmt: skip
        return {k: v for k, v in values.items() if v}


def parse_qr(text: str) -> FapiaoQr | None:
    """A fapiao QR payload, or None when ``text`` is not one (another QR code on the page)."""
    parts = [p.strip() for p in text.strip().split(",")]
    if len(parts) < 6 or parts[0] != "01" or not parts[3].isdigit():
        return None
    amount = to_decimal(parts[4]) if parts[4] else None
    try:
        date = dt.datetime.strptime(parts[5], "%Y%m%d").date().isoformat() if parts[5] else ""
    except ValueError:
        return None
    code = parts[2] if parts[2].isdigit() else ""
    check = parts[6] if len(parts) > 6 and parts[6].isdigit() else ""
    net = format_amount(amount) if amount is not None else ""
    return FapiaoQr(parts[1], code, parts[3], net, date, check, text)


def decode_qr(image: Image.Image) -> FapiaoQr | None:
    """The first fapiao QR code found on the page image."""
    for barcode in zxingcpp.read_barcodes(
        image.convert("L"), formats=zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
    ):
        found = parse_qr(barcode.text)
        if found is not None:
            return found
    return None


def _same(name: str, ocr: str, qr: str) -> bool:
    if name == "net":
        a, b = to_decimal(ocr), to_decimal(qr)
        return a is not None and b is not None and a == Decimal(b)
    if name == "check_code":  # some QR codes carry only the check code's last digits
        return ocr.replace(" ", "").endswith(qr)
    return ocr.strip() == qr


def cross_check(fields: InvoiceFields, qr: FapiaoQr) -> InvoiceFields:
    """``fields`` confirmed by the QR code: agreeing fields gain its confidence, missing ones are
    filled from it, disagreeing ones take the QR's value and fail a ``qr_<name>`` check."""
    out = dict(fields.fields)
    checks: list[Check] = []
    for name, value in qr.fields().items():
        old = out.get(name)
        if old is None or not old.value:
            out[name] = Field(name, value, QR_CONFIDENCE, (), f"qr:{qr.text}")
            continue
        if _same(name, old.value, value):
            out[name] = dataclasses.replace(old, confidence=max(old.confidence, QR_CONFIDENCE))
            checks.append(Check(f"qr_{name}", True, f"{name} {old.value} = QR code", (name,)))
            continue
        if name == "check_code" and len(value) < len(old.value):
            corrected = old  # a shortened QR check code cannot correct the printed one
        else:
            corrected = Field(name, value, QR_CONFIDENCE, old.lines, old.raw)
        out[name] = corrected
        msg = f"{name}: OCR read {old.value!r}, the QR code says {value!r}"
        checks.append(Check(f"qr_{name}", False, msg, (name,)))
    # the other checks again, over the corrected values
    return dataclasses.replace(fields, fields=out, checks=(*run_checks(out, fields.kind), *checks))


def cross_check_image(fields: InvoiceFields, image: Image.Image) -> tuple[InvoiceFields, FapiaoQr | None]:
    """Decode the page's QR code and cross-check ``fields`` with it (unchanged when none is found
    or the page is no VAT invoice)."""
    if fields.kind != "vat_invoice":
        return fields, None
    qr = decode_qr(image)
    return (cross_check(fields, qr), qr) if qr is not None else (fields, None)
