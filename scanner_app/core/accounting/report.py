"""The expense report PDF (reportlab): a cover with the claimant, period, count and totals, then
each receipt with its image and fields, one or two to an A4 page (no Qt).

Totals are per currency, never across currencies, and by category within a currency. They are
computed once (:func:`report_totals`) from the receipts' totals in cents, the same values the
receipt pages print, and checked to add up before anything is drawn. A receipt without a total
or a currency (after ``default_currency``) is left out of the report, listed on the cover.
"""

from __future__ import annotations

import datetime
import io
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Literal

from PIL import Image
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from scanner_app.core.accounting.common import ExportSummary, Skipped, cents, currency_of
from scanner_app.core.accounting.records import AccountingReceipt
from scanner_app.core.accounting.report_text import ReportFonts, fit, printable, report_fonts, wrap
from scanner_app.core.atomic_write import atomic_path

PAGE_W, PAGE_H = A4
MARGIN = 40.0
UNCATEGORISED = "(uncategorised)"
GREY = 0.45


@dataclass(frozen=True)
class ReportTotals:
    """The report's sums: per currency, per (category, currency), receipts per currency, the period."""

    by_currency: Mapping[str, Decimal]
    by_category: Mapping[tuple[str, str], Decimal]
    count_by_currency: Mapping[str, int]
    period: tuple[datetime.date, datetime.date] | None


def money(value: Decimal, currency: str) -> str:
    """``"MYR 1,234.50"``, a refund ``"MYR -12.00"``."""
    return f"{currency} {value:,.2f}"


def report_totals(receipts: Sequence[tuple[AccountingReceipt, str]]) -> ReportTotals:
    """The totals of (receipt, currency) pairs whose receipts all have a total; checked to add up."""
    by_currency: dict[str, Decimal] = defaultdict(Decimal)
    by_category: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    counts: dict[str, int] = defaultdict(int)
    for receipt, currency in receipts:
        if receipt.total is None:
            raise ValueError(f"receipt {receipt.id} has no total")
        value = cents(receipt.total)
        by_currency[currency] += value
        by_category[(printable(receipt.category) or UNCATEGORISED, currency)] += value
        counts[currency] += 1
    for currency, total in by_currency.items():
        parts = sum((v for (_, c), v in by_category.items() if c == currency), Decimal())
        if parts != total:  # one source, so never: a guard against a change that splits them
            raise AssertionError(f"{currency}: categories add up to {parts}, not {total}")
    dates = [r.date for r, _ in receipts if r.date is not None]
    return ReportTotals(
        dict(sorted(by_currency.items())), dict(sorted(by_category.items())), dict(sorted(counts.items())),
        (min(dates), max(dates)) if dates else None,
    )  # fmt: skip


class _Writer:
    """A canvas and a cursor: text lines that flow onto a new page at the bottom margin."""

    def __init__(self, canvas: Canvas, fonts: ReportFonts) -> None:
        self.canvas, self.fonts = canvas, fonts
        self.y = PAGE_H - MARGIN
        self.pages = 1

    def text(self, x: float, y: float, text: str, size: float = 10, bold: bool = False,
             width: float | None = None, right: bool = False, centre: bool = False) -> None:  # fmt: skip
        text = printable(text)
        font = self.fonts.for_text(text, bold)
        text = fit(text, font, size, width) if width else text
        self.canvas.setFont(font, size)
        draw = self.canvas.drawRightString if right else self.canvas.drawString
        (self.canvas.drawCentredString if centre else draw)(x, y, text)

    def line(self, text: str, size: float = 10, bold: bool = False, gap: float = 4) -> None:
        if self.y - size < MARGIN:
            self.new_page()
        self.y -= size
        self.text(MARGIN, self.y, text, size, bold, PAGE_W - 2 * MARGIN)
        self.y -= gap

    def row(self, cells: Sequence[tuple[str, float, bool]], size: float = 10, bold: bool = False) -> None:
        """One table row: (text, x from the margin, right-aligned at x) per cell."""
        if self.y - size < MARGIN:
            self.new_page()
        self.y -= size
        for text, x, right in cells:
            self.text(MARGIN + x, self.y, text, size, bold, right=right)
        self.y -= 4

    def new_page(self) -> None:
        self.footer()
        self.canvas.showPage()
        self.pages += 1
        self.y = PAGE_H - MARGIN

    def footer(self) -> None:
        self.canvas.setFillGray(GREY)
        self.text(PAGE_W - MARGIN, MARGIN / 2, f"page {self.pages}", 8, right=True)
        self.canvas.setFillGray(0)


def _cover(w: _Writer, totals: ReportTotals, included: int, skipped: Sequence[Skipped],
           claimant: str, period: tuple[datetime.date, datetime.date] | None) -> None:  # fmt: skip
    w.line("Expense report", 20, bold=True, gap=12)
    span = period or totals.period
    w.line(f"Claimant: {claimant or '-'}", 11)
    w.line(f"Period: {span[0].isoformat()} to {span[1].isoformat()}" if span else "Period: -", 11)
    left_out = f" ({len(skipped)} left out, listed below)" if skipped else ""
    w.line(f"Receipts: {included}{left_out}", 11, gap=14)
    w.line("Totals by currency", 13, bold=True, gap=6)
    w.row([("Currency", 0, False), ("Receipts", 200, True), ("Total", 515, True)], bold=True)
    for currency, total in totals.by_currency.items():
        w.row([(currency, 0, False), (str(totals.count_by_currency[currency]), 200, True),
               (money(total, currency), 515, True)])  # fmt: skip
    w.y -= 10
    w.line("Totals by category", 13, bold=True, gap=6)
    w.row([("Category", 0, False), ("Total", 515, True)], bold=True)
    for (category, currency), total in totals.by_category.items():
        w.row([(category, 0, False), (money(total, currency), 515, True)])
    if skipped:
        w.y -= 10
        w.line("Left out of this report", 13, bold=True, gap=6)
        for item in skipped:
            w.line(f"Receipt {item.receipt_id}: {item.reason}", 10)
    w.footer()
    w.canvas.showPage()


