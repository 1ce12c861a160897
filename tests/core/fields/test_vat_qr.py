"""The fapiao's QR code (rendered with the qrcode package, decoded with zxing-cpp) confirms,
fills and corrects the OCR'd fields; a disagreement fails a check."""

from __future__ import annotations

import dataclasses

from scanner_app.core.fields.extract import extract_fields
from scanner_app.core.fields.vat_qr import cross_check_image, decode_qr, parse_qr
from scanner_app.core.results import PageResult
from scanner_app.samples.documents import render_invoice
from scanner_app.samples.fapiao import render_fapiao
from scanner_app.samples.invoices import perfect_page

QR_FIELDS = ("invoice_code", "number", "net", "date", "check_code")


def test_the_rendered_qr_code_decodes_to_the_invoice_fields() -> None:
    invoice = render_fapiao(0, "scanned")  # grey, blurred and noisy
    qr = decode_qr(invoice.doc.image)
    assert qr is not None and qr.kind == "10" and qr.text == invoice.qr_text
    assert qr.fields() == {name: invoice.truth[name] for name in QR_FIELDS}


def test_agreeing_fields_are_confirmed() -> None:
    invoice = render_fapiao(1, "standard")
    fields, qr = cross_check_image(extract_fields(perfect_page(invoice.doc)), invoice.doc.image)
    assert qr is not None
    assert {c.name: c.ok for c in fields.checks if c.name.startswith("qr_")} == {
        f"qr_{n}": True for n in QR_FIELDS
    }
    assert all(fields.get(n).confidence >= 0.99 for n in QR_FIELDS) and not fields.flagged


def _misread(page: PageResult, old: str, new: str) -> PageResult:
    lines = tuple(dataclasses.replace(ln, text=ln.text.replace(old, new)) for ln in page.lines)
    return dataclasses.replace(page, lines=lines)


def test_a_misread_number_is_corrected_from_the_qr_code_and_flagged() -> None:
    invoice = render_fapiao(2, "company")
    number = invoice.truth["number"]
    wrong = number[:-1] + str((int(number[-1]) + 3) % 10)
    ocr = extract_fields(_misread(perfect_page(invoice.doc), number, wrong))
    assert ocr.value("number") == wrong
    fields, _ = cross_check_image(ocr, invoice.doc.image)
    assert fields.value("number") == number
    failed = [c for c in fields.checks if not c.ok]
    assert [c.name for c in failed] == ["qr_number"] and wrong in failed[0].message
    assert "qr_number" in fields.flags("number")


def test_a_field_ocr_missed_is_filled_from_the_qr_code() -> None:
    invoice = render_fapiao(0, "wrapped")
    page = perfect_page(invoice.doc)
    page = dataclasses.replace(
        page, lines=tuple(ln for ln in page.lines if invoice.truth["check_code"][:5] not in ln.text)
    )
    ocr = extract_fields(page)
    assert ocr.value("check_code") == ""
    fields, _ = cross_check_image(ocr, invoice.doc.image)
    assert fields.value("check_code") == invoice.truth["check_code"] and fields.get(
        "check_code"
    ).raw.startswith("qr:")


def test_other_qr_codes_and_other_documents_change_nothing() -> None:
    assert parse_qr("https://example.com/menu") is None and parse_qr("01,10,x,y") is None
    assert parse_qr("01,32,,24322000000012345678,1234.5,20240506,,ABCD,").fields() == {
        "number": "24322000000012345678", "net": "1234.50", "date": "2024-05-06"}  # fmt: skip
    doc = render_invoice(seed=0)
    fields = extract_fields(perfect_page(doc))
    assert cross_check_image(fields, doc.image) == (fields, None)
