"""E-invoice files to test the exact readers with: a 数电票 XML under its public element names, and
a minimal valid OFD package (OFD.xml, Document.xml, one page of TextObject/TextCode, and the XML
attached or the values tagged), with the fields a reader should give."""

from __future__ import annotations

import io
import zipfile
from xml.sax.saxutils import escape

NS = "http://www.ofdspec.org/2016"

TRUTH = {
    "number": "24312000000012345678", "date": "2024-05-06", "seller_name": "上海云帆科技有限公司",
    "vendor": "上海云帆科技有限公司", "seller_tax_id": "91440300FF9D7E0D8J",
    "buyer_name": "杭州明远贸易有限公司", "buyer_tax_id": "913101157099A4907A",
    "net": "1000.00", "tax": "130.00", "total": "1130.00", "total_words": "壹仟壹佰叁拾圆整",
    "tax_rate": "13%", "currency": "CNY", "item1_name": "*信息技术服务*软件维护", "item1_quantity": "1",
    "item1_unit_price": "1000", "item1_amount": "1000.00", "item1_tax_rate": "13%", "item1_tax": "130.00",
}  # fmt: skip


def einvoice_xml(truth: dict[str, str] | None = None) -> bytes:
    """A fully digital invoice's XML (root ``EInvoice``) carrying ``truth``'s values."""
    t = {k: escape(v) for k, v in (truth or TRUTH).items()}
    rate = str(int(t["item1_tax_rate"].rstrip("%")) / 100)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<EInvoice>
  <Header><EIid>{t["number"]}</EIid><EInvoiceTag>SWEI3100</EInvoiceTag><Version>0.1</Version></Header>
  <EInvoiceData>
    <SellerInformation><SellerIdNum>{t["seller_tax_id"]}</SellerIdNum><SellerName>{t["seller_name"]}</SellerName></SellerInformation>
    <BuyerInformation><BuyerIdNum>{t["buyer_tax_id"]}</BuyerIdNum><BuyerName>{t["buyer_name"]}</BuyerName></BuyerInformation>
    <BasicInformation>
      <TotalAmWithoutTax>{t["net"]}</TotalAmWithoutTax><TotalTaxAm>{t["tax"]}</TotalTaxAm>
      <TotalTax-includedAmount>{t["total"]}</TotalTax-includedAmount>
      <TotalTax-includedAmountInChinese>{t["total_words"]}</TotalTax-includedAmountInChinese>
      <RequestTime>{t["date"]} 10:11:12</RequestTime>
    </BasicInformation>
    <IssuItemInformation>
      <ItemName>{t["item1_name"]}</ItemName><Quantity>{t["item1_quantity"]}</Quantity>
      <UnPrice>{t["item1_unit_price"]}</UnPrice><Amount>{t["item1_amount"]}</Amount>
      <TaxRate>{rate}</TaxRate><ComTaxAm>{t["item1_tax"]}</ComTaxAm>
    </IssuItemInformation>
  </EInvoiceData>
  <TaxSupervisionInfo><InvoiceNumber>{t["number"]}</InvoiceNumber><IssueTime>{t["date"]} 10:11:12</IssueTime></TaxSupervisionInfo>
