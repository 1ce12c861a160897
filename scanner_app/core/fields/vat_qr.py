"""The QR code printed on a fapiao, decoded with zxing-cpp, as a second, exact reading of the
invoice code, number, amount before tax, date and check code: it confirms the OCR'd fields, fills
those OCR missed, and corrects those it misread, each disagreement kept as a failed check
(the payload itself: qr_payload)."""

from __future__ import annotations

import dataclasses

from PIL import Image

from scanner_app.core.fields.checks import run_checks
from scanner_app.core.fields.model import InvoiceFields
from scanner_app.core.fields.qr_payload import KINDS, FapiaoQr, first_fapiao_qr, parse_qr, qr_check, same
from scanner_app.core.fields.values import Check, Field

__all__ = ["KINDS", "QR_CONFIDENCE", "FapiaoQr", "cross_check", "cross_check_image", "decode_codes",
           "decode_qr", "parse_qr"]  # fmt: skip
QR_CONFIDENCE = 0.99


def decode_codes(image: Image.Image) -> tuple[str, ...]:
    """The payloads of every QR code found on the page image."""
    import zxingcpp  # loaded only when a page is decoded

    found = zxingcpp.read_barcodes(
        image.convert("L"), formats=zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
    )
    return tuple(b.text for b in found if b.text)


def decode_qr(image: Image.Image) -> FapiaoQr | None:
    """The first fapiao QR code found on the page image."""
    return first_fapiao_qr(decode_codes(image))


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
        if same(name, old.value, value):
            out[name] = dataclasses.replace(old, confidence=max(old.confidence, QR_CONFIDENCE))
            checks.append(qr_check(name, old.value, value))
            continue
        if name == "check_code" and len(value) < len(old.value):
            corrected = old  # a shortened QR check code cannot correct the printed one
        else:
            corrected = Field(name, value, QR_CONFIDENCE, old.lines, old.raw)
        out[name] = corrected
        msg = f"{name}: OCR read {old.value!r}, the QR code says {value!r}"
        checks.append(Check(f"qr_{name}", False, msg, (name,)))
    # the other checks again, over the corrected values
    redone = (*run_checks(out, fields.kind), *checks)
    return dataclasses.replace(fields, fields=out, checks=redone, qr=qr.text)


def cross_check_image(fields: InvoiceFields, image: Image.Image) -> tuple[InvoiceFields, FapiaoQr | None]:
    """Decode the page's QR code and cross-check ``fields`` with it (unchanged when none is found
    or the page is no VAT invoice)."""
    if fields.kind != "vat_invoice":
        return fields, None
    qr = decode_qr(image)
    return (cross_check(fields, qr), qr) if qr is not None else (fields, None)