def _image(w: _Writer, jpeg: bytes | None, x: float, y: float, width: float, height: float) -> None:
    """The receipt image fitted into the box (x, y bottom-left), or a placeholder box."""
    size = None
    if jpeg:
        try:
            with Image.open(io.BytesIO(jpeg)) as image:
                image.verify()
                size = image.size
        except (OSError, SyntaxError, ValueError):  # PIL's errors for a broken image
            size = None
    if size and size[0] > 0 and size[1] > 0 and jpeg:
        scale = min(width / size[0], height / size[1])
        dw, dh = size[0] * scale, size[1] * scale
        w.canvas.drawImage(ImageReader(io.BytesIO(jpeg)), x + (width - dw) / 2, y + height - dh, dw, dh)
        return
    w.canvas.setStrokeGray(GREY)
    w.canvas.setDash(4, 3)
    w.canvas.rect(x, y, width, height)
    w.canvas.setDash()
    w.canvas.setFillGray(GREY)
    w.text(x + width / 2, y + height / 2, "no image" if not jpeg else "image unreadable", 10, centre=True)
    w.canvas.setFillGray(0)


def _fields(receipt: AccountingReceipt, currency: str) -> list[tuple[str, str]]:
    def amount(value: Decimal | None) -> str:
        return money(cents(value), currency) if value is not None and value.is_finite() else "-"

    rate = f" ({receipt.tax_rate:g} %)" if receipt.tax_rate is not None else ""
    category = printable(receipt.category) or UNCATEGORISED
    account = f" ({receipt.account_code})" if receipt.account_code else ""
    return [
        ("Vendor", printable(receipt.vendor) or "-"),
        ("Date", receipt.date.isoformat() if receipt.date else "-"),
        ("Number", printable(receipt.number) or "-"),
        ("Category", category + account),
        ("Total", amount(receipt.total)),
        ("Tax", amount(receipt.tax) + rate),
        ("Net", amount(receipt.net)),
        ("Source", f"{printable(receipt.source_path)}, page {receipt.page}"),
    ]


def _receipt(w: _Writer, receipt: AccountingReceipt, currency: str, top: float, height: float, n: int,
             count: int) -> None:  # fmt: skip
    """One receipt in the band from ``top`` down ``height`` points: heading, image left, fields right."""
    inner = PAGE_W - 2 * MARGIN
    w.text(MARGIN, top - 14, f"Receipt {n} of {count}", 13, bold=True)
    w.canvas.setFillGray(GREY)
    w.text(MARGIN + inner, top - 14, f"id {receipt.id}", 9, right=True)
    w.canvas.setFillGray(0)
    image_w = inner * 0.48
    _image(w, receipt.image_jpeg, MARGIN, top - height + 10, image_w, height - 40)
    x, label_w = MARGIN + image_w + 16, 70.0
    value_w = inner - image_w - 16 - label_w
    y = top - 40
    texts = [(label, value, 10.0, 2) for label, value in _fields(receipt, currency)]
    notes = (("Description", receipt.description), ("Note", receipt.note))
    texts += [(label, printable(text), 9.0, 6) for label, text in notes if printable(text)]
    for label, value, size, max_lines in texts:
        w.text(x, y, label, 9, bold=True)
        for part in wrap(value, w.fonts.for_text(value), size, value_w, max_lines):
            w.text(x + label_w, y, part, size)
            y -= size + 3
        y -= 4


def write_report(
    receipts: Sequence[AccountingReceipt],
    path: Path,
    *,
    claimant: str = "",
    period: tuple[datetime.date, datetime.date] | None = None,
    per_page: Literal[1, 2] = 1,
    default_currency: str | None = None,
    title: str = "Expense report",
) -> ExportSummary:
    """Write the report: the cover (claimant, ``period`` or the receipts' first and last date,
    count, totals by currency and by category), then ``per_page`` receipts to a page."""
    if per_page not in (1, 2):
        raise ValueError(f"one or two receipts to a page, not {per_page}")
    skipped: list[Skipped] = []
    included: list[tuple[AccountingReceipt, str]] = []
    for receipt in receipts:
        currency = currency_of(receipt, default_currency)
        if receipt.total is None or not receipt.total.is_finite():
            skipped.append(Skipped(receipt.id, "no total"))
        elif currency is None:
            skipped.append(Skipped(receipt.id, "no currency"))
        else:
            included.append((receipt, currency))
    totals = report_totals(included)
    target = Path(path)
    with atomic_path(target) as tmp:
        canvas = Canvas(str(tmp), pagesize=A4, pageCompression=1)
        canvas.setCreator("scanner-app")
        canvas.setTitle(title)
        canvas.setAuthor(claimant)
        w = _Writer(canvas, report_fonts())
        _cover(w, totals, len(included), skipped, claimant, period)
        band = (PAGE_H - 2 * MARGIN) / per_page
        for i, (receipt, currency) in enumerate(included):
            slot = i % per_page
            if slot == 0:
                w.pages += 1
            _receipt(w, receipt, currency, PAGE_H - MARGIN - slot * band, band, i + 1, len(included))
            if slot == per_page - 1 or i == len(included) - 1:
                w.footer()
                canvas.showPage()
        canvas.save()
    return ExportSummary(target, len(included), tuple(skipped), (f"{w.pages} pages",))
