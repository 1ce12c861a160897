"""Chinese VAT invoices (增值税发票, 电子发票): code, number, check code, the buyer and seller
blocks, the item table, 合计 net and tax, 价税合计 in 大写 and 小写, tax rate. Letter-spaced labels
are merged first (vat_cells), the seal's text is kept out of values (vat_seal)."""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal

from scanner_app.core.fields.amounts import UPPER_CHARS, find_amounts, format_amount, parse_chinese_upper
from scanner_app.core.fields.header import TextField
from scanner_app.core.fields.ident import labelled_token
from scanner_app.core.fields.layout import Layout, LayoutLine
from scanner_app.core.fields.money import Amount, value_for
from scanner_app.core.fields.rules import Rules
from scanner_app.core.fields.text import any_keyword, best_keyword, clean_value
from scanner_app.core.fields.vat_cells import Cells, merge_spaced
from scanner_app.core.fields.vat_items import find_table, item_fields, read_items, total_row
from scanner_app.core.fields.vat_parties import Context, read_parties, value_after
from scanner_app.core.fields.vat_seal import find_seals

_DIGITS = re.compile(r"\d{8,20}")
_TAX_ID = re.compile(r"[0-9A-Z]{15,20}")
_RATE = re.compile(r"(?<![\d.])(\d{1,2})\s*%")
_CHECK_CODE = 20  # digits of a 校验码


def is_vat_invoice(layout: Layout, rules: Rules) -> bool:
    """At least two VAT markers (发票代码, 发票号码, 价税合计, ...) on the page."""
    markers = rules.words("vat_marker")
    return sum(1 for kw in markers if any(kw.search(ln.norm) for ln in layout.lines)) >= 2


def _after(layout: Layout, line: LayoutLine, end: int) -> tuple[str, tuple[LayoutLine, ...]]:
    """Text after a label: the rest of the line, else the nearest line to the right."""
    rest = clean_value(line.text[end:] if len(line.text) == len(line.norm) else line.norm[end:])
    if rest:
        return rest, (line,)
    right = layout.right_of(line)[:1]
    return (clean_value(right[0].text), (line, right[0])) if right else ("", (line,))


def _anchor_y(layout: Layout, rules: Rules) -> float | None:
    """Where the items table starts (buyer above, seller below): its header, else the 合计 row."""
    for cat in ("items_header", "net_tax_row", "total_words"):
        ys = [ln.cy for ln in layout.lines if any_keyword(ln.norm, rules.words(cat))]
        if ys:
            return min(ys)
    return None


def parties(layout: Layout, rules: Rules) -> dict[str, TextField]:
    """buyer_name, buyer_tax_id, seller_name, seller_tax_id from the 名称 / 纳税人识别号 labels."""
    anchor = _anchor_y(layout, rules)
    out: dict[str, TextField] = {}
    for kind, cat in (("name", "party_name"), ("tax_id", "party_tax_id")):
        found = []
        for line in layout.top_down():
            hit = best_keyword(line.norm, rules.words(cat))
            if hit is None:
                continue
            text, lines = _after(layout, line, hit[1].end())
            if kind == "tax_id":
                m = _TAX_ID.search(text.upper().replace(" ", ""))
                text = m[0] if m else ""
            if text:
                found.append(TextField(text, lines, 0.9 * lines[-1].score))
        if not found:
            continue
        buyer: TextField | None
        seller: TextField | None
        if anchor is None:
            buyer, seller = found[0], found[-1] if len(found) > 1 else None
        else:
            buyer = next((f for f in found if f.lines[0].cy < anchor), None)
            seller = next((f for f in found if f.lines[0].cy > anchor), None)
        for role, field in (("buyer", buyer), ("seller", seller)):
            if field is not None:
                out[f"{role}_{kind}"] = field
    return out


def total_words(layout: Layout, rules: Rules) -> tuple[Decimal, TextField] | None:
    """The 大写 amount: on the 大写 line or its right-hand neighbours."""
    for line in layout.lines:
        if not any_keyword(line.norm, rules.words("total_words")):
            continue
        for cand in [line, *layout.right_of(line)]:
            words = "".join(c for c in cand.text if c in UPPER_CHARS)
            value = parse_chinese_upper(cand.text)
            if value is not None:
                lines = (line,) if cand is line else (line, cand)
                return value, TextField(words, lines, 0.9 * cand.score)
    return None


def total_figures(layout: Layout, rules: Rules) -> Amount | None:
    """The 小写 amount (价税合计 in figures)."""
    for line in layout.lines:
        hit = best_keyword(line.norm, rules.words("total_figures"))
        if hit:
            found = value_for(layout, line, hit[1].end(), below=False)
            if found:
                return Amount(found[0], found[1], 10.0, 0.95 * found[1][-1].score, found[1][-1].text)
    return None


