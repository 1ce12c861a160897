"""``scanner-app scan --fields`` end to end through the real Triton server: a rendered fapiao whose
QR code agrees with its print (confirmed), one whose QR code disagrees (corrected and flagged, and
still flagged after a person's edit in the store), a receipt (never decoded), a 数电票 XML and OFD
files (read exactly, not sent to the server)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import qrcode
from PIL import Image

from scanner_app.core.batch.fields import page_rows
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore
from scanner_app.samples.documents import encode, render_invoice
from scanner_app.samples.einvoice import TRUTH, einvoice_ofd, einvoice_xml
from scanner_app.samples.fapiao import render_fapiao
from scanner_app.server.embedded import EmbeddedServer

QR_FIELDS = ("invoice_code", "number", "net", "date", "check_code")
QR_BOX = (28, 14, 92)  # where render_fapiao prints its QR code (x, y, side) on the standard layout


def _with_qr(image: Image.Image, text: str) -> Image.Image:
    """The fapiao with another QR code printed over its own."""
    qr = qrcode.QRCode(border=1, box_size=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(text)
    picture = qr.make_image(fill_color="black", back_color="white").get_image().convert("RGB")
    x, y, side = QR_BOX
    out = image.copy()
    out.paste(picture.resize((side, side), Image.Resampling.NEAREST), (x, y))
    return out


def test_scan_fields_cross_checks_qr_and_reads_einvoices_exactly(
    triton: EmbeddedServer, tmp_path: Path
) -> None:
    inputs, out, pages = tmp_path / "in", tmp_path / "out", tmp_path / "json"
    inputs.mkdir()
    good = render_fapiao(4, "standard")
    (inputs / "good.png").write_bytes(encode(good.doc.image))
    bad = render_fapiao(5, "standard")
    number = bad.truth["number"]
    other = number[:-1] + str((int(number[-1]) + 1) % 10)
    bad_qr = bad.qr_text.replace(f",{number},", f",{other},")
    (inputs / "bad.png").write_bytes(encode(_with_qr(bad.doc.image, bad_qr)))
    (inputs / "receipt.png").write_bytes(encode(render_invoice(0).image))
    (inputs / "digital.xml").write_bytes(einvoice_xml())
    (inputs / "invoice.ofd").write_bytes(einvoice_ofd(carry="attachment"))
    (inputs / "tagged.ofd").write_bytes(einvoice_ofd(carry="tags"))
    command = [sys.executable, "-m", "scanner_app.cli", "scan", str(inputs), "--server", triton.grpc_url,
               "--out", str(out), "--json", str(pages), "--fields", "--format", "csv", "--quiet"]  # fmt: skip
    run = subprocess.run(command, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    data = {p.stem: json.loads(p.read_text()) for p in pages.glob("*.json")}
    assert set(data) == {"good", "bad", "receipt", "digital", "invoice", "tagged"}

    # the correct QR confirms every field it carries
    assert data["good"]["codes"] == [good.qr_text]
    checks = {c["name"]: c["ok"] for c in data["good"]["fields"]["checks"]}
    assert {f"qr_{n}": True for n in QR_FIELDS}.items() <= checks.items()
    assert data["good"]["fields"]["fields"]["number"]["value"] == good.truth["number"]

    # the disagreeing QR: the number takes the QR's reading, flagged, the others confirmed
    fields = data["bad"]["fields"]
    assert fields["fields"]["number"]["value"] == other
    failed = [c for c in fields["checks"] if not c["ok"]]
    assert [c["name"] for c in failed] == ["qr_number"] and number in failed[0]["message"]
    assert "number:qr_number" in fields["flags"]

    assert "codes" not in data["receipt"] and not any(
        c["name"].startswith("qr_") for c in data["receipt"]["fields"]["checks"]
    )

    # e-invoices: read exactly, never sent to the server
    for stem in ("digital", "invoice", "tagged"):
        assert data[stem]["source"] == "text-layer" and data[stem]["lines"]
        exact = data[stem]["fields"]["fields"]
        assert all(f["confidence"] == 1.0 and f["raw"] == "e-invoice" for f in exact.values())
        assert exact["total"]["value"] == TRUTH["total"] and exact["number"]["value"] == TRUTH["number"]
    for stem in ("digital", "invoice"):  # the XML, and the OFD carrying it attached
        assert {n: f["value"] for n, f in data[stem]["fields"]["fields"].items()} == TRUTH
    with (out / "results_fields.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 6 and sum(TRUTH["total"] in ",".join(r.values()) for r in rows) == 3

    # a person's edit of another field keeps the QR's verdict; an edit of the number re-runs it
    with BatchStore(out / STORE_NAME) as store:
        bad_page = next(r.pages[0] for r in store.results() if r.file.path.name == "bad.png")
        store.edit_field(bad_page.id, "buyer_name", "某某")
        (row,) = [row for pid, row in page_rows(store) if pid == bad_page.id]
        assert "qr_number" in row.fields.flags("number")
        store.edit_field(bad_page.id, "number", other)
        (row,) = [row for pid, row in page_rows(store) if pid == bad_page.id]
        assert row.fields.value("number") == other and "qr_number" not in row.fields.flags("number")


def test_desktop_page_keeps_its_qr_for_the_fields_tab(triton: EmbeddedServer, tmp_path: Path) -> None:
    """The app's own page path (document_jobs, then the Fields tab's extraction with edits)."""
    from scanner_app.core.client.triton import OcrClient
    from scanner_app.gui.document.jobs import load_page, recognize_page
    from scanner_app.gui.document.model import StoredPage
    from scanner_app.gui.fields.panel import _extract

    invoice = render_fapiao(6, "company")
    path = tmp_path / "fapiao.png"
    path.write_bytes(encode(invoice.doc.image))
    with BatchStore(tmp_path / STORE_NAME) as store, OcrClient(triton.grpc_url) as client:
        client.connect()
        done = recognize_page(client, load_page(lambda: store, path))
        assert done.result.codes == (invoice.qr_text,)
        assert store.page(done.page_id).result.codes == (invoice.qr_text,)
        stored = StoredPage(store, done.page_id)
        fields = _extract(done.result, stored, {})
        assert fields.qr == invoice.qr_text and fields.value("number") == invoice.truth["number"]
        assert all(c.ok for c in fields.checks if c.name.startswith("qr_"))
        edited = _extract(done.result, stored, {"number": "1"})  # a person's edit, checked by the QR
        assert "qr_number" in edited.flags("number")
