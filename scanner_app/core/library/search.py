"""Finding receipts: full-text words, parts of numbers and Chinese, and filters on their fields.

Each word of the query must be found (AND). A word of three characters or more is looked up in the
trigram index (any substring: ``1312`` in ``INV-A1312``, ``咖啡店``) or in the word index as a prefix
(``cafe`` finds ``Café``: unicode61 drops accents, trigram does not). Shorter words: Chinese ones
(one or two characters, which no trigram holds) by a plain scan of the indexed text, others as word
prefixes (``gl`` finds ``GLOBAL``).
"""

from __future__ import annotations

import datetime
import re
import sqlite3
from dataclasses import dataclass
from decimal import Decimal

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


@dataclass(frozen=True)
class Filters:
    """What a search is narrowed to; None (or empty) means any."""

    vendor: str | None = None  # part of the vendor's name, any case
    date_from: datetime.date | None = None
    date_to: datetime.date | None = None
    amount_min: Decimal | None = None  # the total
    amount_max: Decimal | None = None
    currency: str | None = None
    category: str | None = None
    tag: str | None = None
    status: str | None = None
    way_in: str | None = None
    batch: str | None = None  # the batch folder (or its store file) the receipt was read into
    include_duplicates: bool = True  # False: leave confirmed duplicates out


def _phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _term_sql(term: str) -> tuple[str, list[object]]:
    """SQL (a condition on r.id) and its arguments for one query word."""
    words = "r.id IN (SELECT rowid FROM search_words WHERE search_words MATCH ?)"
    prefix = _phrase(term) + "*"
    if len(term) >= 3:
        tri = "r.id IN (SELECT rowid FROM search_tri WHERE search_tri MATCH ?)"
        return f"({tri} OR {words})", [_phrase(term), prefix]
    if CJK.search(term):
        scan = "r.id IN (SELECT id FROM search_doc WHERE instr(body, ?) > 0)"
        return scan, [term]
    return words, [prefix]


def _field(name: str, op: str) -> str:
    return (f"EXISTS (SELECT 1 FROM fields f WHERE f.receipt_id = r.id AND f.name = '{name}'"
            f" AND {op})")  # fmt: skip


def where(query: str, filters: Filters) -> tuple[str, list[object]]:
    """The WHERE clause (over ``receipts r``) and its arguments."""
    parts, args = ["1"], []
    for term in query.split():
        sql, term_args = _term_sql(term)
        parts.append(sql)
        args += term_args
    value = "COALESCE(f.edited, f.value)"
    f = filters
    if f.vendor:
        parts.append(_field("vendor", f"instr(lower({value}), lower(?)) > 0"))
        args.append(f.vendor)
    if f.date_from:
        parts.append(_field("date", f"{value} >= ?"))
        args.append(f.date_from.isoformat())
    if f.date_to:
        parts.append(_field("date", f"{value} != '' AND {value} <= ?"))
        args.append(f.date_to.isoformat())
    if f.amount_min is not None:
        parts.append(_field("total", f"{value} != '' AND CAST({value} AS REAL) >= ?"))
        args.append(float(f.amount_min))
    if f.amount_max is not None:
        parts.append(_field("total", f"{value} != '' AND CAST({value} AS REAL) <= ?"))
        args.append(float(f.amount_max))
    if f.currency:
        parts.append(_field("currency", f"upper({value}) = upper(?)"))
        args.append(f.currency)
    if f.category:
        parts.append("r.category_id IN (SELECT id FROM categories WHERE name = ?)")
        args.append(f.category)
    if f.tag:
        parts.append("r.id IN (SELECT receipt_id FROM tags WHERE tag = ?)")
        args.append(f.tag)
    if f.status:
        parts.append("r.status = ?")
        args.append(f.status)
    if f.way_in:
        parts.append("r.way_in = ?")
        args.append(f.way_in)
    if f.batch:
        parts.append("(r.batch = ? OR r.batch = ? || '/scanner-app.sqlite')")
        args += [f.batch.rstrip("/"), f.batch.rstrip("/")]
    if not f.include_duplicates:
        parts.append("r.status != 'duplicate'")
    return " AND ".join(parts), args


def search_ids(db: sqlite3.Connection, query: str = "", filters: Filters | None = None,
               limit: int | None = None) -> list[int]:  # fmt: skip
    """Ids of the receipts found, newest first."""
    sql, args = where(query, filters or Filters())
    tail = "" if limit is None else f" LIMIT {int(limit)}"
    return [
        r[0] for r in db.execute(f"SELECT r.id FROM receipts r WHERE {sql} ORDER BY r.id DESC{tail}", args)
    ]
