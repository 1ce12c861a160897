"""VAT invoice fields from hand-built line lists: the hard cases real scans give (labels split
across boxes, vertical margins, the seal's text glued onto values, wrapped item names)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from scanner_app.core.fields.checks import run_checks
from scanner_app.core.fields.extract import extract_fields
from scanner_app.core.fields.layout import Layout
from scanner_app.core.fields.rules import default_rules
from scanner_app.core.fields.values import Field
from scanner_app.core.fields.vat import spaced_cells
from scanner_app.core.results import PageResult, TextLine
from scanner_app.samples.fapiao import LAYOUTS, WRONG, render_fapiao
from scanner_app.samples.invoices import perfect_page

Row = tuple[str, float, float, float, float]
HEAD: list[Row] = [
    ("发票代码：044031900111", 800, 25, 950, 44),
    ("发票号码：12345678", 800, 49, 920, 67),
    ("开票日期：2020年03月05日", 800, 73, 968, 90),
]
TABLE: list[Row] = [
    ("货物或应税劳务、服务名称", 85, 239, 259, 261), ("金", 706, 239, 735, 262), ("额", 740, 241, 763, 261),
    ("税率", 815, 238, 853, 263), ("税", 958, 237, 980, 264), ("额", 998, 237, 1020, 264),
    ("合", 107, 452, 127, 473), ("计", 151, 450, 178, 474), ("¥8.97", 745, 450, 798, 473),
    ("¥0.81", 1061, 451, 1105, 472),
]  # fmt: skip


def page(rows: Sequence[Row]) -> PageResult:
    lines = tuple(TextLine(((x0, y0), (x1, y0), (x1, y1), (x0, y1)), t, 0.99) for t, x0, y0, x1, y1 in rows)
    return PageResult("hand.png", 1130, 730, lines)


def values(rows: Sequence[Row]) -> dict[str, str]:
    fields = extract_fields(page(rows))
    assert fields.kind == "vat_invoice"
    return {name: fields.value(name) for name in fields.names()}


def test_label_split_across_boxes_gives_the_value_glued_to_its_second_half() -> None:
    got = values([*HEAD, ("名", 53, 140, 78, 159), ("称：王芳", 90, 138, 157, 161), *TABLE,
                  ("名", 54, 516, 73, 535), ("称：南京某某科技股份有限公司", 94, 515, 300, 534)])  # fmt: skip
    assert got["buyer_name"] == "王芳"
    assert got["seller_name"] == got["vendor"] == "南京某某科技股份有限公司"


def test_first_half_of_a_label_lost_still_reads_the_value() -> None:
    got = values([*HEAD, ("称：欧阳娜", 90, 138, 170, 161), *TABLE])
    assert got["buyer_name"] == "欧阳娜"


def test_merged_labels_keep_every_source_line() -> None:
    rows = [("名", 53, 140, 78, 159), ("称：王芳", 90, 138, 157, 161), ("合", 107, 452, 127, 473),
            ("计", 151, 450, 178, 474)]  # fmt: skip
    cells = spaced_cells(Layout.of(page(rows)), default_rules())
    merged = {ln.text: [p.index for p in cells.parts[ln]] for ln in cells.layout.lines if ln in cells.parts}
    assert merged == {"名称：王芳": [0, 1], "合计": [2, 3]}


@pytest.mark.parametrize("margin", [
    [("销", 21, 523, 47, 554), ("售", 23, 560, 46, 590), ("方", 23, 606, 45, 637)],
    [("销售方", 20, 523, 48, 637)],
])  # fmt: skip
def test_vertical_margin_names_the_block_without_a_table(margin: list[Row]) -> None:
    got = values([*HEAD, *margin, ("名", 54, 516, 73, 535), ("称：杭州市新元贸易有限公司", 94, 515, 300, 534),
                  ("纳税人识别号：91330106062AA4E35Y", 53, 536, 303, 554)])  # fmt: skip
    assert got["seller_name"] == "杭州市新元贸易有限公司" and got["seller_tax_id"] == "91330106062AA4E35Y"
    assert "buyer_name" not in got


def test_total_row_amounts_are_read_under_their_column_headers() -> None:
    got = values([*HEAD, *TABLE])
    assert (got["net"], got["tax"]) == ("8.97", "0.81")


def test_seal_text_glued_onto_values_is_cut_and_its_fragments_are_no_value() -> None:
    seller = [
        ("名", 54, 516, 73, 535), ("称：", 94, 515, 120, 534), ("司", 520, 515, 540, 534),
        ("南章", 560, 520, 590, 540), ("纳税人识别号：91440300A5631E0ABG", 53, 536, 303, 554),
        ("地址、电话：广州市南山区人民路128号016-65224476631E0ABG", 51, 552, 488, 581),
        ("开户行及账号：交通银行广州分行23961509958424发票专用章", 51, 576, 462, 601),
        ("91440300A5631E0ABG", 480, 555, 600, 572), ("发票专用章", 500, 589, 589, 612),
    ]  # fmt: skip
    got = values([*HEAD, *TABLE, *seller])
    assert "seller_name" not in got  # 司 / 南章 lie in the seal: not the seller's name
    assert got["seller_address"] == "广州市南山区人民路128号" and got["seller_phone"] == "016-65224476"
    assert got["seller_bank"] == "交通银行广州分行" and got["seller_account"] == "23961509958424"
    assert got["seller_tax_id"] == "91440300A5631E0ABG"


def test_item_rows_with_a_wrapped_name_and_their_checks() -> None:
    items = [
        ("*信息技术服务*企业云存储及数据", 51, 265, 263, 284), ("5", 516, 263, 535, 285),
        ("637.174", 603, 263, 662, 283), ("3185.87", 733, 263, 793, 283), ("3%", 815, 263, 847, 285),
        ("95.58", 1056, 262, 1103, 286), ("备份年度技术支持服务费", 50, 285, 207, 304),
        ("*运输服务*客运服务费", 51, 329, 193, 348), ("1", 518, 327, 534, 348), ("74.05", 619, 327, 663, 348),
        ("74.05 3%", 748, 327, 846, 349), ("2.22", 1064, 327, 1103, 350),
        ("合", 107, 452, 127, 473), ("计", 151, 450, 178, 474), ("¥3259.92", 726, 452, 793, 472),
        ("¥97.80", 1042, 452, 1102, 472),
    ]  # fmt: skip
    fields = extract_fields(page([*HEAD, *TABLE[:6], *items]))
    got = {n: fields.value(n) for n in fields.names() if n.startswith("item")}
    assert got == {
        "item1_name": "*信息技术服务*企业云存储及数据备份年度技术支持服务费", "item1_quantity": "5",
        "item1_unit_price": "637.174", "item1_amount": "3185.87", "item1_tax_rate": "3%",
        "item1_tax": "95.58",
        "item2_name": "*运输服务*客运服务费", "item2_quantity": "1", "item2_unit_price": "74.05",
        "item2_amount": "74.05", "item2_tax_rate": "3%", "item2_tax": "2.22",
    }  # fmt: skip
    checks = {c.name: c.ok for c in fields.checks}
    assert checks["items_net"] and checks["items_tax"] and checks["item1_amount"] and checks["item2_tax"]


def test_item_sum_that_disagrees_with_the_total_row_flags_both() -> None:
    fields = {n: Field(n, v, 0.9) for n, v in {"net": "10.00", "tax": "1.30", "item1_amount": "6.00",
              "item1_tax": "0.78", "item2_amount": "3.00", "item2_tax": "0.52"}.items()}  # fmt: skip
    failed = {c.name: c.fields for c in run_checks(fields) if not c.ok}
    assert set(failed) == {"items_net"} and "item2_amount" in failed["items_net"]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_field_of_each_rendered_layout_from_its_true_lines(layout: str) -> None:
    invoice = render_fapiao(1, layout)
    fields = extract_fields(perfect_page(invoice.doc))
    assert {n: fields.value(n) for n in invoice.truth} == invoice.truth
    assert all(c.ok for c in fields.checks), [c.message for c in fields.checks if not c.ok]


@pytest.mark.parametrize(("wrong", "failed"), [
    ("tax", {"net_tax_total", "items_tax"}),
    ("words", {"total_words"}),
    ("item", {"items_net", "item1_amount", "item1_tax"}),
])  # fmt: skip
def test_a_misprinted_figure_fails_its_checks(wrong: str, failed: set[str]) -> None:
    fields = extract_fields(perfect_page(render_fapiao(2, "standard", wrong).doc))
    got = {c.name for c in fields.checks if not c.ok}
    assert got - {"tax_rate"} == failed and fields.flagged  # 0.10 off may lie within the rate's rounding


def test_unknown_layout_or_misprint_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown layout"):
        render_fapiao(0, "nope")
    with pytest.raises(ValueError, match="unknown misprint"):
        render_fapiao(0, "standard", "nope")
    assert set(WRONG) == {"tax", "words", "item"}


def test_side_by_side_blocks_of_a_fully_digital_invoice_take_their_own_margin() -> None:
    rows = [
        ("电子发票（普通发票）", 400, 20, 700, 50), ("发票号码：24322000000012345678", 800, 30, 1050, 48),
        ("开票日期：2024年05月06日", 800, 55, 1000, 73),
        ("购", 25, 100, 45, 120), ("买", 25, 125, 45, 145), ("方", 25, 150, 45, 170),
        ("信", 25, 175, 45, 195), ("息", 25, 200, 45, 220), ("名称：王芳", 60, 110, 160, 130),
        ("销售方信息", 560, 100, 580, 220), ("名称：南京某某科技股份有限公司", 600, 110, 850, 130),
        ("统一社会信用代码/纳税人识别号：91440300A5631E0ABG", 600, 150, 1000, 170),
        ("项目名称", 85, 239, 259, 261), ("合", 107, 452, 127, 473), ("计", 151, 450, 178, 474),
    ]  # fmt: skip
    got = values(rows)
    assert got["buyer_name"] == "王芳" and got["seller_name"] == "南京某某科技股份有限公司"
    assert got["seller_tax_id"] == "91440300A5631E0ABG" and got["number"] == "24322000000012345678"


def test_yuan_sign_read_as_y_and_cipher_text_beside_an_empty_label() -> None:
    rows = [*HEAD, *TABLE[:6], ("合", 107, 452, 127, 473), ("计", 151, 450, 178, 474),
            ("Y8.97", 745, 450, 798, 473), ("Y0.81", 1061, 451, 1105, 472),
            ("纳税人识别号：", 52, 160, 149, 182),
            ("11>495<7+73>91<7>85>1-7154<", 648, 163, 864, 179)]  # fmt: skip
    got = values(rows)
    assert (got["net"], got["tax"]) == ("8.97", "0.81") and "buyer_tax_id" not in got


def test_the_seals_tax_number_read_into_the_account_is_cut_and_the_account_flagged() -> None:
    seller = [("纳税人识别号：914401064790B37C60", 53, 536, 303, 554),
              ("开户行及账号：中国建设银行杭州高新区支行81511608443573344401064790B37C60", 51, 576, 590, 601),
              ("发票专用章", 480, 600, 570, 622)]  # fmt: skip
    fields = extract_fields(page([*HEAD, *TABLE, *seller]))
    assert fields.value("seller_account") == "8151160844357334"
    assert fields.value("seller_bank") == "中国建设银行杭州高新区支行"
    assert "low_confidence" in fields.flags("seller_account")
