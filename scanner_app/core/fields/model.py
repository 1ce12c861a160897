"""Extracted invoice and receipt fields: values with confidence, source lines, checks and flags."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scanner_app.core.fields.checks import run_checks
from scanner_app.core.fields.qr_payload import qr_checks
from scanner_app.core.fields.values import Check, DocumentKind, Field

# The one low-confidence threshold: fields below it are flagged (exports, the review queue) and the
# GUI draws lines and fields below it in amber (viewer.overlay imports it).
LOW_CONFIDENCE = 0.80

# Canonical field names, in the order panels and exports show them.
COMMON_FIELDS = ("vendor", "address", "number", "date", "net", "tax", "tax_rate", "total", "currency")
VAT_FIELDS = (
    "invoice_code", "total_words", "buyer_name", "buyer_tax_id", "seller_name", "seller_tax_id",
)  # fmt: skip
FIELD_NAMES = COMMON_FIELDS + VAT_FIELDS
REQUIRED_FIELDS = ("vendor", "date", "total")


@dataclass(frozen=True)
class InvoiceFields:
    """All fields found on one page, the checks run on them, and the rules that applied."""

    fields: dict[str, Field] = field(default_factory=dict)
    checks: tuple[Check, ...] = ()
    kind: DocumentKind = "receipt"
    language: str = "en"
    template: str = ""  # name of the vendor template that matched, if any
    qr: str = ""  # the fapiao QR payload the fields were cross-checked with (vat_qr), if any

    def get(self, name: str) -> Field | None:
        return self.fields.get(name)

    def value(self, name: str) -> str:
        f = self.fields.get(name)
        return f.value if f else ""

    def names(self) -> list[str]:
        """Field names present, canonical ones first in their usual order."""
        known = [n for n in FIELD_NAMES if n in self.fields]
        return known + sorted(n for n in self.fields if n not in FIELD_NAMES)

    def flags(self, name: str) -> list[str]:
        """Why a field needs review: failed checks naming it, low confidence, or missing."""
        out = [c.name for c in self.checks if not c.ok and name in c.fields]
        f = self.fields.get(name)
        if f is None or not f.value:
            if name in REQUIRED_FIELDS:
                out.append("missing")
        elif not f.edited and f.confidence < LOW_CONFIDENCE:
            out.append("low_confidence")
        return out

    def all_flags(self) -> list[str]:
        """Every flag on the page as ``field:flag`` (for the reimbursement sheet)."""
        names = list(dict.fromkeys([*self.names(), *REQUIRED_FIELDS]))
        return [f"{n}:{flag}" for n in names for flag in self.flags(n)]

    @property
    def flagged(self) -> bool:
        return bool(self.all_flags())

    def with_value(self, name: str, value: str) -> InvoiceFields:
        """A copy with one field set by a person (confidence 1, ``edited``); checks are re-run."""
        old = self.fields.get(name)
        new = Field(name, value, 1.0, old.lines if old else (), old.raw if old else "", edited=True)
        fields = {**self.fields, name: new}
        # the QR's verdicts on the other fields stand (a corrected misreading stays flagged)
        qr = [c for c in self.checks if c.name.startswith("qr_") and name not in c.fields]
        qr += qr_checks({name: new}, self.qr)
        return dataclasses.replace(self, fields=fields, checks=(*run_checks(fields, self.kind), *qr))

    def with_values(self, values: Mapping[str, str]) -> InvoiceFields:
        """A copy with each of ``values`` set by a person (``with_value`` for each, in order)."""
        fields = self
        for name, value in values.items():
            fields = fields.with_value(name, value)
        return fields

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "language": self.language,
            "template": self.template,
            "fields": {n: self.fields[n].to_json() for n in self.names()},
            "checks": [c.to_json() for c in self.checks],
            "flags": self.all_flags(),
            **({"qr": self.qr} if self.qr else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> InvoiceFields:
        fields = {n: Field.from_json(n, f) for n, f in data.get("fields", {}).items()}
        checks = tuple(
            Check(c["name"], bool(c["ok"]), c.get("message", ""), tuple(c.get("fields", ())))
            for c in data.get("checks", ())
        )
        return cls(fields, checks, data.get("kind", "receipt"), data.get("language", "en"),
                   data.get("template", ""), str(data.get("qr", "")))  # fmt: skip


def merge_lines(*groups: Iterable[int]) -> tuple[int, ...]:
    """Sorted unique line indices from several groups."""
    return tuple(sorted({i for g in groups for i in g}))
