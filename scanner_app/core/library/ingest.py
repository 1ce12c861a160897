"""A page read by any way in, into receipt entries, as it is read.

Entries are documents, not files. A page the server found several documents on gives one entry per
document (``part`` ``p<page>d<document>``); the pages of a file that hold one document each are one
entry together (``part`` ``file``: a 12-page invoice is one receipt), its text their texts in page
order, its fields the first page's where the first pages have them (vendor, number, date...) and the
last page's for the amounts (a total is printed at the end). An entry is keyed by its file's path,
its content hash and its part: the same file read again (a resumed batch, an imported batch folder, the
viewer and then the Batch tab) updates its entry and is never a second one; a person's edits stay.

The image work (page read again, crop, thumbnail, hashes: ``crop``) runs before the write
transaction, and only for an entry's first page; a file no longer on disk gives an entry without
thumbnail. Then one transaction writes the entry, files it by the rules, updates the search index
and flags duplicates.
"""

from __future__ import annotations

import getpass
import json
import logging
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from scanner_app.core.fields.extract import extract_fields
from scanner_app.core.fields.model import LOW_CONFIDENCE, REQUIRED_FIELDS
from scanner_app.core.library import duplicates
from scanner_app.core.library.crop import ReceiptImage, document_crop, page_image, receipt_image
from scanner_app.core.library.db import LibraryDB
from scanner_app.core.library.receipts import apply_rules
from scanner_app.core.library.search_index import reindex
from scanner_app.core.results import PageResult

log = logging.getLogger(__name__)

LAST_PAGE_FIELDS = frozenset(("total", "net", "tax", "tax_rate", "rounding", "currency", "total_words"))


@dataclass(frozen=True)
class PageIn:
    """One page as a way in read it: its file (path, content hash, page count), index from 0, result."""

    path: Path
    sha256: str
    index: int
    result: PageResult
    way_in: str
    batch: str | None = None  # the batch store it was saved in, if any
    read_at: float | None = None  # when it was read (default: now)


@dataclass(frozen=True)
class _Doc:
    part: str
    document: int | None  # from 1, on a page with several
    number: int  # index into result.documents()
    page: PageResult  # the document's own lines (document_page)


def os_user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no user name in the environment or the password database
        return "unknown"


def documents(result: PageResult, index: int) -> list[_Doc]:
    if len(result.receipts) > 1:
        return [
            _Doc(f"p{index + 1}d{k + 1}", k + 1, k, result.document_page(k))
            for k in range(len(result.receipts))
        ]
    return [_Doc("file", None, 0, result.document_page(0))]


def ingest_page(db: LibraryDB, page: PageIn) -> list[int]:
    """The page's receipts into the library (idempotent for the same page); their ids."""
    docs = documents(page.result, page.index)
    key = (str(page.path), page.sha256)
    pictures: dict[str, ReceiptImage | None] = {}
    image = None
    for doc in docs:
        if not _needs_image(db, key, doc.part, page.index):
            continue
        try:
            if image is None:
                image = page_image(page.path, page.index)
            pictures[doc.part] = receipt_image(document_crop(image, page.result, doc.number))
        except Exception as exc:  # the file is gone or unreadable now: the entry has no thumbnail
            log.warning("no thumbnail for %s page %d: %s", page.path, page.index + 1, exc)
            pictures[doc.part] = None
    read = [(doc, extract_fields(doc.page).to_json()) for doc in docs]
    ids = []
    with db.tx() as tx:
        for doc, fields in read:
            receipt_id = _write(tx, page, doc, fields, pictures)
            apply_rules(tx, [receipt_id])
            reindex(tx, receipt_id)
            duplicates.flag_on_arrival(tx, receipt_id)
            ids.append(receipt_id)
    return ids