</EInvoice>
""".encode()  # noqa: E501


# (ID, text, boundary x y w h in mm) of the OFD page: labels and values as a real one prints them
def _texts(t: dict[str, str]) -> list[tuple[str, str, tuple[float, float, float, float]]]:
    rows = [("发票号码：", "number", 140, 12), ("开票日期：", "date", 140, 19),
            ("名称：", "buyer_name", 22, 32),
            ("统一社会信用代码/纳税人识别号：", "buyer_tax_id", 22, 39), ("名称：", "seller_name", 118, 32),
            ("统一社会信用代码/纳税人识别号：", "seller_tax_id", 118, 39), ("合计", "net", 20, 80),
            ("税额", "tax", 150, 80), ("价税合计（大写）", "total_words", 20, 90),
            ("（小写）¥", "total", 140, 90)]  # fmt: skip
    out = []
    for n, (label, name, x, y) in enumerate(rows):
        out.append((str(100 + 2 * n), label, (float(x), float(y), 3.2 * len(label), 4.0)))
        vx = x + 3.2 * len(label) + 1
        out.append((str(101 + 2 * n), t[name], (vx, float(y), 2.2 * len(t[name]) + 2, 4.0)))
    out.append(("90", "电子发票（增值税专用发票）", (70.0, 4.0, 70.0, 6.0)))
    return out


def _content(texts: list[tuple[str, str, tuple[float, float, float, float]]]) -> str:
    objects = "".join(
        f'<ofd:TextObject ID="{i}" Boundary="{x:.2f} {y:.2f} {w:.2f} {h:.2f}" Font="2" Size="3.2">'
        f'<ofd:FillColor Value="0 0 0"/><ofd:TextCode X="0" Y="3.2">{escape(text)}</ofd:TextCode>'
        "</ofd:TextObject>"
        for i, text, (x, y, w, h) in texts
    )
    return (f'<?xml version="1.0" encoding="UTF-8"?><ofd:Page xmlns:ofd="{NS}"><ofd:Area>'
            f'<ofd:PhysicalBox>0 0 210 140</ofd:PhysicalBox></ofd:Area><ofd:Content>'
            f'<ofd:Layer ID="1">{objects}</ofd:Layer></ofd:Content></ofd:Page>')  # fmt: skip


def einvoice_ofd(truth: dict[str, str] | None = None, carry: str = "attachment") -> bytes:
    """A minimal valid OFD e-invoice: one page of text objects, and the invoice's data ``carry``:
    "attachment" (the 数电票 XML attached), "tags" (custom tags pointing at the value objects) or
    "none" (text only)."""
    t = truth or TRUTH
    texts = _texts(t)
    extra = ""
    files = {"Doc_0/Pages/Page_0/Content.xml": _content(texts)}
    if carry == "attachment":
        extra = "<ofd:Attachments>Attachs/Attachments.xml</ofd:Attachments>"
        files["Doc_0/Attachs/Attachments.xml"] = (
            f'<?xml version="1.0" encoding="UTF-8"?><ofd:Attachments xmlns:ofd="{NS}">'
            '<ofd:Attachment ID="1" Name="original_invoice" Format="xml">'
            "<ofd:FileLoc>original_invoice.xml</ofd:FileLoc></ofd:Attachment></ofd:Attachments>"
        )
        files["Doc_0/Attachs/original_invoice.xml"] = einvoice_xml(t).decode()
    elif carry == "tags":
        extra = "<ofd:CustomTags>Tags/CustomTag.xml</ofd:CustomTags>"
        files["Doc_0/Tags/CustomTag.xml"] = (
            f'<?xml version="1.0" encoding="UTF-8"?><ofd:CustomTags xmlns:ofd="{NS}"><ofd:CustomTag '
            'NameSpace="fapiao"><ofd:FileLoc>CustomTag_Invoice.xml</ofd:FileLoc></ofd:CustomTag></ofd:CustomTags>'
        )
        ref = {text: i for i, text, _ in texts}
        tags = {"InvoiceNo": "number", "IssueDate": "date", "BuyerName": "buyer_name",
                "BuyerTaxID": "buyer_tax_id", "SellerName": "seller_name", "SellerTaxID": "seller_tax_id",
                "TaxExclusiveTotalAmount": "net", "TaxTotalAmount": "tax",
                "TaxInclusiveTotalAmount": "total"}  # fmt: skip
        body = "".join(
            f'<fp:{tag}><fp:ObjectRef PageRef="1">{ref[t[name]]}</fp:ObjectRef></fp:{tag}>'
            for tag, name in tags.items()
        )
        files["Doc_0/Tags/CustomTag_Invoice.xml"] = (
            f'<?xml version="1.0" encoding="UTF-8"?><fp:eInvoice xmlns:fp="{NS}">{body}</fp:eInvoice>'
        )
    files["Doc_0/Document.xml"] = (
        f'<?xml version="1.0" encoding="UTF-8"?><ofd:Document xmlns:ofd="{NS}"><ofd:CommonData>'
        "<ofd:MaxUnitID>200</ofd:MaxUnitID><ofd:PageArea><ofd:PhysicalBox>0 0 210 140</ofd:PhysicalBox>"
        '</ofd:PageArea></ofd:CommonData><ofd:Pages><ofd:Page ID="1" BaseLoc="Pages/Page_0/Content.xml"/>'
        f"</ofd:Pages>{extra}</ofd:Document>"
    )
    files["OFD.xml"] = (
        f'<?xml version="1.0" encoding="UTF-8"?><ofd:OFD xmlns:ofd="{NS}" DocType="OFD" Version="1.0">'
        "<ofd:DocBody><ofd:DocInfo><ofd:DocID>0123456789abcdef</ofd:DocID></ofd:DocInfo>"
        "<ofd:DocRoot>Doc_0/Document.xml</ofd:DocRoot></ofd:DocBody></ofd:OFD>"
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return buffer.getvalue()
