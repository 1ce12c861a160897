"""Rendered invoices with known fields (Pillow, no Qt): Chinese VAT invoices (a CJK font from
Debian's fonts-noto-cjk) and English invoices. Each renderer returns the page and its truth."""

from __future__ import annotations

import datetime as dt
import functools
import random
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from PIL import Image, ImageDraw, ImageFont

from scanner_app.core.fields.amounts import to_chinese_upper
from scanner_app.core.fields.uscc import CHARSET, check_char
from scanner_app.core.pdf.fonts import CJK_FONT_PACKAGE, find_cjk_font  # noqa: F401 (make_samples.py)
from scanner_app.core.results import PageResult, TextLine
from scanner_app.samples.documents import (
    CATALOG,
    CITIES,
    STREETS,
    SUFFIX,
    VENDOR_A,
    VENDOR_B,
    RenderedDoc,
    RenderedLine,
    find_font,
)

CENT = Decimal("0.01")
INK = (20, 20, 20)


@functools.lru_cache(maxsize=32)
def _font(size: int, cjk: bool) -> ImageFont.FreeTypeFont:
    if cjk:
        path, index = find_cjk_font()
        return ImageFont.truetype(str(path), size, index=index, layout_engine=ImageFont.Layout.BASIC)
    return ImageFont.truetype(str(find_font()), size, layout_engine=ImageFont.Layout.BASIC)


class Page:
    """Text items (left, right or middle aligned at a baseline) drawn onto a white page."""

    def __init__(self, width: int, cjk: bool) -> None:
        self.width, self.cjk = width, cjk
        self.items: list[tuple[float, float, str, int, str]] = []

    def text(self, x: float, y: float, text: str, size: int, align: str = "l") -> None:
        self.items.append((x, y, text, size, align + "s"))

    def render(self, height: int) -> RenderedDoc:
        image = Image.new("RGB", (self.width, height), "white")
        draw = ImageDraw.Draw(image)
        lines = []
        for x, y, text, size, anchor in self.items:
            font = _font(size, self.cjk)
            draw.text((x, y), text, font=font, fill=INK, anchor=anchor)
            box = tuple(float(v) for v in draw.textbbox((x, y), text, font=font, anchor=anchor))
            lines.append(RenderedLine(text, box))  # type: ignore[arg-type]
        return RenderedDoc(image, lines)


@dataclass(frozen=True)
class RenderedInvoice:
    """A rendered invoice and the field values a reader should extract (as extract_fields gives them)."""

    doc: RenderedDoc
    truth: dict[str, str]


def make_uscc(rng: random.Random) -> str:
    """A random unified social credit code with a correct check character (enterprise, 91...)."""
    region = rng.choice(["110105", "310115", "440300", "330106", "440106", "510107"])
    body = "".join(rng.choice(CHARSET[:10] + "ABCDEFGHJKLMNPQRTUWXY"[:6]) for _ in range(9))
    first17 = "91" + region + body
    return first17 + check_char(first17)


CN_CITIES = ("深圳市", "上海市", "北京市", "杭州市", "广州市", "成都市")
CN_NAMES = ("华信", "宏达", "星辰", "博远", "恒通", "嘉禾", "瑞丰", "安泰", "明德", "新元")
CN_TRADES = ("科技", "贸易", "信息技术", "餐饮管理", "文化传媒", "办公设备")
CN_ITEMS = (
    ("*办公用品*打印纸", "A4", "箱", 80, 160),
    ("*办公用品*签字笔", "0.5mm", "盒", 20, 60),
    ("*信息技术服务*技术服务费", "", "项", 500, 3000),
    ("*计算机配套产品*无线鼠标", "M100", "个", 40, 150),
    ("*餐饮服务*餐费", "", "次", 100, 900),
    ("*纸制品*笔记本", "B5", "本", 5, 30),
)
HEADERS = ("货物或应税劳务、服务名称", "规格型号", "单位", "数量", "单价", "金额", "税率", "税额")
CN_PEOPLE = ("王芳", "李强", "张伟", "刘洋", "陈静", "赵磊")


