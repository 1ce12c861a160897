"""E-invoice files read exactly, no server: the 数电票 XML by its public element names, OFD packages
(text objects as lines with boxes; fields from the attached XML or from custom tags), bad files
named with their cause, and the QR payload kept with a page so a person's edit re-runs qr_* checks."""

from __future__ import annotations

import dataclasses
import zipfile
from pathlib import Path

import pytest

from scanner_app.core import images
from scanner_app.core.batch.runner import text_layer_result
from scanner_app.core.errors import UnreadableFile
from scanner_app.core.fields import extract_fields
from scanner_app.core.fields.exact import EXACT_RAW
from scanner_app.core.fields.model import InvoiceFields
from scanner_app.core.fields.page_codes import with_codes
from scanner_app.core.results import PageResult
from scanner_app.samples.einvoice import TRUTH, einvoice_ofd, einvoice_xml
from scanner_app.samples.fapiao import render_fapiao
from scanner_app.samples.invoices import perfect_page

TAGGED = ("number", "date", "buyer_name", "buyer_tax_id", "seller_name", "seller_tax_id", "net", "tax",
          "total")  # fmt: skip


def _page(path: Path) -> PageResult:
    pages = list(images.iter_pages(path))
    assert len(pages) == 1
    result = text_layer_result(pages[0])
    assert result is not None
    return result


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {"xml": tmp_path / "invoice.xml"}
    out["xml"].write_bytes(einvoice_xml())
    for carry in ("attachment", "tags", "none"):
        out[carry] = tmp_path / f"invoice_{carry}.ofd"
        out[carry].write_bytes(einvoice_ofd(carry=carry))
    return out


@pytest.mark.parametrize("kind", ["xml", "attachment"])
def test_every_field_is_read_exactly(files: dict[str, Path], kind: str) -> None:
    page = _page(files[kind])
    fields = extract_fields(page)
    assert {n: fields.value(n) for n in TRUTH} == TRUTH
    assert fields.kind == "vat_invoice" and page.source == "text-layer"
    assert all(f.confidence == 1.0 and f.raw == EXACT_RAW for f in fields.fields.values())
    assert all(c.ok for c in fields.checks)
    assert {"net_tax_total", "total_words"} <= {c.name for c in fields.checks}
    assert not fields.flagged


def test_custom_tags_point_at_the_value_objects(files: dict[str, Path]) -> None:
    page = _page(files["tags"])
    fields = extract_fields(page)
    assert {n: fields.value(n) for n in TAGGED} == {n: TRUTH[n] for n in TAGGED}
    for name in TAGGED:  # each exact field points at the line showing it
        (index,) = fields.get(name).lines
        assert TRUTH[name] in page.lines[index].text


def test_ofd_text_objects_are_lines_boxed_in_page_pixels(files: dict[str, Path]) -> None:
    page = next(iter(images.iter_pages(files["none"])))
    result = text_layer_result(page)
    assert result is not None and page.image.size == (1240, 827)  # 210 x 140 mm at 150 dpi
    by_text = {ln.text: ln for ln in result.lines}
    number = by_text[TRUTH["number"]]
    x0, y0 = number.box[0]
    assert x0 == pytest.approx((140 + 3.2 * 5 + 1) * 150 / 25.4) and y0 == pytest.approx(12 * 150 / 25.4)
    right, bottom = number.box[2]
    crop = page.image.convert("L").crop((round(x0), round(y0), round(right), round(bottom)))
    assert crop.getextrema()[0] < 100  # the drawn page shows the text inside its box
    assert not result.exact_fields  # no attachment, no tags: fields come from the lines
    fields = extract_fields(result)
    assert fields.kind == "vat_invoice" and fields.value("number") == TRUTH["number"]


def test_xml_and_ofd_are_discovered_inputs(files: dict[str, Path], tmp_path: Path) -> None:
    found, skipped = images.discover([tmp_path])
    assert sorted(p.name for p in found) == sorted(p.name for p in files.values()) and not skipped
    assert images.count_pages(files["xml"]) == 1


@pytest.mark.parametrize(
    ("name", "data", "cause"),
    [
        ("other.xml", b"<Invoice><ID>1</ID></Invoice>", "not a fully digital invoice"),
        ("broken.xml", b"<EInvoice><Header>", "not well-formed XML"),
        ("notzip.ofd", b"hello", "not a ZIP package"),
    ],
)
def test_bad_files_are_named_with_their_cause(tmp_path: Path, name: str, data: bytes, cause: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(UnreadableFile, match=cause) as info:
        list(images.iter_pages(path))
    assert str(path) in str(info.value)


def test_an_ofd_without_its_parts_is_named(tmp_path: Path) -> None:
    path = tmp_path / "hollow.ofd"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("OFD.xml", '<ofd:OFD xmlns:ofd="x"><ofd:DocBody><ofd:DocRoot>Doc_0/Document.xml'
                    "</ofd:DocRoot></ofd:DocBody></ofd:OFD>")  # fmt: skip
    with pytest.raises(UnreadableFile, match=r"part Doc_0/Document\.xml is missing"):
        list(images.iter_pages(path))


def test_the_qr_payload_stays_with_the_page_and_with_an_edit() -> None:
    invoice = render_fapiao(3, "standard")
    page = with_codes(perfect_page(invoice.doc), invoice.doc.image)
    assert page.codes == (invoice.qr_text,)
    assert PageResult.from_json(page.to_json()).codes == page.codes  # stored with the page
    fields = extract_fields(page)
    assert fields.qr == invoice.qr_text and InvoiceFields.from_json(fields.to_json()).qr == invoice.qr_text
    qr_checks = [c for c in fields.checks if c.name.startswith("qr_")]
    assert qr_checks and all(c.ok for c in qr_checks) and "qr_number" in {c.name for c in qr_checks}
    edited = fields.with_value("number", "12345678")
    (check,) = [c for c in edited.checks if c.name == "qr_number"]
    assert not check.ok and "12345678" in check.message and "qr_number" in edited.flags("number")
    assert all(c.ok for c in edited.checks if c.name.startswith("qr_") and c.name != "qr_number")
    back = edited.with_value("number", invoice.truth["number"])
    assert [c.ok for c in back.checks if c.name == "qr_number"] == [True]


def test_other_pages_are_not_decoded() -> None:
    receipt = PageResult("r.png", 10, 10)
    assert with_codes(receipt, lambda: pytest.fail("decoded a page that is no VAT invoice")) is receipt


def test_a_misread_corrected_by_the_qr_stays_flagged_after_another_edit() -> None:
    invoice = render_fapiao(2, "company")
    number = invoice.truth["number"]
    wrong = number[:-1] + str((int(number[-1]) + 3) % 10)
    page = perfect_page(invoice.doc)
    page = dataclasses.replace(page, lines=tuple(dataclasses.replace(ln, text=ln.text.replace(number, wrong))
                                                 for ln in page.lines))  # fmt: skip
    fields = extract_fields(with_codes(page, invoice.doc.image))
    assert fields.value("number") == number and "qr_number" in fields.flags("number")
    edited = fields.with_value("buyer_name", "某某")
    assert "qr_number" in edited.flags("number")
