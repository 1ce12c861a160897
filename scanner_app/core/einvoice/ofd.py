"""An OFD file (GB/T 33190: a ZIP of XML) read exactly: each page's text objects as lines with
boxes, and an e-invoice's field values from its attached 数电票 XML or its custom tags.

``OFD.xml`` -> ``DocBody/DocRoot`` (``Doc_0/Document.xml``) -> ``Pages/Page@BaseLoc``
(``Pages/Page_0/Content.xml``): ``TextObject@Boundary`` (x y w h, mm) holding ``TextCode`` text.
``Document/Attachments`` lists attached files; ``Document/CustomTags`` names a tag file whose
elements (``InvoiceNo``, ``IssueDate``, ...) point at text objects by ``ObjectRef``."""

from __future__ import annotations

import posixpath
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from scanner_app.core.einvoice.xml_invoice import amount, is_einvoice_xml, iso_date, read_einvoice_xml

MAX_MEMBER_BYTES = 16 * 2**20  # an XML part larger than this is refused (a ZIP bomb)
MAX_PAGES = 50
DEFAULT_BOX_MM = (0.0, 0.0, 210.0, 297.0)
# Custom tag names on OFD e-invoices -> field names (amounts and the date normalised).
TAGS = {"InvoiceCode": "invoice_code", "InvoiceNo": "number", "InvoiceNumber": "number",
        "IssueDate": "date", "InvoiceCheckCode": "check_code", "BuyerName": "buyer_name",
        "BuyerTaxID": "buyer_tax_id", "SellerName": "seller_name", "SellerTaxID": "seller_tax_id",
        "TaxExclusiveTotalAmount": "net", "TaxTotalAmount": "tax",
        "TaxInclusiveTotalAmount": "total"}  # fmt: skip


class OfdError(ValueError):
    """The file is not a readable OFD (the message says why)."""


@dataclass(frozen=True)
class OfdText:
    """One text object: its text and box (x, y, w, h) in millimetres from the page's top left."""

    id: str
    text: str
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class OfdPage:
    size_mm: tuple[float, float]
    texts: tuple[OfdText, ...]


@dataclass(frozen=True)
class OfdDocument:
    pages: tuple[OfdPage, ...]
    fields: dict[str, str] = field(default_factory=dict)  # exact field values, when it carries them


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _child(node: ET.Element, name: str) -> ET.Element | None:
    return node.find(f".//{{*}}{name}")


def _text(node: ET.Element | None) -> str:
    return (node.text or "").strip() if node is not None else ""


def _numbers(text: str | None, count: int) -> tuple[float, ...] | None:
    try:
        values = tuple(float(v) for v in (text or "").split())
    except ValueError:
        return None
    return values if len(values) == count else None


class _Package:
    def __init__(self, zf: zipfile.ZipFile) -> None:
        self.zf = zf
        self.names = {n.lstrip("/"): n for n in zf.namelist()}

    def read(self, path: str) -> bytes:
        name = self.names.get(posixpath.normpath(path).lstrip("/"))
        if name is None:
            raise OfdError(f"part {path} is missing")
        if self.zf.getinfo(name).file_size > MAX_MEMBER_BYTES:
            raise OfdError(f"part {path} is over {MAX_MEMBER_BYTES // 2**20} MiB")
        return self.zf.read(name)

    def xml(self, path: str) -> ET.Element:
        try:
            return ET.fromstring(self.read(path))
        except ET.ParseError as exc:
            raise OfdError(f"part {path} is not well-formed XML ({exc})") from None


def _resolve(base: str, loc: str) -> str:
    return loc.lstrip("/") if loc.startswith("/") else posixpath.join(base, loc)


def _page(root: ET.Element, default: tuple[float, ...]) -> OfdPage:
    own = _child(root, "PhysicalBox")
    x0, y0, w, h = _numbers(own.text if own is not None else None, 4) or default
    texts = []
    for obj in root.iter():
        if _local(obj.tag) != "TextObject":
            continue
        bound = _numbers(obj.get("Boundary"), 4)
        text = "".join(code.text or "" for code in obj if _local(code.tag) == "TextCode").strip()
        if bound is None or not text:
            continue
        bx, by, bw, bh = bound
        texts.append(OfdText(obj.get("ID", ""), text, (bx - x0, by - y0, bw, bh)))
    return OfdPage((w, h), tuple(texts))


def _tag_fields(pkg: _Package, doc_dir: str, doc: ET.Element, pages: tuple[OfdPage, ...]) -> dict[str, str]:
    tags = _text(_child(doc, "CustomTags"))
    if not tags:
        return {}
    index_path = _resolve(doc_dir, tags)
    index = pkg.xml(index_path)
    by_id = {t.id: t.text for p in pages for t in p.texts}
    out: dict[str, str] = {}
    for loc in index.iter():
        if _local(loc.tag) != "FileLoc" or not _text(loc):
            continue
        for node in pkg.xml(_resolve(posixpath.dirname(index_path), _text(loc))).iter():
            name = TAGS.get(_local(node.tag))
            if name is None or name in out:
                continue
            refs = [_text(r) for r in node.iter() if _local(r.tag) == "ObjectRef" and _text(r)]
            value = "".join(by_id.get(r, "") for r in refs) if refs else _text(node)
            if name == "date":
                value = iso_date(value.replace("年", "-").replace("月", "-"))
            elif name in ("net", "tax", "total"):
                value = amount(value.lstrip("¥￥"))
            if value:
                out[name] = value
    return out


def _attached_fields(pkg: _Package, doc_dir: str, doc: ET.Element) -> dict[str, str]:
    attachments = _text(_child(doc, "Attachments"))
    if not attachments:
        return {}
    index_path = _resolve(doc_dir, attachments)
    for loc in pkg.xml(index_path).iter():
        if _local(loc.tag) == "FileLoc" and _text(loc):
            data = pkg.read(_resolve(posixpath.dirname(index_path), _text(loc)))
            if is_einvoice_xml(data):
                return read_einvoice_xml(data)
    return {}


def read_ofd(path: Path) -> OfdDocument:
    """The pages' text and the invoice's exact fields (attached XML first, else custom tags)."""
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise OfdError(f"not an OFD file (not a ZIP package: {exc})") from None
    with zf:
        pkg = _Package(zf)
        if "OFD.xml" not in pkg.names:
            raise OfdError("not an OFD file (no OFD.xml in the package)")
        doc_path = _text(_child(pkg.xml("OFD.xml"), "DocRoot")).lstrip("/")
        if not doc_path:
            raise OfdError("OFD.xml names no DocRoot")
        doc_dir = posixpath.dirname(doc_path)
        doc = pkg.xml(doc_path)
        area = _child(doc, "PageArea")
        box = _child(area, "PhysicalBox") if area is not None else None
        default = _numbers(box.text if box is not None else None, 4) or DEFAULT_BOX_MM
        locs = [p.get("BaseLoc", "") for p in doc.iter() if _local(p.tag) == "Page" and p.get("BaseLoc")]
        if not locs:
            raise OfdError("the document has no pages")
        if len(locs) > MAX_PAGES:
            raise OfdError(f"{len(locs)} pages is over the limit of {MAX_PAGES}")
        pages = tuple(_page(pkg.xml(_resolve(doc_dir, loc)), default) for loc in locs)
        fields = _attached_fields(pkg, doc_dir, doc) or _tag_fields(pkg, doc_dir, doc, pages)
    return OfdDocument(pages, fields)