def _cn_company(rng: random.Random) -> str:
    return f"{rng.choice(CN_CITIES)}{rng.choice(CN_NAMES)}{rng.choice(CN_TRADES)}有限公司"


def render_vat_invoice(seed: int = 0, words_total: Decimal | None = None) -> RenderedInvoice:
    """A 增值税电子普通发票 with 2-4 items at one tax rate. ``words_total`` prints a different
    大写 amount (a page whose 大写 and 小写 totals disagree)."""
    rng = random.Random(seed)
    width, size, small = 1800, 30, 28
    page = Page(width, cjk=True)
    date = dt.date(2023, 1, 1) + dt.timedelta(days=rng.randrange(700))
    code, number = f"0{rng.randrange(10**10, 10**11)}", f"{rng.randrange(10**7, 10**8)}"
    buyer, seller = _cn_company(rng), _cn_company(rng)
    while seller == buyer:
        seller = _cn_company(rng)
    buyer_id, seller_id = make_uscc(rng), make_uscc(rng)
    rate = Decimal(rng.choice([13, 6, 9]))

    page.text(width / 2, 90, f"{rng.choice(CN_CITIES)[:2]}增值税电子普通发票", 46, "m")
    for i, text in enumerate([f"发票代码：{code}", f"发票号码：{number}",
                              f"开票日期：{date.year}年{date.month:02d}月{date.day:02d}日"]):  # fmt: skip
        page.text(1250, 170 + i * 48, text, small)
    y = 350
    page.text(60, y + 40, "购买方", size)
    page.text(220, y, f"名称：{buyer}", size)
    page.text(220, y + 52, f"纳税人识别号：{buyer_id}", size)
    page.text(
        220,
        y + 104,
        f"地址、电话：{rng.choice(CN_CITIES)}{rng.choice(CN_NAMES)}路{rng.randrange(1, 300)}号",
        size,
    )
    y = 560
    cols = (
        60,
        700,
        880,
        1060,
        1250,
        1440,
        1560,
        1740,
    )  # name, spec, unit, qty(r), price(r), amount(r), rate(r), tax(r)
    for x, text, al in zip(cols, HEADERS, "lllrrrrr", strict=True):
        page.text(x, y, text, small, al)
    net = tax = Decimal(0)
    for name, spec, unit, lo, hi in rng.sample(CN_ITEMS, rng.randint(2, 4)):
        y += 56
        qty, price = rng.randint(1, 9), Decimal(rng.randrange(lo * 100, hi * 100)) / 100
        amount = (qty * price).quantize(CENT)
        line_tax = (amount * rate / 100).quantize(CENT, rounding=ROUND_HALF_UP)
        net, tax = net + amount, tax + line_tax
        for x, text, al in zip(cols, (name, spec, unit, str(qty), f"{price:.2f}", f"{amount:.2f}", f"{rate}%",
                                      f"{line_tax:.2f}"), "lllrrrrr", strict=True):  # fmt: skip
            if text:
                page.text(x, y, text, small, al)
    total = net + tax
    y += 80
    page.text(60, y, "合计", size)
    page.text(cols[5], y, f"¥{net:.2f}", size, "r")
    page.text(cols[7], y, f"¥{tax:.2f}", size, "r")
    y += 70
    words = to_chinese_upper(words_total if words_total is not None else total)
    page.text(60, y, "价税合计（大写）", size)
    page.text(420, y, f"⊗{words}", size)
    page.text(1250, y, f"（小写）¥{total:.2f}", size)
    y += 90
    page.text(60, y + 40, "销售方", size)
    page.text(220, y, f"名称：{seller}", size)
    page.text(220, y + 52, f"纳税人识别号：{seller_id}", size)
    page.text(
        220,
        y + 104,
        f"开户行及账号：中国银行{rng.choice(CN_CITIES)}支行 {rng.randrange(10**11, 10**12)}",
        size,
    )
    y += 200
    people = rng.sample(CN_PEOPLE, 3)
    page.text(60, y, f"收款人：{people[0]}", size)
    page.text(640, y, f"复核：{people[1]}", size)
    page.text(1200, y, f"开票人：{people[2]}", size)
    truth = {
        "invoice_code": code, "number": number, "date": date.isoformat(), "buyer_name": buyer,
        "buyer_tax_id": buyer_id, "seller_name": seller, "seller_tax_id": seller_id, "vendor": seller,
        "net": f"{net:.2f}", "tax": f"{tax:.2f}", "total": f"{total:.2f}", "total_words": words,
        "tax_rate": f"{rate}%", "currency": "CNY",
    }  # fmt: skip
    return RenderedInvoice(page.render(y + 100), truth)


