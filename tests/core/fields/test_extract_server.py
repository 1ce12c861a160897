"""Fields read back through the real server: generated Chinese VAT and English invoices."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from scanner_app.core.client.triton import OcrClient
from scanner_app.core.fields import extract_fields
from scanner_app.samples.documents import encode
from scanner_app.samples.invoices import RenderedInvoice, render_en_invoice, render_vat_invoice
from scanner_app.server.embedded import EmbeddedServer

VAT_FIELDS = ("invoice_code", "number", "date", "buyer_name", "buyer_tax_id", "seller_name", "seller_tax_id",
              "vendor", "net", "tax", "total", "total_words", "tax_rate", "currency")  # fmt: skip
EN_FIELDS = ("vendor", "address", "number", "date", "net", "tax", "tax_rate", "total", "currency")


@pytest.fixture(scope="module")
def client(triton: EmbeddedServer) -> Iterator[OcrClient]:
    with OcrClient(triton.grpc_url) as ocr:
        ocr.connect()
        yield ocr


def _read(client: OcrClient, invoice: RenderedInvoice, name: str):
    page = client.recognize(encode(invoice.doc.image), name)
    return page, extract_fields(page)


@pytest.mark.parametrize("seed", [0, 1])
def test_vat_invoice_every_field_read_back(client: OcrClient, seed: int) -> None:
    invoice = render_vat_invoice(seed)
    page, fields = _read(client, invoice, f"vat-{seed}.png")
    got = {name: fields.value(name) for name in VAT_FIELDS}
    assert got == {name: invoice.truth[name] for name in VAT_FIELDS}, page.text
    assert fields.kind == "vat_invoice" and fields.language == "zh"
    assert all(c.ok for c in fields.checks) and {c.name for c in fields.checks} >= {
        "net_tax_total",
        "total_words",
        "buyer_tax_id_checksum",
        "seller_tax_id_checksum",
    }
    for name in VAT_FIELDS:  # every field points at the lines it was read from
        assert fields.get(name).lines, name
        assert all(0 <= i < len(page.lines) for i in fields.get(name).lines)


def test_vat_invoice_with_disagreeing_totals_is_flagged(client: OcrClient) -> None:
    truth = render_vat_invoice(2).truth
    invoice = render_vat_invoice(2, words_total=Decimal(truth["total"]) + 10)
    _, fields = _read(client, invoice, "vat-mismatch.png")
    assert fields.value("total") == truth["total"]
    failed = [c for c in fields.checks if not c.ok]
    assert [c.name for c in failed] == ["total_words"], [c.message for c in fields.checks]
    assert "total_words" in fields.flags("total") and "total_words" in fields.flags("total_words")
    assert fields.flagged


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_english_invoice_every_field_read_back(client: OcrClient, seed: int) -> None:
    invoice = render_en_invoice(seed)  # the seed picks one of five date styles
    page, fields = _read(client, invoice, f"en-{seed}.png")
    got = {name: fields.value(name) for name in EN_FIELDS}
    assert got == {name: invoice.truth[name] for name in EN_FIELDS}, page.text
    assert not fields.all_flags(), [c.message for c in fields.checks]


def test_scan_fields_adds_fields_to_json_and_csv(triton: EmbeddedServer, tmp_path: Path) -> None:
    invoices = {"en.png": render_en_invoice(7), "vat.png": render_vat_invoice(7)}
    for name, invoice in invoices.items():
        (tmp_path / name).write_bytes(encode(invoice.doc.image))
    out, pages = tmp_path / "out", tmp_path / "pages"
    command = [sys.executable, "-m", "scanner_app.cli", "scan", str(tmp_path / "en.png"),
               str(tmp_path / "vat.png"), "--server", triton.grpc_url, "--fields", "--out", str(out),
               "--json", str(pages), "--quiet"]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    for name, invoice in invoices.items():
        page = json.loads((pages / f"{Path(name).stem}.json").read_text(encoding="utf-8"))
        values = {k: v["value"] for k, v in page["fields"]["fields"].items()}
        assert {k: values.get(k) for k in invoice.truth} == invoice.truth
        stored = next(f for f in results["files"] if f["source"].endswith(name))
        assert stored["pages"][0]["fields"] == page["fields"]
    with open(out / "results_fields.csv", encoding="utf-8-sig", newline="") as handle:
        rows = {Path(r["file"]).name: r for r in csv.DictReader(handle)}
    assert rows["vat.png"]["vendor"] == invoices["vat.png"].truth["seller_name"]
    assert rows["en.png"]["total"] == invoices["en.png"].truth["total"] and rows["en.png"]["flags"] == ""
