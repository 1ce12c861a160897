"""The QR codes of a page whose text makes it a Chinese VAT invoice, decoded from its image and
kept on its result (``PageResult.codes``), so that its fields are cross-checked by them wherever
they are extracted (fields.extract), a person's edits included. Other pages are not decoded."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from PIL import Image

from scanner_app.core.fields.layout import Layout
from scanner_app.core.fields.rules import default_rules
from scanner_app.core.fields.vat import is_vat_invoice
from scanner_app.core.results import PageResult


def wants_codes(result: PageResult) -> bool:
    """Whether the page's lines make it a VAT invoice (only those carry a fapiao QR code)."""
    return bool(result.lines) and is_vat_invoice(Layout.of(result), default_rules())


def with_codes(result: PageResult, image: Image.Image | Callable[[], Image.Image]) -> PageResult:
    """``result`` with the payloads of the QR codes on ``image`` (the page's own pixels, or a
    callable that opens them: called only when the page is a VAT invoice)."""
    if result.codes or result.exact_fields or not wants_codes(result):
        return result
    from scanner_app.core.fields.vat_qr import decode_codes

    codes = decode_codes(image if isinstance(image, Image.Image) else image())
    return dataclasses.replace(result, codes=codes) if codes else result
