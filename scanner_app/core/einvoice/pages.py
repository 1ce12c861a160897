"""E-invoice files (``.ofd``, 数电票 ``.xml``) as pages: an image drawn from their own text (for the
viewer and exports), that text as an exact text layer with boxes in the image's pixels, and the
invoice's field values read exactly (``Page.exact_fields`` -> ``PageResult.exact_fields``)."""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from scanner_app.core.einvoice.ofd import OfdError, OfdPage, OfdText, read_ofd
from scanner_app.core.einvoice.xml_invoice import NotAnEInvoice, read_einvoice_xml
from scanner_app.core.errors import UnreadableFile
from scanner_app.core.pdf.fonts import find_cjk_font
from scanner_app.core.pdf.text_layer import TextLayer
from scanner_app.core.results import TextLine

SUFFIXES = frozenset((".ofd", ".xml"))
PX_PER_MM = 150 / 25.4  # pages drawn at 150 dpi
MAX_XML_BYTES = 16 * 2**20
# How the XML's fields are laid out on its drawn page (label, field), top to bottom.
XML_ROWS = (("发票号码", "number"), ("开票日期", "date"), ("购买方名称", "buyer_name"),
            ("购买方纳税人识别号", "buyer_tax_id"), ("销售方名称", "seller_name"),
            ("销售方纳税人识别号", "seller_tax_id"), ("金额", "net"), ("税额", "tax"),
            ("价税合计（大写）", "total_words"), ("价税合计（小写）", "total"))  # fmt: skip


def is_einvoice_path(path: Path) -> bool:
    return path.suffix.lower() in SUFFIXES


@functools.lru_cache(maxsize=16)
def _font(size_px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        font_path, index = find_cjk_font()
        return ImageFont.truetype(str(font_path), size_px, index=index)
    except (OSError, RuntimeError):
        return ImageFont.load_default()


def _draw(page: OfdPage) -> tuple[Image.Image, tuple[TextLine, ...]]:
    """The page drawn at PX_PER_MM, and each text object as a line boxed in its pixels."""
    w, h = (max(1, round(v * PX_PER_MM)) for v in page.size_mm)
    image = Image.new("RGB", (w, h), "white")
    draw = ImageDraw.Draw(image)
    lines = []
    for text in page.texts:
        x, y, bw, bh = (v * PX_PER_MM for v in text.box)
        draw.text((x, y + bh / 2), text.text, font=_font(max(8, round(bh * 0.8))), fill="black", anchor="lm")
        box = ((x, y), (x + bw, y), (x + bw, y + bh), (x, y + bh))
        lines.append(TextLine(box=box, text=text.text, score=1.0))
    return image, tuple(lines)


def xml_page(fields: dict[str, str]) -> OfdPage:
    """A page for an XML invoice: one ``label：value`` row per field it has (items after)."""
    rows = [(label, fields[name]) for label, name in XML_ROWS if fields.get(name)]
    n = 1
    while fields.get(f"item{n}_name"):
        keys = ("name", "quantity", "unit_price", "amount", "tax_rate")
        parts = [fields.get(f"item{n}_{k}", "") for k in keys]
        rows.append((f"项目{n}", " ".join(p for p in parts if p)))
        n += 1
    texts = tuple(
        OfdText(str(i), f"{label}：{value}", (10.0, 10.0 + 7.0 * i, 8.0 + 3.2 * len(label + value), 5.0))
        for i, (label, value) in enumerate(rows)
    )
    return OfdPage((210.0, max(60.0, 20.0 + 7.0 * len(rows))), texts)


def _fail(path: Path, cause: str) -> UnreadableFile:
    return UnreadableFile(f"{path}: {cause}")


def einvoice_pages(path: Path) -> Iterator[tuple[Image.Image, TextLayer, tuple[tuple[str, str], ...], int]]:
    """(image, exact text layer, exact fields, page count) per page of an OFD or 数电票 XML file."""
    pages: tuple[OfdPage, ...]
    if path.suffix.lower() == ".xml":
        if path.stat().st_size > MAX_XML_BYTES:
            raise _fail(path, f"too large for an e-invoice XML (over {MAX_XML_BYTES // 2**20} MiB)")
        try:
            fields = read_einvoice_xml(path.read_bytes())
        except ET.ParseError as exc:
            raise _fail(path, f"not well-formed XML ({exc})") from None
        except NotAnEInvoice as exc:
            raise _fail(path, str(exc)) from None
        pages, exact = (xml_page(fields),), tuple(fields.items())
    else:
        try:
            doc = read_ofd(path)
        except OfdError as exc:
            raise _fail(path, str(exc)) from None
        pages, exact = doc.pages, tuple(doc.fields.items())
    for index, page in enumerate(pages):
        image, lines = _draw(page)
        layer = TextLayer(lines, bool(lines), "" if lines else "no text")
        yield image, layer, exact if index == 0 else (), len(pages)  # the fields belong to page 1
