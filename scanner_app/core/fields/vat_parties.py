"""The buyer (购买方) and seller (销售方) blocks of a VAT invoice: 名称, 纳税人识别号, 地址、电话 and
开户行及账号, read from the label's own box (the value glued to it) or the boxes right of it on
its row, up to the 密码区 / 备注 column, with the seal's text kept out."""

from __future__ import annotations

import re
from dataclasses import dataclass

from scanner_app.core.fields.header import TextField
from scanner_app.core.fields.layout import Layout, LayoutLine, same_row
from scanner_app.core.fields.rules import Rules
from scanner_app.core.fields.text import Keyword, best_keyword, clean_value, is_cjk
from scanner_app.core.fields.vat_cells import compact
from scanner_app.core.fields.vat_seal import Seal, cut_seal_tail, cut_seal_words, is_seal_text

TAX_ID = re.compile(r"[0-9A-Z]{15,20}")
PHONE = re.compile(
    r"(?:\+?86[-\s]?)?(?:0\d{2,3}[-\s]?\d{7,8}|1[3-9]\d{9}|\d{3,4}-\d{7,8}|\d{7,8})(?:[-转]\d{1,5})?"
)
ACCOUNT = re.compile(r"\d[\d\s-]{6,}\d")
MIN_BLEED = 6  # characters of the seal's tax number glued onto a value before it is cut off
SEAL_BLEED_CONFIDENCE = 0.5  # below LOW_CONFIDENCE: a person looks at a value the seal overlapped
MAX_GAP = 3.0  # between a label's value and the next box of the same value, in line heights
LABELS = (("name", "party_name"), ("tax_id", "party_tax_id"), ("address", "party_address"),
          ("bank", "party_bank"))  # fmt: skip


@dataclass(frozen=True)
class Context:
    """What the block readers share: the merged layout, the seals, the rules and the table's top."""

    layout: Layout
    rules: Rules
    seals: list[Seal]
    anchor: float | None

    def seal_words(self) -> tuple[Keyword, ...]:
        return self.rules.words("seal")

    def is_seal(self, line: LayoutLine) -> bool:
        return is_seal_text(line, self.seals, self.seal_words())


def _margins(ctx: Context, category: str) -> list[LayoutLine]:
    """Vertical margin labels (购买方 / 销售方 / 密码区 / 备注), as merged lines."""
    wanted = {compact(kw.text) for kw in ctx.rules.words(category)}
    return [ln for ln in ctx.layout.lines if compact(ln.text) in wanted]


def _role(ctx: Context, line: LayoutLine) -> str | None:
    """The block a label belongs to: the nearest 购买方 / 销售方 margin on its left (blocks side by
    side, as on 数电票, each have one), else above or below the item table."""
    near = [
        (m.x1, role) for role in ("buyer", "seller") for m in _margins(ctx, f"{role}_margin")
        if m.y0 - 0.5 * line.h <= line.cy <= m.y1 + 0.5 * line.h and m.x1 <= line.x0 + line.h
    ]  # fmt: skip
    if near:
        return max(near)[1]
    if ctx.anchor is None:
        return None
    return "buyer" if line.cy < ctx.anchor else "seller"


def _boundary(ctx: Context, line: LayoutLine) -> float:
    """Where the block's own column ends on this row: the next margin (密码区, 备注, the other
    party's), else the page."""
    margins = [m for cat in ("side_margin", "buyer_margin", "seller_margin") for m in _margins(ctx, cat)]
    edges = [m.x0 for m in margins if m.x0 > line.x1 - 1 and same_row(m, line)]
    return min(edges, default=ctx.layout.width + 1)