def _needs_image(db: LibraryDB, key: tuple[str, str], part: str, index: int) -> bool:
    row = db.query(
        "SELECT r.page, t.receipt_id IS NOT NULL FROM receipts r"
        " LEFT JOIN thumbnails t ON t.receipt_id = r.id"
        " WHERE r.source_path = ? AND r.sha256 = ? AND r.part = ?", (*key, part)
    )  # fmt: skip
    if not row:
        return True
    first, has_thumbnail = row[0][0], bool(row[0][1])
    return index + 1 < first or (index + 1 == first and not has_thumbnail)


def _write(
    tx: sqlite3.Connection, page: PageIn, doc: _Doc, fields: dict, pictures: dict[str, ReceiptImage | None]
) -> int:
    row = tx.execute(
        "SELECT id, page FROM receipts WHERE source_path = ? AND sha256 = ? AND part = ?",
        (str(page.path), page.sha256, doc.part),
    ).fetchone()
    if row is None:
        receipt_id = int(tx.execute(
            "INSERT INTO receipts (source_path, sha256, part, page, document, way_in, read_at, os_user,"
            " batch)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (str(page.path), page.sha256, doc.part, page.index + 1, doc.document, page.way_in,
             page.read_at or time.time(), os_user(), page.batch),
        ).fetchone()[0])  # fmt: skip
        first = True
    else:
        receipt_id, first = int(row[0]), page.index + 1 <= row[1]
    tx.execute(
        "INSERT INTO receipt_pages (receipt_id, page_index, text, fields) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (receipt_id, page_index) DO UPDATE SET text = excluded.text, fields = excluded.fields",
        (receipt_id, page.index, doc.page.text, json.dumps(fields, ensure_ascii=False)),
    )
    picture = pictures.get(doc.part)
    if first and picture is not None:
        tx.execute(
            "INSERT OR REPLACE INTO thumbnails (receipt_id, jpeg) VALUES (?, ?)",
            (receipt_id, picture.thumbnail),
        )
        tx.execute(
            "UPDATE receipts SET phash = ?, dhash = ? WHERE id = ?",
            (picture.phash, picture.dhash, receipt_id),
        )
    _merge_pages(tx, receipt_id)
    return receipt_id


def _merge_pages(tx: sqlite3.Connection, receipt_id: int) -> None:
    """The entry's text, first page, page count and fields from its stored pages."""
    rows = tx.execute(
        "SELECT page_index, text, fields FROM receipt_pages WHERE receipt_id = ? ORDER BY page_index",
        (receipt_id,),
    ).fetchall()
    merged: dict[str, tuple[str, float]] = {}
    for _, _, data in rows:
        for name, found in json.loads(data).get("fields", {}).items():
            if found.get("value") and (name in LAST_PAGE_FIELDS or name not in merged):
                merged[name] = (str(found["value"]), float(found.get("confidence", 0.0)))
    text = "\n".join(r[1] for r in rows)
    tx.execute("UPDATE receipts SET text = ?, page = ?, pages = ? WHERE id = ?",
               (text, rows[0][0] + 1, len(rows), receipt_id))  # fmt: skip
    tx.execute("DELETE FROM fields WHERE receipt_id = ? AND edited_at IS NULL", (receipt_id,))
    tx.execute("UPDATE fields SET value = '', confidence = 0 WHERE receipt_id = ?", (receipt_id,))
    tx.executemany(
        "INSERT INTO fields (receipt_id, name, value, confidence) VALUES (?, ?, ?, ?) ON CONFLICT"
        " (receipt_id, name) DO UPDATE SET value = excluded.value, confidence = excluded.confidence",
        [(receipt_id, name, value, confidence) for name, (value, confidence) in merged.items()],
    )
    doubtful = any(merged.get(n, ("", 0.0))[1] < LOW_CONFIDENCE for n in REQUIRED_FIELDS)
    tx.execute(
        "UPDATE receipts SET status = ? WHERE id = ? AND status IN ('new', 'to check')",
        ("to check" if doubtful else "new", receipt_id),
    )
