"""Rendered 增值税电子普通发票 (spaced labels, seal over the seller block, QR code, 密码区) read
back through the real Triton server: every field on each layout, and a misprint flagged."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scanner_app.core.client.triton import OcrClient
from scanner_app.core.fields.extract import extract_fields
from scanner_app.core.fields.vat_qr import cross_check_image
from scanner_app.samples.documents import encode
from scanner_app.samples.fapiao import LAYOUTS, render_fapiao
from scanner_app.server.embedded import EmbeddedServer

ALWAYS = {"net_tax_total", "total_words", "seller_tax_id_checksum", "items_net", "items_tax"}


@pytest.fixture(scope="module")
def client(triton: EmbeddedServer) -> Iterator[OcrClient]:
    with OcrClient(triton.grpc_url) as ocr:
        ocr.connect()
        yield ocr


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_field_of_each_layout_read_back(client: OcrClient, layout: str) -> None:
    invoice = render_fapiao(0, layout)
    page = client.recognize(encode(invoice.doc.image), f"fapiao-{layout}.png")
    fields = extract_fields(page)
    assert {n: fields.value(n) for n in invoice.truth} == invoice.truth, page.text
    assert fields.kind == "vat_invoice"
    assert all(c.ok for c in fields.checks) and {c.name for c in fields.checks} >= ALWAYS
    for name in invoice.truth:  # every field points at the page lines it was read from
        assert fields.get(name).lines and all(0 <= i < len(page.lines) for i in fields.get(name).lines), name
    seal = {i for i, ln in enumerate(page.lines) if "专用章" in ln.text and not ln.text.startswith("开户行")}
    assert not seal & {i for n in fields.names() for i in fields.get(n).lines}


@pytest.mark.parametrize(("wrong", "failed"), [
    ("tax", {"net_tax_total", "items_tax"}),
    ("words", {"total_words"}),
    ("item", {"items_net", "item1_amount", "item1_tax"}),
])  # fmt: skip
def test_a_misprinted_figure_is_flagged(client: OcrClient, wrong: str, failed: set[str]) -> None:
    invoice = render_fapiao(0, "company", wrong)
    fields = extract_fields(client.recognize(encode(invoice.doc.image), f"fapiao-{wrong}.png"))
    assert {n: fields.value(n) for n in invoice.truth} == invoice.truth
    assert {c.name for c in fields.checks if not c.ok} - {"tax_rate"} == failed
    flagged = next(iter(sorted(failed)))
    assert fields.flagged and any(flagged in fields.flags(n) for n in fields.names())


def test_the_qr_code_confirms_the_ocr_read_fields(client: OcrClient) -> None:
    invoice = render_fapiao(1, "scanned")
    fields = extract_fields(client.recognize(encode(invoice.doc.image), "fapiao-qr.png"))
    checked, qr = cross_check_image(fields, invoice.doc.image)
    assert qr is not None and qr.text == invoice.qr_text
    qr_checks = {c.name: c.ok for c in checked.checks if c.name.startswith("qr_")}
    assert qr_checks == {f"qr_{n}": True for n in ("invoice_code", "number", "net", "date", "check_code")}
    assert not checked.flagged, checked.all_flags()
