"""Rendered test documents whose text is known exactly (Pillow + numpy, no Qt).

Every text item drawn is recorded as one ``RenderedLine`` with its pixel box, so tests can compare
recognized lines with the truth. Text uses ASCII that a Latin OCR reads unambiguously. Test
documents only: their Debian fonts are no dependency of the app (the PDF export ships its own).
"""

from __future__ import annotations

import datetime as dt
import functools
import io
import random
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
TAX_RATE = Decimal("0.08")
MAX_SIDE = 4000
INK = (20, 20, 20)
RULE = (150, 150, 150)
BAND = (232, 232, 232)

VENDOR_A = ("Northwind", "Bluebird", "Cedar Ridge", "Harbor Point", "Summit", "Maple Grove", "Granite",
            "Riverside", "Evergreen", "Copperfield", "Silverline", "Redwood", "Oakhurst", "Westbrook",
            "Foxglove", "Stonegate", "Sunflower", "Brightwater", "Pinehaven", "Marigold")  # fmt: skip
VENDOR_B = ("Office Supply", "Trading", "Stationers", "Business Services", "Hardware", "Market",
            "Print Shop", "Coffee House", "Garden Center", "Bookstore", "Bakery", "Pharmacy",
            "Electronics", "Outfitters", "Deli", "Florist", "Grocers", "Pet Supply", "Tool Works",
            "Craft Store")  # fmt: skip
SUFFIX = ("Co.", "Inc.", "Ltd.", "LLC", "Group")
STREETS = ("Harbor Street", "Oak Avenue", "Market Street", "Pine Road", "Lakeview Drive", "Mill Road",
           "Elm Street", "Commerce Way", "Station Road", "Willow Avenue")  # fmt: skip
CITIES = (("Portland, OR 97205", "USD"), ("Denver, CO 80202", "USD"), ("Austin, TX 78701", "USD"),
          ("Madison, WI 53703", "USD"), ("Raleigh, NC 27601", "USD"), ("Toronto, ON M5V 2T6", "CAD"),
          ("Vancouver, BC V6B 1A1", "CAD"), ("Leeds LS1 4DY, United Kingdom", "GBP"))  # fmt: skip
PEOPLE = ("Maria Gonzalez", "David Chen", "Sarah Johnson", "Ahmed Hassan", "Emily Carter", "James Okafor",
          "Hannah Weber", "Ravi Patel")  # fmt: skip
CLIENTS = ("Brightpath Consulting", "Tidewater Logistics", "Oakmont Dental Clinic", "Pinecrest Realty",
           "Sunrise Bakery", "Keystone Architects", "Harmony Yoga Studio")  # fmt: skip
# (description, unit, min price, max price)
CATALOG = (("Copy Paper A4 500 Sheets", "box", 4, 9), ("Ballpoint Pens Blue 12 Pack", "pack", 3, 8),
           ("Heavy Duty Stapler", "pcs", 12, 30), ("Printer Toner Cartridge", "pcs", 45, 120),
           ("Sticky Notes Yellow", "pack", 2, 6), ("Hanging File Folders", "box", 9, 22),
           ("Mesh Desk Organizer", "pcs", 11, 26), ("Whiteboard Markers Set", "set", 6, 15),
           ("USB Flash Drive 64 GB", "pcs", 8, 19), ("Ergonomic Office Chair", "pcs", 149, 329),
           ("Bamboo Monitor Stand", "pcs", 24, 59), ("Wireless Mouse", "pcs", 14, 35),
           ("Shipping Labels Roll", "roll", 7, 18), ("Packing Tape Clear", "roll", 2, 5),
           ("Laminating Pouches", "box", 10, 24), ("Cable Management Kit", "kit", 15, 40),
           ("Network Setup Service", "hrs", 65, 95), ("On-site Support Visit", "hrs", 70, 120),
           ("Coffee Beans Dark Roast", "bag", 9, 21), ("Paper Towels", "case", 18, 36))  # fmt: skip
