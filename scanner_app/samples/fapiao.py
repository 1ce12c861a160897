"""Rendered 增值税电子普通发票 as they are really printed (Pillow + qrcode, no Qt): 1130x730,
letter-spaced labels in separate boxes with the value glued to the label's last character, the
vertical 购买方 / 销售方 margins, the 密码区, a QR code, the item table with the 合 计 row, and a
red seal over the seller block. Each layout returns the page and the fields a reader should give."""

from __future__ import annotations

import datetime as dt
import functools
import math
import random
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import qrcode
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from scanner_app.core.fields.amounts import to_chinese_upper
from scanner_app.samples.documents import RenderedDoc, RenderedLine
from scanner_app.samples.invoices import CN_CITIES, CN_NAMES, CN_TRADES, find_cjk_font, make_uscc

LAYOUTS = ("standard", "company", "wrapped", "scanned", "highres")
WRONG = ("tax", "words", "item")  # which printed figure a ``wrong`` page gets wrong
CENT = Decimal("0.01")
WIDTH, HEIGHT = 1130, 730
LABEL = (128, 60, 20)  # the form's brown print
INK = (10, 10, 10)  # the machine-printed values
SEAL = (225, 30, 30)

PEOPLE = ("王芳", "李强", "张伟", "刘洋", "陈静", "赵磊", "欧阳娜", "诸葛明", "司马青", "孙丽华", "周杰",
          "吴敏")  # fmt: skip
ITEMS = (  # name, spec, unit, (min, max) line amount in yuan
    ("*餐饮服务*餐费", "", "次", (30, 900)),
    ("*经纪代理服务*代订车服务费", "", "次", (5, 60)),
    ("*日用杂品*收纳盒", "大号", "个", (10, 90)),
    ("*信息技术服务*软件服务费", "", "项", (200, 3000)),
    ("*计算机配套产品*无线鼠标", "M185", "个", (40, 300)),
    ("*纸制品*笔记本", "B5", "本", (5, 60)),
    ("*运输服务*客运服务费", "", "次", (10, 200)),
    ("*办公用品*打印纸", "A4", "箱", (80, 400)),
)
LONG_ITEM = ("*信息技术服务*企业云存储及数据备份年度技术支持服务费", "", "年", (500, 5000))
BANKS = ("中国工商银行", "中国银行", "招商银行", "中国建设银行", "交通银行")
DISTRICTS = ("玄武区", "鼓楼区", "朝阳区", "浦东新区", "南山区", "天河区")
ROADS = ("中山路", "建国路", "解放大道", "人民路", "科技园路", "长江路")
CIPHER = "0123456789+-*/<>"


@dataclass(frozen=True)
class FapiaoItem:
    name: str
    spec: str
    unit: str
    quantity: str
    unit_price: str
    amount: Decimal
    rate: int
    tax: Decimal


@dataclass(frozen=True)
class RenderedFapiao:
    """A rendered fapiao, the fields a reader should extract (as extract_fields names them) and the
    text its QR code carries."""

    doc: RenderedDoc
    truth: dict[str, str]
    qr_text: str
    layout: str


@functools.lru_cache(maxsize=32)
def _font(size: int, serif: bool) -> ImageFont.FreeTypeFont:
    path, index = find_cjk_font()
    serif_path = Path(str(path).replace("Sans", "Serif"))
    if serif and serif_path.is_file():
        path = serif_path
    return ImageFont.truetype(str(path), size, index=index, layout_engine=ImageFont.Layout.BASIC)


