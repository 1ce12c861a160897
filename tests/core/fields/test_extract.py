"""Field extraction on line lists, rules as data, vendor templates (no server)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from scanner_app.core.fields import LOW_CONFIDENCE, InvoiceFields, extract_fields
from scanner_app.core.fields.rules import ENV_VAR, RulesError, builtin_dir, default_rules, load_rules
from scanner_app.samples.invoices import render_en_invoice, render_vat_invoice
from tests.helpers.fields import page_from_rows, page_of

RECEIPT = [
    ("tan woon yann", 70, 20),  # a prominent line that is not the vendor
    ("KEDAI MAJU JAYA SDN BHD", 60, 80),
    ("(123456-X)", 140, 105),
    ("NO. 12, JALAN MERANTI 3,", 70, 130),
    ("81100 JOHOR BAHRU, JOHOR.", 60, 155),
    ("TEL: 07-3321234", 90, 180),
    ("TAX INVOICE", 120, 220),
    ("Invoice No: KM-000981", 20, 260),
    ("Date: 05/11/2019 14:02", 20, 285),
    ("MILO 1KG", 20, 330), ("2 X 18.90", 250, 330), ("37.80", 450, 330),
    ("Sub Total (Excl GST)", 20, 380), ("35.66", 450, 380),
    ("GST 6%", 20, 405), ("2.14", 460, 405),
    ("TOTAL AMT", 20, 430), ("RM", 350, 430), ("37.80", 450, 430),
    ("Rounding Adj", 20, 455), ("-0.00", 450, 455),
    ("CASH", 20, 500), ("50.00", 450, 500),
    ("Thank you, please come again", 60, 560),
]  # fmt: skip


def test_receipt_fields_from_lines() -> None:
    fields = extract_fields(page_from_rows(RECEIPT))
    values = {n: fields.value(n) for n in ("vendor", "address", "number", "date", "net", "tax", "tax_rate",
                                           "total", "currency")}  # fmt: skip
    assert values == {
        "vendor": "KEDAI MAJU JAYA SDN BHD", "address": "NO. 12, JALAN MERANTI 3, 81100 JOHOR BAHRU, JOHOR.",
        "number": "KM-000981", "date": "2019-11-05", "net": "35.66", "tax": "2.14", "tax_rate": "6%",
        "total": "37.80", "currency": "MYR",
    }  # fmt: skip
    assert fields.get("vendor").lines == (1,) and fields.get("address").lines == (3, 4)
    assert fields.get("total").lines == (16, 18)  # the label and its amount
    assert not [c.name for c in fields.checks if not c.ok]
    # lines read at 0.99: address and rate (0.9x their lines) stay above the one threshold (0.80); a
    # currency inferred from "RM" (0.7x) is worth a look
    assert min(fields.get("address").confidence, fields.get("tax_rate").confidence) >= LOW_CONFIDENCE
    assert fields.all_flags() == ["currency:low_confidence"]


def test_chinese_receipt_from_lines() -> None:
    rows = [("华联超市（中关村店）", 150, 20), ("地址：北京市海淀区中关村大街1号", 60, 60),
            ("电话：010-62345678", 60, 90), ("单号：20240315001", 20, 140),
            ("日期：2024-03-15 12:30", 20, 170), ("牛奶", 20, 220), ("12.50", 450, 220),
            ("面包", 20, 250), ("8.30", 450, 250), ("合计：20.80", 20, 300), ("实收：50.00", 20, 330),
            ("找零：29.20", 20, 360), ("谢谢惠顾", 200, 420)]  # fmt: skip
    fields = extract_fields(page_from_rows(rows))
    got = {n: fields.value(n) for n in ("vendor", "number", "date", "total", "currency")}
    assert got == {"vendor": "华联超市(中关村店)", "number": "20240315001", "date": "2024-03-15",
                   "total": "20.80", "currency": ""}  # fmt: skip
    assert fields.language == "zh" and fields.kind == "receipt"


def test_rounding_printed_below_the_total_is_applied() -> None:
    rows = [("SHOP ENTERPRISE", 60, 20), ("Total", 20, 300), ("60.31", 450, 300),
            ("Rounding Adj", 20, 325), ("-0.01", 450, 325), ("RM", 300, 350), ("60.30", 450, 350),
            ("Cash", 20, 375), ("70.30", 450, 375)]  # fmt: skip
    fields = extract_fields(page_from_rows(rows))
    assert fields.value("total") == "60.30" and fields.value("rounding") == "-0.01"
    assert 6 in fields.get("total").lines


def test_due_date_is_not_the_invoice_date_and_weights_pick_grand_total() -> None:
    rows = [("ACME TRADING LTD", 20, 20), ("Due Date: 30/04/2024", 20, 100),
            ("Invoice Date: 31/03/2024", 20, 125),
            ("Total", 20, 300), ("0.00", 450, 300), ("Grand Total", 20, 330), ("1,250.00", 450, 330),
            ("Total Qty 7", 20, 360)]  # fmt: skip
    fields = extract_fields(page_from_rows(rows))
    assert fields.value("date") == "2024-03-31" and fields.value("total") == "1250.00"


def test_missing_and_unsure_fields_are_flagged() -> None:
    fields = extract_fields(page_from_rows([("hello world", 20, 20), ("no amounts here", 20, 60)]))
    flags = set(fields.all_flags())
    assert {"date:missing", "total:missing"} <= flags
    assert fields.flags("vendor") in (["missing"], ["low_confidence"])  # a lower-case line is no sure vendor


@pytest.mark.parametrize("seed", range(8))
def test_generated_invoices_read_from_their_true_lines(seed: int) -> None:
    for invoice in (render_vat_invoice(seed), render_en_invoice(seed)):
        fields = extract_fields(page_of(invoice.doc))
        assert {k: fields.value(k) for k in invoice.truth} == invoice.truth
        assert not fields.all_flags(), fields.all_flags()


def test_disagreeing_totals_and_bad_tax_id_are_flagged() -> None:
    truth = render_vat_invoice(5).truth
    invoice = render_vat_invoice(5, words_total=Decimal(truth["total"]) + Decimal("0.10"))
    fields = extract_fields(page_of(invoice.doc))
    assert [c.name for c in fields.checks if not c.ok] == ["total_words"]
    broken = fields.with_value("seller_tax_id", truth["seller_tax_id"][:-1] + "0")
    broken = broken if broken.value("seller_tax_id") != truth["seller_tax_id"] else fields.with_value(
        "seller_tax_id", truth["seller_tax_id"][:-1] + "1")  # fmt: skip
    assert "seller_tax_id_checksum" in broken.flags("seller_tax_id")


def test_an_edit_reruns_the_checks() -> None:
    fields = extract_fields(page_of(render_en_invoice(1).doc))
    edited = fields.with_value("total", "1.00")
    assert "net_tax_total" in edited.flags("total") and edited.get("total").edited
    fixed = edited.with_value("total", fields.value("total"))
    assert not fixed.all_flags()
    assert InvoiceFields.from_json(json.loads(json.dumps(fixed.to_json()))).to_json() == fixed.to_json()


def test_builtin_rules_load_and_merge() -> None:
    assert (builtin_dir() / "en.json").is_file() and (builtin_dir() / "zh.json").is_file()
    rules = load_rules([builtin_dir()])
    assert any(k.text == "价税合计" for k in rules.words("total"))
    assert any(k.text == "grand total" for k in rules.words("total"))
    assert rules.currencies["RM"] == "MYR" and rules.date_order == "DMY"


def test_user_rules_and_vendor_template(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "vendors").mkdir()
    (tmp_path / "fr.json").write_text(json.dumps({"keywords": {"total": [["net à payer", 10]]}}), "utf-8")
    (tmp_path / "vendors" / "kedai.json").write_text(json.dumps({
        "name": "Kedai Maju", "match": ["KEDAI\\s+MAJU"], "date_order": "MDY",
        "fields": {"currency": "SGD"}, "patterns": {"number": ["Invoice No: (?P<value>KM-\\d+)"]},
    }), "utf-8")  # fmt: skip
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    rules = default_rules()
    assert any(k.text == "net à payer" for k in rules.words("total"))
    fields = extract_fields(page_from_rows(RECEIPT), rules)
    assert fields.template == "Kedai Maju" and fields.value("currency") == "SGD"
    assert fields.value("date") == "2019-05-11"  # the template reads dates month first
    page = page_from_rows([("MAISON DUPONT SARL", 20, 20), ("Net à payer", 20, 200), ("99,50", 400, 200)])
    assert extract_fields(page, rules).value("total") == "99.50"


@pytest.mark.parametrize(
    ("content", "cause"),
    [("{not json", "cannot read rules"), ('["a list"]', "JSON object"),
     ('{"keywords": {"total": [3]}}', "bad entry"), ('{"patterns": {"number": ["("]}}', "patterns.number")],
)  # fmt: skip
def test_broken_rules_file_names_file_and_cause(tmp_path: Path, content: str, cause: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, "utf-8")
    with pytest.raises(RulesError, match=cause) as info:
        load_rules([tmp_path])
    assert str(path) in str(info.value)
