"""The expense report PDF, read back with pypdfium2: pages, the cover's totals against the receipt
pages' totals per currency, CJK text, receipts left out."""

from __future__ import annotations

import datetime
import re
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from scanner_app.core.accounting.report import money, report_totals, write_report
from scanner_app.core.accounting.report_text import report_fonts, wrap
from tests.core.accounting.receipts import receipt, sample

TOTAL = re.compile(r"^Total ([A-Z]{3}) (-?[\d,]+\.\d{2})$", re.MULTILINE)


def _pages(path: Path) -> list[str]:
    document = pdfium.PdfDocument(path)
    try:
        return [page.get_textpage().get_text_range().replace("\r\n", "\n") for page in document]
    finally:
        document.close()


def _flat(text: str) -> str:
    return " ".join(text.split())


def _page_totals(pages: list[str]) -> dict[str, Decimal]:
    sums: dict[str, Decimal] = defaultdict(Decimal)
    for text in pages:
        for currency, value in TOTAL.findall(text):
            sums[currency] += Decimal(value.replace(",", ""))
    return dict(sums)


def test_cover_then_one_page_per_receipt_and_the_sums_agree(tmp_path: Path) -> None:
    receipts = sample()
    summary = write_report(receipts, tmp_path / "report.pdf", claimant="李雷 (Li Lei)")
    pages = _pages(summary.path)
    assert summary.written == 7 and [(s.receipt_id, s.reason) for s in summary.skipped] == [(3, "no total")]
    assert len(pages) == 1 + summary.written and summary.notes == (f"{len(pages)} pages",)
    cover, receipt_pages = pages[0], pages[1:]
    assert "Claimant: 李雷 (Li Lei)" in cover and "Period: 2026-03-01 to 2026-03-08" in cover
    assert "Receipts: 7 (1 left out, listed below)" in cover and "Receipt 3: no total" in cover
    expected = {"EUR": Decimal("355.80"), "MYR": Decimal("43.80"), "CNY": Decimal("45.50")}
    assert _page_totals(receipt_pages) == expected  # each receipt page prints its total once
    totals = report_totals([(r, r.currency or "") for r in receipts if r.total is not None])
    assert totals.by_currency == expected  # never one sum across currencies
    for currency, total in expected.items():
        assert f"{currency} {totals.count_by_currency[currency]} {money(total, currency)}" in cover
    categories = {
        ("Meals", "EUR"): "127.20",
        ("Office", "EUR"): "-21.40",
        ("Travel", "EUR"): "250.00",
        ("Meals", "MYR"): "31.80",
        ("Travel", "MYR"): "12.00",
        ("Travel", "CNY"): "45.50",
    }
    assert {k: str(v) for k, v in totals.by_category.items()} == categories
    for (category, currency), value in categories.items():
        assert f"{category} {currency} {value}" in cover
    sums: dict[str, Decimal] = defaultdict(Decimal)
    for (_, currency), value in totals.by_category.items():
        sums[currency] += value
    assert sums == expected


def test_receipt_pages_show_fields_cjk_text_and_placeholders(tmp_path: Path) -> None:
    pages = _pages(write_report(sample(), tmp_path / "report.pdf").path)
    first, cjk, refund, broken = pages[1], pages[2], pages[3], pages[4]
    assert "Receipt 1 of 7" in first and 'Vendor Bäckerei "Müller"; Inh. Schmidt & Co Date' in _flat(first)
    assert "Tax EUR 19.00 (19 %)" in first and "no image" not in first  # its image is drawn
    assert "Vendor 星巴克咖啡 Starbucks ?" in cjk and "拿铁 x2 ☕" in cjk and "no image" in cjk  # emoji: ?
    assert "Total EUR -21.40" in refund
    assert "image unreadable" in broken and "Number -" in broken


def test_two_receipts_to_a_page_a_given_period_and_receipts_left_out(tmp_path: Path) -> None:
    receipts = [*sample(), receipt(9, currency=None)]
    period = (datetime.date(2026, 1, 1), datetime.date(2026, 3, 31))
    summary = write_report(receipts, tmp_path / "report.pdf", per_page=2, period=period)
    pages = _pages(summary.path)
    assert len(pages) == 1 + 4  # 7 receipts, two to a page
    assert "Period: 2026-01-01 to 2026-03-31" in pages[0] and "Receipt 9: no currency" in pages[0]
    assert pages[4].count("Receipt 7 of 7") == 1 and "Receipt 6 of 7" in pages[3]
    with_default = write_report(receipts, tmp_path / "b.pdf", default_currency="EUR")
    assert with_default.written == 8
    with pytest.raises(ValueError):
        write_report(receipts, tmp_path / "c.pdf", per_page=3)  # type: ignore[arg-type]


def test_no_receipts_gives_a_cover_alone(tmp_path: Path) -> None:
    summary = write_report([receipt(1, total=None)], tmp_path / "report.pdf")
    pages = _pages(summary.path)
    assert len(pages) == 1 and "Receipts: 0" in pages[0] and "Period: -" in pages[0]


def test_fonts_and_wrapping() -> None:
    fonts = report_fonts()
    assert fonts.for_text("Café") == fonts.latin and fonts.for_text("Café", bold=True) == fonts.bold
    assert fonts.for_text("咖啡") == fonts.cjk == fonts.for_text("Москва")
    lines = wrap("一二三四五六七八九十" * 10, fonts.cjk, 10, 60, 3)
    assert len(lines) == 3 and lines[-1].endswith("...")
    assert wrap("short text", fonts.latin, 10, 200, 3) == ["short text"]
