"""Receipts in brief, for a list of thousands (the app's Library tab): the columns a table shows, read
in one query per chunk of ids, without the text and the fields' history that ``receipts.load`` reads
(20,000 receipts: a tenth of its time)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scanner_app.core.library.library import Library

CHUNK = 500


@dataclass(frozen=True)
class ReceiptSummary:
    """A receipt's columns in a list; field values are what counts (a person's edit, else what was read)."""

    id: int
    source_path: str
    page: int  # from 1
    pages: int
    document: int | None
    way_in: str
    batch: str | None
    status: str
    category: str | None
    note: str
    date: str
    vendor: str
    total: str
    currency: str
    tags: tuple[str, ...]
    exports: tuple[str, ...]


def _field(name: str) -> str:
    return (f"COALESCE((SELECT COALESCE(f.edited, f.value) FROM fields f"
            f" WHERE f.receipt_id = r.id AND f.name = '{name}'), '')")  # fmt: skip


SUMMARY_SQL = f"""
SELECT r.id, r.source_path, r.page, r.pages, r.document, r.way_in, r.batch, r.status, c.name, r.note,
       {_field("date")}, {_field("vendor")}, {_field("total")}, {_field("currency")},
       (SELECT group_concat(t.tag, char(31)) FROM tags t WHERE t.receipt_id = r.id),
       (SELECT group_concat(e.id || char(30) || e.name, char(31)) FROM receipt_exports x
        JOIN exports e ON e.id = x.export_id WHERE x.receipt_id = r.id)
FROM receipts r LEFT JOIN categories c ON c.id = r.category_id WHERE r.id IN ({{ids}})
"""


def _tags(joined: str | None) -> tuple[str, ...]:
    return tuple(sorted(joined.split("\x1f"))) if joined else ()


def _exports(joined: str | None) -> tuple[str, ...]:
    """The exports' names, oldest first (each ``id<RS>name``)."""
    pairs = [item.split("\x1e", 1) for item in joined.split("\x1f")] if joined else []
    return tuple(name for _, name in sorted(pairs, key=lambda p: int(p[0])))


def summaries_in(db: sqlite3.Connection, ids: Sequence[int]) -> list[ReceiptSummary]:
    """The receipts of ``ids`` in that order (unknown ids left out), inside the caller's read."""
    found: dict[int, ReceiptSummary] = {}
    ids = list(ids)
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        for r in db.execute(SUMMARY_SQL.format(ids=",".join("?" * len(chunk))), chunk):
            row = tuple(r)
            found[row[0]] = ReceiptSummary(
                row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9], row[10],
                row[11], row[12], row[13], _tags(row[14]), _exports(row[15]),
            )  # fmt: skip
    return [found[i] for i in ids if i in found]


def summaries(library: Library, ids: Sequence[int]) -> list[ReceiptSummary]:
    """The receipts of ``ids`` in brief, in that order, in one consistent read."""
    with library.db.read() as db:
        return summaries_in(db, ids)