PLAIN_ITEMS = tuple(item for item in CATALOG if not any(c.isdigit() for c in item[0]))
CODE_CHARS = "ACDEFHJKMNPRTWXY3479"


@dataclass(frozen=True)
class RenderedLine:
    """One drawn text item; ``box`` is (x0, y0, x1, y1) in pixels."""

    text: str
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class RenderedDoc:
    """A rendered page and the truth for every text item on it."""

    image: Image.Image
    lines: list[RenderedLine]

    @property
    def texts(self) -> list[str]:
        return [line.text for line in self.lines]


def find_font(bold: bool = False) -> Path:
    """DejaVu Sans (Bold) from Debian's fonts-dejavu-core package."""
    path = FONT_DIR / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} not found: run `apt-get install -y fonts-dejavu-core` "
            "(or `python resources/make_samples.py`, which installs it when run as root)"
        )
    return path


@functools.lru_cache(maxsize=32)
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    # BASIC layout: the same metrics whether or not libraqm is installed.
    return ImageFont.truetype(str(find_font(bold)), size, layout_engine=ImageFont.Layout.BASIC)


def _width(text: str, size: int, bold: bool = False) -> float:
    return _font(size, bold).getlength(text)


class _Page:
    """Collects text items and rules, then draws them onto a white page of a final height."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.items: list[tuple[float, float, str, int, bool, str]] = []
        self.rules: list[tuple[float, float, float, float, tuple[int, int, int]]] = []

    def text(self, x: float, y: float, text: str, size: int, bold: bool = False, align: str = "l") -> None:
        """Draw ``text`` with its baseline at ``y``; ``x`` is its left, right or middle (align l/r/m)."""
        self.items.append((x, y, text, size, bold, align + "s"))

    def rule(self, y: float, x0: float, x1: float, height: float = 2, fill: tuple[int, int, int] = RULE):
        self.rules.append((x0, y, x1, y + height, fill))

    def render(self, height: int) -> RenderedDoc:
        image = Image.new("RGB", (self.width, height), "white")
        draw = ImageDraw.Draw(image)
        for x0, y0, x1, y1, fill in self.rules:
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=fill)
        lines = []
        for x, y, text, size, bold, anchor in self.items:
            font = _font(size, bold)
            draw.text((x, y), text, font=font, fill=INK, anchor=anchor)
            box = tuple(float(v) for v in draw.textbbox((x, y), text, font=font, anchor=anchor))
            lines.append(RenderedLine(text, box))  # type: ignore[arg-type]
        return RenderedDoc(image, lines)


def _money(value: Decimal) -> str:
    return f"{value:,.2f}"


def render_invoice(seed: int = 0, width: int = 1240) -> RenderedDoc:
    """A one-page English invoice with 6-10 items; amounts and totals are consistent."""
    rng = random.Random(seed)
    s = width / 1240

    def px(v: float) -> int:
        return round(v * s)

    body, small, pitch = px(24), px(22), px(40)
    left, right = px(90), width - px(90)
    city, currency = rng.choice(CITIES)
    date = dt.date(2024, 1, 1) + dt.timedelta(days=rng.randrange(366))
    page = _Page(width)

    y = px(120)
    vendor = f"{rng.choice(VENDOR_A)} {rng.choice(VENDOR_B[:4])} {rng.choice(SUFFIX)}"
    page.text(left, y, vendor, px(32), bold=True)
    page.text(right, y + px(8), "INVOICE", px(44), bold=True, align="r")
    y += px(54)
    header_right = [
        f"Invoice No: INV-{date.year}-{rng.randrange(100, 100000):05d}",
        f"Date: {date.isoformat()}",
        f"Due Date: {(date + dt.timedelta(days=30)).isoformat()}",
        f"Currency: {currency}",
    ]
    vendor_lines = [
        f"{rng.randrange(100, 9900)} {rng.choice(STREETS)}",
        city,
        f"Phone: ({rng.randrange(201, 990)}) 555-{rng.randrange(100, 10000):04d}",
        f"Tax ID: {rng.randrange(10, 99)}-{rng.randrange(1000000, 9999999)}",
    ]
    for i in range(4):
        page.text(left, y + i * pitch, vendor_lines[i], small)
        page.text(right, y + i * pitch, header_right[i], small, align="r")
    y += 4 * pitch + px(30)

    page.text(left, y, "Bill To", body, bold=True)
    bill_to = [rng.choice(PEOPLE), rng.choice(CLIENTS), f"{rng.randrange(100, 9900)} {rng.choice(STREETS)}"]
    bill_to.append(rng.choice([c for c, _ in CITIES]))
    for i, text in enumerate(bill_to, 1):
        page.text(left, y + i * pitch, text, body)
    y += len(bill_to) * pitch + px(80)

    col_qty, col_price, col_amount = right - px(510), right - px(290), right - px(20)
    page.rule(y - px(34), left, right, px(50), BAND)
    page.text(left + px(20), y, "Description", body, bold=True)
    page.text(col_qty, y, "Qty", body, bold=True, align="r")
    page.text(col_price, y, "Unit Price", body, bold=True, align="r")
    page.text(col_amount, y, "Amount", body, bold=True, align="r")
    y += pitch + px(14)
    subtotal = Decimal(0)
    for desc, unit, lo, hi in rng.sample(CATALOG, rng.randint(6, 10)):
        qty = rng.randint(2, 8) if unit == "hrs" else rng.randint(1, 12)
        price = Decimal(rng.randrange(lo * 100, hi * 100)) / 100
        amount = qty * price
        subtotal += amount
        page.text(left + px(20), y, desc, body)
        page.text(col_qty, y, f"{qty} {unit}", body, align="r")
        page.text(col_price, y, _money(price), body, align="r")
        page.text(col_amount, y, _money(amount), body, align="r")
        y += pitch
    page.rule(y - px(18), left, right)
    y += px(36)

    tax = (subtotal * TAX_RATE).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    totals = [
        ("Subtotal", subtotal, False),
        ("Tax 8%", tax, False),
        (f"Total {currency}", subtotal + tax, True),
    ]
    for label, value, bold in totals:
        page.text(col_price - px(40), y, label, body, bold=bold, align="r")
        page.text(col_amount, y, _money(value), body, bold=bold, align="r")
        y += pitch
    y += px(60)

    page.rule(y - px(40), left, right)
    page.text(left, y, "Payment terms: Net 30 days by bank transfer", small)
    page.text(left, y + pitch, "Please quote the invoice number with your payment.", small)
    y += 2 * pitch + px(30)
    page.text(width / 2, y, "Thank you for your business.", body, bold=True, align="m")
    return page.render(max(round(width * 297 / 210), int(y + px(100))))


def _code(rng: random.Random, n: int = 4) -> str:
    return "".join(rng.choice(CODE_CHARS) for _ in range(n))


def _columns(texts: list[str], size: int, pitch: int, margin: int, gap: int) -> RenderedDoc:
    """Lay out ``texts`` top to bottom in as few columns as keep the page within MAX_SIDE."""
    col_w = max((_width(t, size) for t in texts), default=0) + gap
    rows = max(1, (MAX_SIDE - 2 * margin) // pitch)
    n_cols = max(1, -(-len(texts) // rows))
    rows = -(-len(texts) // n_cols) if texts else 1
    width = int(2 * margin + n_cols * col_w - gap)
    height = 2 * margin + rows * pitch
    if max(width, height) > MAX_SIDE:
        raise ValueError(f"{len(texts)} lines do not fit on a page of at most {MAX_SIDE} px")
    page = _Page(max(width, 400))
    for i, text in enumerate(texts):
        col, row = divmod(i, rows)
        page.text(margin + col * col_w, margin + row * pitch + size, text, size)
    return page.render(height)


def render_dense_page(n_lines: int = 250, seed: int = 0) -> RenderedDoc:
    """A page of ``n_lines`` short distinct lines in columns, longest side at most 4000 px."""
    rng = random.Random(seed)
    digits = max(3, len(str(n_lines)))
    codes: set[str] = set()
    texts = []
    for i in range(1, n_lines + 1):
        code = _code(rng)
        while code in codes:
            code = _code(rng)
        codes.add(code)
        texts.append(f"Line {i:0{digits}d} ITEM {code} {rng.randrange(100, 100000) / 100:.2f}")
    return _columns(texts, 20, 34, 60, 80)


def render_text_lines(lines: list[str], seed: int = 0) -> RenderedDoc:
    """A plain page with the given lines, one per row; ``seed`` jitters the left indent."""
    if any("\n" in line for line in lines):
        raise ValueError("lines must not contain newlines")
    rng = random.Random(seed)
    size, pitch, margin = 26, 46, 80
    width = int(max([_width(t, size) for t in lines] + [640]) + 2 * margin + 24)
    page = _Page(width)
    y = margin + size
    for text in lines:
        if text.strip():
            page.text(margin + rng.randrange(0, 25), y, text, size)
        y += pitch
    return page.render(max(y - size + margin, 2 * margin))


def render_blank(width: int = 800, height: int = 600) -> Image.Image:
    """A white page with faint, text-free paper noise."""
    noise = np.random.default_rng(0).normal(0, 1.5, (height, width, 1))
    return Image.fromarray(np.clip(250 + noise, 244, 255).astype(np.uint8).repeat(3, axis=2), "RGB")


def encode(image: Image.Image, fmt: str = "PNG", quality: int = 92) -> bytes:
    """Encode ``image`` as PNG or JPEG bytes."""
    fmt = fmt.upper().replace("JPG", "JPEG")
    if fmt not in ("PNG", "JPEG"):
        raise ValueError(f"unsupported format {fmt!r}")
    if image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    buf = io.BytesIO()
    image.save(buf, format=fmt, **({"quality": quality} if fmt == "JPEG" else {"optimize": True}))
    return buf.getvalue()


def _receipt(rng: random.Random, vendor: str) -> tuple[_Page, int]:
    """A small till receipt for ``vendor``; returns the page and its height."""
    size, pitch, left, right = 24, 40, 40, 600
    page = _Page(640)
    date = dt.date(2020, 1, 1) + dt.timedelta(days=rng.randrange(8 * 365))
    page.text(320, 70, vendor, 26, bold=True, align="m")
    page.text(left, 130, f"Receipt R-{rng.randrange(10000, 100000)}", size)
    page.text(left, 130 + pitch, f"Date: {date.isoformat()}", size)
    y, total = 130 + 3 * pitch, Decimal(0)
    for desc, _, lo, hi in rng.sample(PLAIN_ITEMS, 3):
        price = Decimal(rng.randrange(lo * 100, hi * 100)) / 100
        total += price
        page.text(left, y, desc, size)
        page.text(right, y, _money(price), size, align="r")
        y += pitch
    page.rule(y - 22, left, right)
    page.text(left, y + 12, "Total", size, bold=True)
    page.text(right, y + 12, _money(total), size, bold=True, align="r")
    page.text(left, y + 12 + 1.5 * pitch, "Thank you for shopping with us.", 22)
    return page, y + 12 + 2 * pitch + 40


def distinct_receipts(n: int, seed: int = 0) -> list[RenderedDoc]:
    """``n`` small receipts with unique vendor names and no numeric token shared between them."""
    if n > len(VENDOR_A) * len(VENDOR_B):
        raise ValueError(f"at most {len(VENDOR_A) * len(VENDOR_B)} distinct receipts")
    rng = random.Random(seed)
    pairs = rng.sample([(a, b) for a in VENDOR_A for b in VENDOR_B], n)
    used: set[str] = set()
    docs = []
    for a, b in pairs:
        for _ in range(1000):
            page, height = _receipt(rng, f"{a} {b}")
            tokens = {t for item in page.items for t in item[2].split() if any(c.isdigit() for c in t)}
            if not tokens & used:
                break
        else:
            raise RuntimeError("could not find distinct receipt numbers")
        used |= tokens
        docs.append(page.render(height))
    return docs
