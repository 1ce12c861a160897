"""The value types of extracted fields: one field's value, and one consistency check over fields."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

# What a page is; the VAT checks and fields apply to "vat_invoice" (a Chinese 增值税发票).
DocumentKind = Literal["receipt", "invoice", "vat_invoice"]


@dataclass(frozen=True)
class Field:
    """One extracted value: normalised text (ISO date, ``1234.50``, ``13%``), its confidence in
    0..1, the indices of the page lines it came from, and the raw text it was read from."""

    name: str
    value: str
    confidence: float
    lines: tuple[int, ...] = ()
    raw: str = ""
    edited: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "confidence": round(self.confidence, 3),
            "lines": list(self.lines),
            "raw": self.raw,
            "edited": self.edited,
        }

    @classmethod
    def from_json(cls, name: str, data: dict[str, Any]) -> Field:
        return cls(
            name=name,
            value=str(data.get("value", "")),
            confidence=float(data.get("confidence", 0.0)),
            lines=tuple(int(i) for i in data.get("lines", ())),
            raw=str(data.get("raw", "")),
            edited=bool(data.get("edited", False)),
        )


@dataclass(frozen=True)
class Check:
    """A consistency check over fields (e.g. net + tax = total); ``ok`` False flags its fields."""

    name: str
    ok: bool
    message: str
    fields: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "message": self.message, "fields": list(self.fields)}