class _Sheet:
    """Drawing with the truth kept: each ``text`` call is one recorded line (a box a perfect reader
    returns), drawn from segments of their own colour."""

    def __init__(self, serif: bool) -> None:
        self.image = Image.new("RGB", (WIDTH, HEIGHT), "white")
        self.draw = ImageDraw.Draw(self.image)
        self.serif = serif
        self.lines: list[RenderedLine] = []

    def text(self, x: float, y: float, parts: list[tuple[str, tuple[int, int, int]]], size: int,
             align: str = "l") -> None:  # fmt: skip
        """Segments drawn left to right from (x, centre y); ``align`` l/m/r on the whole run."""
        font = _font(size, self.serif)
        whole = "".join(t for t, _ in parts)
        width = self.draw.textlength(whole, font=font)
        x0 = x - width / 2 if align == "m" else x - width if align == "r" else x
        cursor = x0
        for text, colour in parts:
            self.draw.text((cursor, y), text, font=font, fill=colour, anchor="lm")
            cursor += self.draw.textlength(text, font=font)
        left, top, _, bottom = self.draw.textbbox((x0, y), whole, font=font, anchor="lm")
        self.lines.append(RenderedLine(whole, (float(left), float(top), float(x0 + width), float(bottom))))

    def label(self, x: float, y: float, label: str, value: str, size: int, gap: float = 0.0) -> None:
        """A label whose characters stand ``gap`` ems apart (one box each), the value glued to the last."""
        if gap <= 0:
            self.text(x, y, [(label, LABEL), (value, INK)], size)
            return
        font = _font(size, self.serif)
        chars = label.rstrip("：")
        step = self.draw.textlength("名", font=font) * (1 + gap)
        for i, ch in enumerate(chars[:-1]):
            self.text(x + i * step, y, [(ch, LABEL)], size)
        self.text(x + (len(chars) - 1) * step, y, [(label[len(chars) - 1 :], LABEL), (value, INK)], size)

    def vertical(self, x: float, y0: float, y1: float, text: str, size: int) -> None:
        """Characters stacked in a margin, each its own box."""
        step = (y1 - y0) / len(text)
        for i, ch in enumerate(text):
            self.text(x, y0 + (i + 0.5) * step, [(ch, LABEL)], size, "m")

    def rule(self, xy: tuple[float, float, float, float]) -> None:
        self.draw.line(xy, fill=LABEL, width=1)


def _amount_split(rng: random.Random, lo: int, hi: int) -> tuple[str, str, Decimal]:
    """Quantity, unit price (up to 8 decimals, as e-fapiao print it) and the line amount."""
    amount = Decimal(rng.randrange(lo * 100, hi * 100)) / 100
    qty = rng.choice([1, 1, 2, 3, 5])
    price = (amount / qty).quantize(Decimal("0.00000001"), rounding=ROUND_HALF_UP).normalize()
    price_text = f"{price:f}" if "." in f"{price:f}" else f"{price:f}.00"
    return str(qty), price_text, (Decimal(price_text) * qty).quantize(CENT, rounding=ROUND_HALF_UP)


def _company(rng: random.Random, city: str) -> str:
    return f"{city}{rng.choice(CN_NAMES)}{rng.choice(CN_TRADES)}{rng.choice(['有限公司', '股份有限公司'])}"


def _seal(image: Image.Image, centre: tuple[float, float], name: str, tax_id: str, serif: bool) -> list:
    """An oval red seal: the name on the top arc, the tax number across, 发票专用章 below. Returns
    the recorded lines a perfect reader would see in it."""
    cx, cy = centre
    a, b = 78, 52
    layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    colour = (*SEAL, 200)
    draw.ellipse((cx - a, cy - b, cx + a, cy + b), outline=colour, width=3)
    font = _font(15, serif)
    lines = []
    n = len(name)
    boxes = []
    for i, ch in enumerate(name):
        theta = math.radians(200 + (140 * (i + 0.5) / n))  # along the top arc, left to right
        px, py = cx + (a - 16) * math.cos(theta), cy + (b - 14) * math.sin(theta)
        glyph = Image.new("RGBA", (24, 24), (0, 0, 0, 0))
        ImageDraw.Draw(glyph).text((12, 12), ch, font=font, fill=colour, anchor="mm")
        tangent = math.degrees(math.atan2((b - 14) * math.cos(theta), -(a - 16) * math.sin(theta)))
        glyph = glyph.rotate(-tangent, resample=Image.Resampling.BICUBIC, expand=True)
        layer.alpha_composite(glyph, (int(px - glyph.width / 2), int(py - glyph.height / 2)))
        boxes.append((px - 9, py - 9, px + 9, py + 9))
    for start in range(0, n, 3):  # a perfect reader sees the arc in short tilted pieces
        part = boxes[start : start + 3]
        xs, ys = [p[0] for p in part] + [p[2] for p in part], [p[1] for p in part] + [p[3] for p in part]
        box = (min(xs), min(ys), max(xs), max(ys))
        lines.append(RenderedLine(name[start : start + 3], box))
    small = _font(12, serif)
    draw.text((cx, cy + 4), tax_id, font=small, fill=colour, anchor="mm")
    lines.append(RenderedLine(tax_id, _box(draw.textbbox((cx, cy + 4), tax_id, font=small, anchor="mm"))))
    big = _font(16, serif)
    draw.text((cx, cy + 28), "发票专用章", font=big, fill=colour, anchor="mm")
    word_box = draw.textbbox((cx, cy + 28), "发票专用章", font=big, anchor="mm")
    lines.append(RenderedLine("发票专用章", _box(word_box)))
    # Ink over ink: the seal darkens what is under it rather than covering it.
    base = image.convert("RGBA")
    tinted = Image.alpha_composite(base, layer)
    image.paste(Image.blend(base, tinted, 0.9).convert("RGB"))
    return lines


