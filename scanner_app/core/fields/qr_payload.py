"""A fapiao QR payload and its checks against fields (no image, no model: InvoiceFields re-runs
these after a person's edit).

The payload is comma-separated: ``01,<kind>,<code>,<number>,<net>,<YYYYMMDD>,<check code>,<crc>,``
(``kind`` 01 专用, 04 普通, 10 电子普通, 31/32 数电; code and check code empty on 数电票)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from scanner_app.core.fields.amounts import format_amount, to_decimal
from scanner_app.core.fields.values import Check, Field

KINDS = {"01": "增值税专用发票", "04": "增值税普通发票", "10": "增值税电子普通发票", "11": "卷式发票",
         "14": "通行费发票", "20": "电子发票（增值税专用发票）", "31": "数电票（专用发票）",
         "32": "数电票（普通发票）"}  # fmt: skip


@dataclass(frozen=True)
class FapiaoQr:
    """The fields a fapiao's QR code carries (empty where the kind of invoice prints none)."""

    kind: str
    invoice_code: str
    number: str
    net: str
    date: str
    check_code: str
    text: str

    def fields(self) -> dict[str, str]:
        """The QR's values under extract_fields' names (empty ones left out)."""
        values = {"invoice_code": self.invoice_code, "number": self.number, "net": self.net,
                  "date": self.date, "check_code": self.check_code}  # fmt: skip
        return {k: v for k, v in values.items() if v}


def parse_qr(text: str) -> FapiaoQr | None:
    """A fapiao QR payload, or None when ``text`` is not one (another QR code on the page)."""
    parts = [p.strip() for p in text.strip().split(",")]
    if len(parts) < 6 or parts[0] != "01" or not parts[3].isdigit():
        return None
    amount = to_decimal(parts[4]) if parts[4] else None
    try:
        date = dt.datetime.strptime(parts[5], "%Y%m%d").date().isoformat() if parts[5] else ""
    except ValueError:
        return None
    code = parts[2] if parts[2].isdigit() else ""
    check = parts[6] if len(parts) > 6 and parts[6].isdigit() else ""
    net = format_amount(amount) if amount is not None else ""
    return FapiaoQr(parts[1], code, parts[3], net, date, check, text)


def first_fapiao_qr(payloads: Iterable[str]) -> FapiaoQr | None:
    """The first payload that is a fapiao QR."""
    return next((qr for qr in map(parse_qr, payloads) if qr is not None), None)


def same(name: str, read: str, qr: str) -> bool:
    """Whether a field's value agrees with the QR's."""
    if name == "net":
        a, b = to_decimal(read), to_decimal(qr)
        return a is not None and b is not None and a == Decimal(b)
    if name == "check_code":  # some QR codes carry only the check code's last digits
        return read.replace(" ", "").endswith(qr)
    return read.strip() == qr


def qr_check(name: str, read: str, qr: str) -> Check:
    """The ``qr_<name>`` check of one value against the QR's."""
    if same(name, read, qr):
        return Check(f"qr_{name}", True, f"{name} {read} = QR code", (name,))
    return Check(f"qr_{name}", False, f"{name}: read {read!r}, the QR code says {qr!r}", (name,))


def qr_checks(fields: Mapping[str, Field], text: str) -> list[Check]:
    """The ``qr_*`` checks of ``fields`` against the QR payload ``text`` (no correction: after a
    person's edit, the edited value is checked against the QR as it stands)."""
    qr = parse_qr(text) if text else None
    if qr is None:
        return []
    read = {n: f.value for n, f in fields.items() if f.value}
    return [qr_check(n, read[n], v) for n, v in qr.fields().items() if n in read]
