"""Receipts as records, read in bulk; and a person's edits: fields (the edit wins, kept with who and
when), category (learned for the vendor), tags, note, status. Every function takes the connection
inside the caller's transaction (scanner_app.core.library.library opens them)."""

from __future__ import annotations

import datetime
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Literal, get_args

from scanner_app.core.fields.dates import parse_date
from scanner_app.core.library import rules
from scanner_app.core.library.categories import find as find_category
from scanner_app.core.library.search_index import reindex

Status = Literal["new", "to check", "checked", "exported", "duplicate"]
STATUSES: tuple[Status, ...] = get_args(Status)
AMOUNT_FIELDS = ("total", "net", "tax", "rounding")


class EditError(ValueError):
    """An edit that cannot be made (no such receipt, unknown status, a value that is no date)."""


@dataclass(frozen=True)
class FieldValue:
    """One field of a receipt: ``value`` is what counts (a person's edit, else what was read)."""

    name: str
    value: str
    read: str
    confidence: float
    edited_by: str | None = None
    edited_at: float | None = None

    @property
    def edited(self) -> bool:
        return self.edited_at is not None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "value": self.value,
            "read": self.read,
            "confidence": round(self.confidence, 3),
        }
        if self.edited:
            out.update(edited_by=self.edited_by, edited_at=_iso(self.edited_at))
        return out


@dataclass(frozen=True)
class ReceiptRecord:
    """One receipt of the library."""

    id: int
    source_path: str
    sha256: str
    page: int  # from 1
    pages: int
    document: int | None  # the document on a page holding several, from 1
    way_in: str
    read_at: float
    os_user: str
    batch: str | None
    text: str
    status: Status
    category: str | None
    account_code: str | None
    category_source: str | None
    note: str
    tags: tuple[str, ...] = ()
    fields: dict[str, FieldValue] = field(default_factory=dict)
    exports: tuple[str, ...] = ()

    def value(self, name: str) -> str:
        f = self.fields.get(name)
        return f.value if f else ""

    def to_json(self, text: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id, "path": self.source_path, "page": self.page, "pages": self.pages,
            "document": self.document, "sha256": self.sha256, "way_in": self.way_in,
            "read_at": _iso(self.read_at), "user": self.os_user, "batch": self.batch,
            "vendor": self.value("vendor"), "date": self.value("date"), "total": self.value("total"),
            "currency": self.value("currency"), "number": self.value("number"), "status": self.status,
            "category": self.category, "account_code": self.account_code,
            "category_source": self.category_source, "tags": list(self.tags), "note": self.note,
            "exports": list(self.exports), "fields": {n: f.to_json() for n, f in self.fields.items()},
        }  # fmt: skip
        if text:
            out["text"] = self.text
        return out


def _iso(stamp: float | None) -> str | None:
    if stamp is None:
        return None
    return datetime.datetime.fromtimestamp(stamp).astimezone().isoformat(timespec="seconds")


COLUMNS = ("id", "source_path", "sha256", "page", "pages", "document", "way_in", "read_at", "os_user",
           "batch",
           "text", "status", "category", "account_code", "category_source", "note")  # fmt: skip
RECEIPT_SQL = """
SELECT r.id, r.source_path, r.sha256, r.page, r.pages, r.document, r.way_in, r.read_at, r.os_user, r.batch,
       r.text, r.status, c.name, c.account_code, r.category_source, r.note
FROM receipts r LEFT JOIN categories c ON c.id = r.category_id WHERE r.id IN ({ids})
"""


def load(db: sqlite3.Connection, ids: Sequence[int]) -> list[ReceiptRecord]:
    """The receipts of ``ids``, in that order (unknown ids left out)."""
    out: dict[int, ReceiptRecord] = {}
    for chunk in _chunks(list(ids), 500):
        marks = ",".join("?" * len(chunk))
        fields: dict[int, dict[str, FieldValue]] = {}
        for r in db.execute(
            "SELECT receipt_id, name, COALESCE(edited, value), value, confidence, edited_by, edited_at"
            f" FROM fields WHERE receipt_id IN ({marks}) ORDER BY receipt_id, name", chunk
        ):  # fmt: skip
            fields.setdefault(r[0], {})[r[1]] = FieldValue(*tuple(r)[1:])
        tags: dict[int, list[str]] = {}
        for r in db.execute(
            f"SELECT receipt_id, tag FROM tags WHERE receipt_id IN ({marks}) ORDER BY tag", chunk
        ):
            tags.setdefault(r[0], []).append(r[1])
        exports: dict[int, list[str]] = {}
        for r in db.execute(
            "SELECT x.receipt_id, e.name FROM receipt_exports x JOIN exports e ON e.id = x.export_id"
            f" WHERE x.receipt_id IN ({marks}) ORDER BY e.id", chunk
        ):  # fmt: skip
            exports.setdefault(r[0], []).append(r[1])
        for r in db.execute(RECEIPT_SQL.format(ids=marks), chunk):
            rid, values = r[0], dict(zip(COLUMNS, tuple(r), strict=True))
            out[rid] = ReceiptRecord(**values, tags=tuple(tags.get(rid, ())), fields=fields.get(rid, {}),
                                     exports=tuple(exports.get(rid, ())))  # fmt: skip
    return [out[i] for i in ids if i in out]