def _box(box: tuple[float, ...]) -> tuple[float, float, float, float]:
    return float(box[0]), float(box[1]), float(box[2]), float(box[3])


def _qr(image: Image.Image, text: str, box: tuple[int, int, int]) -> None:
    qr = qrcode.QRCode(border=1, box_size=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    qr.add_data(text)
    picture = qr.make_image(fill_color="black", back_color="white").get_image().convert("RGB")
    x, y, side = box
    image.paste(picture.resize((side, side), Image.Resampling.NEAREST), (x, y))


def render_fapiao(seed: int = 0, layout: str = "standard", wrong: str | None = None) -> RenderedFapiao:
    """One 增值税电子普通发票 in one of ``LAYOUTS``; ``wrong`` (one of ``WRONG``) misprints a figure:
    the 合计 tax, the 大写 total, or one item's amount (so a check must fail)."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; one of {', '.join(LAYOUTS)}")
    if wrong is not None and wrong not in WRONG:
        raise ValueError(f"unknown misprint {wrong!r}; one of {', '.join(WRONG)}")
    rng = random.Random(f"{layout}-{seed}")
    serif = layout in ("company", "scanned")
    sheet = _Sheet(serif)
    size, small = 14, 13
    dx = {"standard": 0, "company": 6, "wrapped": -4, "scanned": 3, "highres": 2}[layout]
    city = rng.choice(CN_CITIES)
    date = dt.date(2019, 1, 1) + dt.timedelta(days=rng.randrange(1500))
    code = f"0{rng.randrange(10**10, 10**11)}"
    number = f"{rng.randrange(10**7, 10**8)}"
    check = "".join(rng.choice("0123456789") for _ in range(20))
    buyer_is_company = layout == "company"
    buyer = _company(rng, rng.choice(CN_CITIES)) if buyer_is_company else rng.choice(PEOPLE)
    buyer_id = make_uscc(rng) if buyer_is_company else ""
    seller = _company(rng, city)
    while seller == buyer:
        seller = _company(rng, city)
    seller_id = make_uscc(rng)
    address = f"{city}{rng.choice(DISTRICTS)}{rng.choice(ROADS)}{rng.randrange(1, 400)}号"
    phone = f"0{rng.randrange(10, 99)}-{rng.randrange(10**7, 10**8)}"
    bank = f"{rng.choice(BANKS)}{city[:-1]}{rng.choice(['分行', '支行', '高新区支行'])}"
    account = "".join(rng.choice("0123456789") for _ in range(rng.choice([16, 19])))
    rate = rng.choice([13, 6, 9, 3, 1])

    chosen = rng.sample(ITEMS, rng.randint(1, 3))
    if layout == "wrapped":
        chosen = [LONG_ITEM, *chosen[:2]]
    items = []
    for name, spec, unit, (lo, hi) in chosen:
        qty, price, amount = _amount_split(rng, lo, hi)
        tax = (amount * rate / 100).quantize(CENT, rounding=ROUND_HALF_UP)
        items.append(FapiaoItem(name, spec, unit, qty, price, amount, rate, tax))
    net, tax = sum((i.amount for i in items), Decimal(0)), sum((i.tax for i in items), Decimal(0))
    total = net + tax
    printed_tax = tax + Decimal("0.10") if wrong == "tax" else tax
    words = to_chinese_upper(total + 1 if wrong == "words" else total)
    printed_items = list(items)
    if wrong == "item":
        first = items[0]
        printed_items[0] = FapiaoItem(first.name, first.spec, first.unit, first.quantity, first.unit_price,
                                      first.amount + 1, first.rate, first.tax)  # fmt: skip
    qr_text = f"01,10,{code},{number},{net:.2f},{date:%Y%m%d},{check},{rng.randrange(16**4):04X},"
    draw = sheet.draw

    # Header: QR code, title, code / number / date / check code.
    _qr(sheet.image, qr_text, (28, 14, 92))
    sheet.text(WIDTH / 2, 42, [(f"{city[:-1]}增值税电子普通发票", LABEL)], 26, "m")
    draw.line((420, 62, 710, 62), fill=LABEL, width=1)
    draw.line((420, 66, 710, 66), fill=LABEL, width=1)
    sheet.text(28, 118, [("机器编号：", LABEL), (f"{rng.randrange(10**11, 10**12)}", INK)], small)
    header = (("发票代码：", code), ("发票号码：", number),
              ("开票日期：", f"{date.year} 年{date.month:02d} 月{date.day:02d} 日"),
              ("校 验 码：", " ".join(check[k : k + 5] for k in range(0, 20, 5))))  # fmt: skip
    for i, (label, value) in enumerate(header):
        spacing = 0.6 if " " in label else 0
        sheet.label(800 + dx, 34 + 24 * i, label.replace(" ", ""), value, small, gap=spacing)

    top, left, right = 135, 22, 1108
    draw.rectangle((left, top, right, 650), outline=LABEL, width=2)
    margin, info_end = 48, 610
    gap = 2.0

    def party(y0: float, y1: float, title: str, rows: list[tuple[str, str, float]]) -> None:
        draw.line((margin, y0, margin, y1), fill=LABEL)
        draw.line((info_end, y0, info_end, y1), fill=LABEL)
        draw.line((info_end + 26, y0, info_end + 26, y1), fill=LABEL)
        sheet.vertical(left + 13, y0 + 6, y1 - 6, title, size)
        for k, (label, value, spacing) in enumerate(rows):
            sheet.label(margin + 8 + dx, y0 + 14 + k * 22, label, value, size, spacing)

    party(top, 235, "购买方", [("名称：", buyer, gap), ("纳税人识别号：", buyer_id, 0),
                              ("地址、电话：", "", 0), ("开户行及账号：", "", 0)])  # fmt: skip
    sheet.vertical(info_end + 13, top + 6, 229, "密码区", size)
    for k in range(4):
        cipher = "".join(rng.choice(CIPHER) for _ in range(27))
        sheet.text(info_end + 40, top + 14 + k * 22, [(cipher, INK)], size)
    draw.line((left, 235, right, 235), fill=LABEL)

    # The item table: spaced column headers, rows, the 合 计 row.
    cols = {"name": (margin + 8, 290), "spec": (290, 380), "unit": (380, 445), "qty": (445, 540),
            "price": (540, 670), "amount": (670, 800), "rate": (800, 870), "tax": (870, right)}  # fmt: skip
    headers = {"name": ("货物或应税劳务、服务名称", 0), "spec": ("规格型号", 0), "unit": ("单位", 1.2),
               "qty": ("数量", 1.2), "price": ("单价", 1.2), "amount": ("金额", 1.5), "rate": ("税率", 0),
               "tax": ("税额", 1.5)}  # fmt: skip
    hy = 250
    for key, (text, spacing) in headers.items():
        x0, x1 = cols[key]
        font = _font(size, serif)
        span = draw.textlength(text, font=font) + spacing * draw.textlength("名", font=font) * (len(text) - 1)
        sheet.label((x0 + x1) / 2 - span / 2 + dx, hy, text, "", size, spacing)
    y = hy + 24
    for item in printed_items:
        name_lines = [item.name] if len(item.name) <= 16 else [item.name[:16], item.name[16:]]
        cells = {"spec": item.spec, "unit": item.unit, "qty": item.quantity, "price": item.unit_price,
                 "amount": f"{item.amount:.2f}", "rate": f"{item.rate}%",
                 "tax": f"{item.tax:.2f}"}  # fmt: skip
        sheet.text(cols["name"][0] + dx, y, [(name_lines[0], INK)], size)
        for key, value in cells.items():
            x0, x1 = cols[key]
            if value:
                align = "m" if key in ("spec", "unit", "rate") else "r"
                x = (x0 + x1) / 2 if align == "m" else x1 - 6
                sheet.text(x + dx, y, [(value, INK)], size, align)
        for extra in name_lines[1:]:
            y += 20
            sheet.text(cols["name"][0] + dx, y, [(extra, INK)], size)
        y += 22
    sy = 462
    sheet.label(110 + dx, sy, "合计", "", size, 2.5)
    sheet.text(cols["amount"][1] - 6 + dx, sy, [(f"¥{net:.2f}", INK)], size, "r")
    sheet.text(right - 6 + dx, sy, [(f"¥{printed_tax:.2f}", INK)], size, "r")
    draw.line((left, 478, right, 478), fill=LABEL)
    sheet.text(margin - 18 + dx, 494, [("价税合计（大写）", LABEL)], size)
    sheet.text(290 + dx, 494, [("⊗", LABEL), (words, INK)], size)
    sheet.text(800 + dx, 494, [("（小写）", LABEL), (f"¥{total:.2f}", INK)], size)
    draw.line((left, 510, right, 510), fill=LABEL)

    party(510, 650, "销售方", [("名称：", seller, gap), ("纳税人识别号：", seller_id, 0),
                              ("地址、电话：", f"{address} {phone}", 0.5),
                              ("开户行及账号：", f"{bank} {account}", 0)])  # fmt: skip
    sheet.vertical(info_end + 13, 520, 640, "备注", size)
    if layout in ("company", "highres"):  # remarks on the seller's rows, right of the 备注 margin
        sheet.text(info_end + 40, 526, [(f"订单号：{rng.randrange(10**13, 10**14)}", INK)], size)
        sheet.text(info_end + 40, 548, [("开票人员：系统自动开具", INK)], size)
    foot = 672
    people = rng.sample(["王", "李", "张", "刘", "陈", "杨", "黄"], 3)
    footer = (("收款人：", people[0] + "敏"), ("复核：", people[1] + "军"), ("开票人：", people[2] + "娟"),
              ("销售方：（章）", ""))  # fmt: skip
    for x, (label, value) in zip((60, 340, 600, 840), footer, strict=True):
        sheet.text(x + dx, foot, [(label, LABEL), (value, INK)], size)
    seal_at = {"standard": (545, 572), "company": (575, 590), "wrapped": (560, 600),
               "scanned": (690, 585), "highres": (520, 585)}[layout]  # fmt: skip
    seal_lines = _seal(sheet.image, seal_at, seller, seller_id, serif)

    image = sheet.image
    if layout == "scanned":  # a flatbed scan: grey paper, soft focus, a little noise
        image = Image.blend(image, Image.new("RGB", image.size, (236, 232, 224)), 0.25)
        image = image.filter(ImageFilter.GaussianBlur(0.6))
        noise = Image.effect_noise(image.size, 12).convert("RGB")
        image = Image.blend(image, noise, 0.05)

    truth = {
        "invoice_code": code, "number": number, "date": date.isoformat(), "check_code": check,
        "buyer_name": buyer, "seller_name": seller, "vendor": seller, "seller_tax_id": seller_id,
        "seller_address": address, "seller_phone": phone, "seller_bank": bank, "seller_account": account,
        "net": f"{net:.2f}", "tax": f"{printed_tax:.2f}", "total": f"{total:.2f}", "total_words": words,
        "tax_rate": f"{rate}%", "currency": "CNY",
    }  # fmt: skip
    if buyer_id:
        truth["buyer_tax_id"] = buyer_id
    for n, item in enumerate(printed_items, 1):
        truth.update({f"item{n}_name": item.name, f"item{n}_quantity": item.quantity,
                      f"item{n}_unit_price": item.unit_price, f"item{n}_amount": f"{item.amount:.2f}",
                      f"item{n}_tax_rate": f"{item.rate}%", f"item{n}_tax": f"{item.tax:.2f}"})  # fmt: skip
    lines = sheet.lines + seal_lines
    if layout == "highres":  # a 300-dpi scan, fed a little crooked
        image, lines = _turned(
            image.resize((2 * WIDTH, 2 * HEIGHT), Image.Resampling.LANCZOS), lines, 2.0, 0.4
        )
    return RenderedFapiao(RenderedDoc(image, lines), truth, qr_text, layout)


def _turned(
    image: Image.Image, lines: list[RenderedLine], scale: float, degrees: float
) -> tuple[Image.Image, list[RenderedLine]]:
    """The page scaled and turned ``degrees`` counter-clockwise about its centre, boxes with it."""
    cx, cy = image.width / 2, image.height / 2
    a = math.radians(degrees)

    def turn(x: float, y: float) -> tuple[float, float]:
        dx, dy = x * scale - cx, y * scale - cy
        return cx + dx * math.cos(a) + dy * math.sin(a), cy - dx * math.sin(a) + dy * math.cos(a)

    out = []
    for line in lines:
        x0, y0, x1, y1 = line.box
        pts = [turn(x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        out.append(RenderedLine(line.text, (min(xs), min(ys), max(xs), max(ys))))
    return image.rotate(degrees, resample=Image.Resampling.BICUBIC, fillcolor="white"), out