def _date_text(date: dt.date, style: int) -> str:
    return (f"{date:%d/%m/%Y}", f"{date:%d-%b-%y}".upper(), f"{date:%B} {date.day}, {date.year}",
            date.isoformat(), f"{date:%Y.%m.%d}")[style % 5]  # fmt: skip


def render_en_invoice(seed: int = 0) -> RenderedInvoice:
    """An English invoice: vendor and address top left, number/date/currency top right, items,
    subtotal, tax and total; the date printed in one of five styles (by seed)."""
    rng = random.Random(seed)
    width, size, pitch = 1240, 26, 44
    page = Page(width, cjk=False)
    city, currency = rng.choice(CITIES)
    date = dt.date(2023, 1, 1) + dt.timedelta(days=rng.randrange(700))
    vendor = f"{rng.choice(VENDOR_A)} {rng.choice(VENDOR_B[:4])} {rng.choice(SUFFIX)}"
    street = f"{rng.randrange(100, 9900)} {rng.choice(STREETS)}"
    number = f"INV-{date.year}-{rng.randrange(100, 100000):05d}"
    page.text(90, 120, vendor, 34)
    page.text(width - 90, 126, "INVOICE", 44, "r")
    right = [f"Invoice No: {number}", f"Date: {_date_text(date, seed)}", f"Currency: {currency}"]
    left = [street, city, f"Phone: ({rng.randrange(201, 990)}) 555-{rng.randrange(1000, 10000)}"]
    for i in range(3):
        page.text(90, 190 + i * pitch, left[i], size)
        page.text(width - 90, 190 + i * pitch, right[i], size, "r")
    y = 420
    page.text(110, y, "Description", size)
    page.text(760, y, "Qty", size, "r")
    page.text(width - 110, y, "Amount", size, "r")
    net = Decimal(0)
    for desc, _unit, lo, hi in rng.sample(CATALOG, rng.randint(3, 6)):
        y += pitch
        qty, price = rng.randint(1, 9), Decimal(rng.randrange(lo * 100, hi * 100)) / 100
        net += qty * price
        page.text(110, y, desc, size)
        page.text(760, y, str(qty), size, "r")
        page.text(width - 110, y, f"{qty * price:,.2f}", size, "r")
    rate = Decimal(rng.choice([5, 8, 10, 20]))
    tax = (net * rate / 100).quantize(CENT, rounding=ROUND_HALF_UP)
    y += 2 * pitch
    for label, value in (("Subtotal", net), (f"Tax {rate}%", tax), (f"Total {currency}", net + tax)):
        page.text(820, y, label, size)
        page.text(width - 110, y, f"{value:,.2f}", size, "r")
        y += pitch
    page.text(90, y + 60, "Thank you for your business.", size)
    truth = {
        "vendor": vendor, "address": f"{street} {city}", "number": number, "date": date.isoformat(),
        "net": f"{net:.2f}", "tax": f"{tax:.2f}", "tax_rate": f"{rate}%", "total": f"{net + tax:.2f}",
        "currency": currency,
    }  # fmt: skip
    return RenderedInvoice(page.render(y + 140), truth)


def perfect_page(doc: RenderedDoc, name: str = "doc.png") -> PageResult:
    """The page as a perfect reader would return it: true text, true boxes, score 1."""
    lines = tuple(
        TextLine(((x0, y0), (x1, y0), (x1, y1), (x0, y1)), line.text, 1.0) for line in doc.lines
        for x0, y0, x1, y1 in [line.box]
    )  # fmt: skip
    width, height = doc.image.size
    return PageResult(name, width, height, lines)