def _chunks(items: list[int], size: int) -> Iterable[list[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def require(db: sqlite3.Connection, receipt_id: int) -> None:
    if db.execute("SELECT 1 FROM receipts WHERE id = ?", (receipt_id,)).fetchone() is None:
        raise EditError(f"no receipt {receipt_id} in the library")


def field_value(db: sqlite3.Connection, receipt_id: int, name: str) -> str:
    row = db.execute(
        "SELECT COALESCE(edited, value) FROM fields WHERE receipt_id = ? AND name = ?", (receipt_id, name)
    ).fetchone()
    return str(row[0]) if row else ""


def normalise_value(name: str, value: str) -> str:
    """A person's value as the library stores it: dates ISO 8601, amounts with two decimals."""
    value = value.strip()
    if not value:
        return ""
    if name == "date":
        iso = parse_date(value.upper())
        if iso is None:
            raise EditError(f"{value!r} is not a date (write it as YYYY-MM-DD)")
        return iso
    if name in AMOUNT_FIELDS:
        try:
            return str(Decimal(value.replace(",", "")).quantize(Decimal("0.01")))
        except InvalidOperation:
            raise EditError(f"{value!r} is not an amount for {name}") from None
    if name == "currency":
        return value.upper()
    return value


def set_field(db: sqlite3.Connection, receipt_id: int, name: str, value: str, by: str) -> None:
    """A person's value for one field (it wins over what was read; the read value is kept)."""
    require(db, receipt_id)
    value = normalise_value(name, value)
    db.execute(
        "INSERT INTO fields (receipt_id, name, edited, edited_by, edited_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (receipt_id, name) DO UPDATE SET edited = excluded.edited,"
        " edited_by = excluded.edited_by, edited_at = excluded.edited_at",
        (receipt_id, name, value, by, time.time()),
    )
    if name == "vendor":
        apply_rules(db, [receipt_id])
    reindex(db, receipt_id)


def set_category(db: sqlite3.Connection, receipt_id: int, name: str | None) -> None:
    """A person files the receipt under ``name`` (None: under none); the vendor's next receipts follow."""
    require(db, receipt_id)
    category_id = find_category(db, name).id if name else None
    db.execute(
        "UPDATE receipts SET category_id = ?, category_source = ? WHERE id = ?",
        (category_id, "user" if category_id else None, receipt_id),
    )
    rules.learn(db, field_value(db, receipt_id, "vendor"), category_id)
    reindex(db, receipt_id)


def apply_rules(db: sqlite3.Connection, ids: Iterable[int]) -> int:
    """Give each receipt whose category no person chose the category its rules say; how many changed."""
    changed = 0
    for receipt_id in ids:
        row = db.execute("SELECT category_id, category_source, text FROM receipts WHERE id = ?",
                         (receipt_id,)).fetchone()  # fmt: skip
        if row is None or row[1] == "user":
            continue
        found = rules.category_for(db, field_value(db, receipt_id, "vendor"), row[2])
        category_id, source = found if found else (None, None)
        if (category_id, source) != (row[0], row[1]):
            db.execute("UPDATE receipts SET category_id = ?, category_source = ? WHERE id = ?",
                       (category_id, source, receipt_id))  # fmt: skip
            reindex(db, receipt_id)
            changed += 1
    return changed


def set_tags(
    db: sqlite3.Connection, receipt_id: int, add: Iterable[str] = (), remove: Iterable[str] = ()
) -> None:
    require(db, receipt_id)
    for tag in remove:
        db.execute("DELETE FROM tags WHERE receipt_id = ? AND tag = ?", (receipt_id, tag.strip()))
    for tag in add:
        if tag.strip():
            db.execute(
                "INSERT OR IGNORE INTO tags (receipt_id, tag) VALUES (?, ?)", (receipt_id, tag.strip())
            )
    reindex(db, receipt_id)


def set_note(db: sqlite3.Connection, receipt_id: int, note: str) -> None:
    require(db, receipt_id)
    db.execute("UPDATE receipts SET note = ? WHERE id = ?", (note, receipt_id))
    reindex(db, receipt_id)


def set_status(db: sqlite3.Connection, receipt_id: int, status: str) -> None:
    if status not in STATUSES:
        raise EditError(f"unknown status {status!r}; choose from {', '.join(STATUSES)}")
    require(db, receipt_id)
    db.execute("UPDATE receipts SET status = ? WHERE id = ?", (status, receipt_id))