def net_and_tax(layout: Layout, rules: Rules) -> tuple[Amount, Amount] | None:
    """The 合计 row's two amounts: 金额 (net) then 税额 (tax)."""
    for line in layout.top_down():
        hit = best_keyword(line.norm, rules.words("net_tax_row"))
        if hit is None or any_keyword(line.norm, rules.words("total_words") + rules.words("total_figures")):
            continue
        if "价税" in line.norm:
            continue
        after = line.norm[hit[1].end() :]
        found: list[tuple[Decimal, LayoutLine]] = [(a.value, line) for a in find_amounts(after)]
        for other in layout.right_of(line):
            found += [(a.value, other) for a in find_amounts(other.norm)]
        if len(found) >= 2:
            (net, net_line), (tax, tax_line) = found[0], found[1]
            conf = 0.9 * min(net_line.score, tax_line.score)
            return (Amount(net, (line, net_line), 9.0, conf, net_line.text),
                    Amount(tax, (line, tax_line), 9.0, conf, tax_line.text))  # fmt: skip
    return None


def tax_rate(layout: Layout) -> tuple[str, tuple[LayoutLine, ...]] | None:
    """The tax rate when every percentage on the page is the same (e.g. 13%)."""
    rates: dict[str, list[LayoutLine]] = {}
    for line in layout.lines:
        for m in _RATE.finditer(line.norm):
            rates.setdefault(f"{int(m[1])}%", []).append(line)
    if len(rates) != 1:
        return None
    rate, lines = next(iter(rates.items()))
    return rate, tuple(lines[:3])


def check_code(ctx: Context) -> TextField | None:
    """The 20-digit 校验码 (printed in groups of five, sometimes over two boxes)."""
    for line in ctx.layout.top_down():
        hit = best_keyword(line.norm, ctx.rules.words("check_code"))
        if hit is None:
            continue
        text, lines = value_after(ctx, line, hit[1].end())
        digits = "".join(c for c in text if c.isdigit())
        if len(digits) >= _CHECK_CODE:
            return TextField(digits[:_CHECK_CODE], lines, 0.9 * min(ln.score for ln in lines))
    return None


def _labels(rules: Rules, *categories: str) -> list[str]:
    return [kw.text for cat in categories for kw in rules.words(cat)]


def spaced_cells(layout: Layout, rules: Rules) -> Cells:
    """The page with its letter-spaced labels and vertical margins merged."""
    return merge_spaced(
        layout,
        _labels(rules, "spaced_label", "party_name", "party_tax_id", "party_address", "party_bank",
                "net_tax_row", "check_code"),
        _labels(rules, "buyer_margin", "seller_margin", "side_margin"),
    )  # fmt: skip


def extract_vat(layout: Layout, rules: Rules) -> dict[str, TextField | Amount]:
    """Every VAT field found; amounts as Amount, the rest as TextField (items as ``itemN_*``)."""
    cells = spaced_cells(layout, rules)
    merged = cells.layout
    out: dict[str, TextField | Amount] = {}
    code = labelled_token(merged, rules.words("invoice_code"), (), _DIGITS)
    if code:
        out["invoice_code"] = code
    number = labelled_token(merged, rules.words("invoice_number"), (), _DIGITS)
    if number:
        out["number"] = number
    table = find_table(merged, rules)
    ctx = Context(merged, rules, find_seals(merged, rules.words("seal")), _anchor_y(merged, rules))
    check = check_code(ctx)
    if check:
        out["check_code"] = check
    out.update(read_parties(ctx) or parties(merged, rules))
    words = total_words(merged, rules)
    if words:
        out["total_words"] = words[1]
    figures = total_figures(merged, rules)
    if figures:
        out["total"] = figures
    net, tax = total_row(merged, table) if table else (None, None)
    if net is None or tax is None:
        pair = net_and_tax(merged, rules)
        net, tax = pair if pair else (net, tax)
    for name, amount in (("net", net), ("tax", tax)):
        if amount is not None:
            out[name] = amount
    if table:
        for name, (value, lines, conf) in item_fields(read_items(merged, table)).items():
            out[name] = TextField(value, lines, conf)
    rate = tax_rate(merged)
    if rate:
        out["tax_rate"] = TextField(rate[0], rate[1], 0.85 * rate[1][0].score)
    return {name: dataclasses.replace(f, lines=cells.sources(f.lines)) for name, f in out.items()}


def words_value(field: TextField) -> str:
    """A 大写 field's value in figures (for checks), or "" when it does not parse."""
    value = parse_chinese_upper(field.value)
    return format_amount(value) if value is not None else ""