def value_after(ctx: Context, line: LayoutLine, end: int) -> tuple[str, tuple[LayoutLine, ...]]:
    """The text after a label at ``end`` in ``line``, continued by the boxes right of it on the row
    (same column, no wider gap than a value's own, no seal text)."""
    text = line.text if len(line.text) == len(line.norm) else line.norm
    rest = cut_seal_words(text[end:], ctx.seal_words())
    parts, lines = [rest], [line]
    edge, last = _boundary(ctx, line), line
    for other in ctx.layout.right_of(line):
        if other.x0 >= edge or other.x0 - last.x1 > MAX_GAP * max(min(other.h, last.h), 1.0):
            break
        if ctx.is_seal(other):
            continue
        if best_keyword(other.norm, ctx.rules.words("party_all")):
            break  # the next label (a two-column block)
        parts.append(cut_seal_words(other.text, ctx.seal_words()))
        lines.append(other)
        last = other
    return clean_value(" ".join(p for p in parts if p.strip())), tuple(lines)


def split_tail(value: str, pattern: re.Pattern[str], seal_ids: tuple[str, ...]) -> tuple[str, str]:
    """(text, tail): the last match of ``pattern`` after the value's last CJK character (a phone
    after an address, an account after a bank), with a seal's tax-number piece after it dropped."""
    last_cjk = max((i for i, c in enumerate(value) if is_cjk(c)), default=-1)
    head, tail = value[: last_cjk + 1], value[last_cjk + 1 :]
    matches = list(pattern.finditer(tail))
    if not matches:
        return clean_value(value), ""
    m = matches[-1] if len(matches[-1][0]) >= 7 else matches[0]
    found = cut_seal_tail(tail[m.start() :], seal_ids, pattern)
    whole = pattern.match(found)
    found = found[: whole.end()] if whole else found
    return clean_value(head + tail[: m.start()]), clean_value(found)


def cut_seal_id(value: str, seal_ids: tuple[str, ...]) -> tuple[str, bool]:
    """``value`` without a tail that is a piece of a tax number printed in the seal (OCR read the
    seal's number into the box: ``…8151160844357334`` + ``4401064790B37C60``), and whether one was cut."""
    for k in range(len(value) - 1, MIN_BLEED - 1, -1):
        if any(value[-k:] in sid for sid in seal_ids):
            return value[:-k].rstrip(), True
    return value, False


def read_parties(ctx: Context) -> dict[str, TextField]:
    """buyer_/seller_ name, tax_id, address, phone, bank and account, where printed."""
    seal_ids = tuple(m[0] for ln in ctx.layout.lines if ctx.is_seal(ln) for m in TAX_ID.finditer(ln.norm))
    out: dict[str, TextField] = {}
    for line in ctx.layout.top_down():
        for kind, category in LABELS:
            hit = best_keyword(line.norm, ctx.rules.words(category))
            if hit is None or hit[1].start() > 2:
                continue
            role = _role(ctx, line)
            if role is None or f"{role}_{kind}" in out:
                break
            text, lines = value_after(ctx, line, hit[1].end())
            conf = 0.9 * min(ln.score for ln in lines)
            if kind == "tax_id":
                m = TAX_ID.search(text.upper().replace(" ", ""))
                if m:
                    out[f"{role}_tax_id"] = TextField(m[0], lines, conf)
            elif kind in ("address", "bank"):
                pattern, second = (PHONE, "phone") if kind == "address" else (ACCOUNT, "account")
                own_id = out.get(f"{role}_tax_id")
                text, bled = cut_seal_id(text, (*seal_ids, *((own_id.value,) if own_id else ())))
                if bled:  # the seal's ink lay over this value: what was under it may be misread
                    conf = min(conf, SEAL_BLEED_CONFIDENCE)
                head, tail = split_tail(text, pattern, seal_ids)
                if kind == "bank":
                    tail = re.sub(r"[\s-]", "", tail)
                for name, value in ((kind, head), (second, tail)):
                    if value:
                        out[f"{role}_{name}"] = TextField(value, lines, conf)
            elif text:
                out[f"{role}_name"] = TextField(text, lines, conf)
            break
    return out
