"""The same receipt read twice, in three layers, flagged on arrival; a person confirms or dismisses.

1. ``same file``: another file with the same content (a copy under another name).
2. ``same image``: the same receipt from another image (a scan and a phone photo, another DPI,
   recompressed, turned, cropped a little): the 64-bit image hashes of the upright receipt crops
   (``crop``) within HASH_DISTANCE bits raise candidates, the texts confirm (TEXT_SIMILAR of their
   character trigrams and NUMBERS_SIMILAR of their numbers: two receipts of one shop share a header,
   not their amounts, dates and receipt numbers).
3. ``same fields``: the same vendor (fuzzy), date and total, and number where both have one, from
   any image.

A flag names the later receipt, the one it repeats (the earlier), the reason and its detail. Each
arriving receipt gets at most one flag; a pair is flagged once, ever: a dismissed pair stays
dismissed however often either receipt is read again. A confirmed duplicate gets the status
``duplicate`` (exports leave it out unless asked).
"""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

import numpy as np

from scanner_app.core.library.rules import normalise

# Chosen on benchmarks/duplicates.py (60 SROIE receipts x 5 images, real OCR): the same receipt's
# images lay up to 24 bits apart; different receipts of one shop (sroie-dev has several) share up
# to 0.61 of their numbers, the same receipt read twice at least 0.65 but for one pair. At 22 / 0.5
# the run gave recall 235/240 and 7 false pairs; these values give 240/240 and 0 replayed on that
# run's stored readings (the margin on numbers is thin: tuned on the data it is measured on).
HASH_DISTANCE = 26  # bits of 64, phash or dhash: raises a candidate (the text decides)
TEXT_SIMILAR = 0.45  # Jaccard of the texts' character trigrams
NUMBERS_SIMILAR = 0.65  # Jaccard of the texts' numbers (tokens with a digit)
FEW_NUMBERS = 3  # with fewer numbers on either receipt, the trigrams alone decide, at STRICT_TEXT
STRICT_TEXT = 0.7
VENDOR_SIMILAR = 0.85
_BITS = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


@dataclass(frozen=True)
class DuplicateFlag:
    id: int
    receipt_id: int  # the later receipt
    original_id: int  # the receipt it repeats
    reason: str
    detail: str
    state: str  # open, confirmed, dismissed
    flagged_at: float
    decided_by: str | None
    receipt_path: str = ""
    original_path: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "state": self.state, "reason": self.reason, "detail": self.detail,
            "receipt": {"id": self.receipt_id, "path": self.receipt_path},
            "original": {"id": self.original_id, "path": self.original_path},
            "decided_by": self.decided_by,
        }  # fmt: skip


class DuplicateError(ValueError):
    """A pair that cannot be decided (a receipt with itself, an unknown receipt)."""


def _tokens(text: str) -> list[str]:
    return re.findall(r"[0-9A-Z]+|[\u3400-\u9fff]", text.upper())


def _trigrams(text: str) -> set[str]:
    joined = "".join(_tokens(text))
    return {joined[i : i + 3] for i in range(len(joined) - 2)}


def _numbers(text: str) -> set[str]:
    return {t for t in _tokens(text) if any(c.isdigit() for c in t) and len(t) >= 2}


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def same_text(a: str, b: str) -> tuple[bool, str]:
    """Whether two receipt texts are one receipt read twice, and the figures that say so."""
    text = _jaccard(_trigrams(a), _trigrams(b))
    na, nb = _numbers(a), _numbers(b)
    if min(len(na), len(nb)) < FEW_NUMBERS:
        return text >= STRICT_TEXT, f"text {text:.2f}"
    numbers = _jaccard(na, nb)
    return text >= TEXT_SIMILAR and numbers >= NUMBERS_SIMILAR, f"text {text:.2f}, numbers {numbers:.2f}"


def _distances(value: int, others: np.ndarray) -> np.ndarray:
    """Hamming distances of a signed 64-bit hash to an int64 array of them."""
    x = np.ascontiguousarray(np.bitwise_xor(others, np.int64(value))).view(np.uint8).reshape(-1, 8)
    return _BITS[x].sum(axis=1)


def _excluded(tx: sqlite3.Connection, receipt_id: int) -> set[int]:
    """Receipts never to flag with this one: pairs decided or flagged already, either way round."""
    rows = tx.execute("SELECT receipt_id, original_id FROM duplicates"
                      " WHERE receipt_id = ? OR original_id = ?",
                      (receipt_id, receipt_id))  # fmt: skip
    return {a if b == receipt_id else b for a, b in rows} | {receipt_id}


def _value(tx: sqlite3.Connection, receipt_id: int, name: str) -> str:
    row = tx.execute("SELECT COALESCE(edited, value) FROM fields WHERE receipt_id = ? AND name = ?",
                     (receipt_id, name)).fetchone()  # fmt: skip
    return str(row[0]) if row and row[0] else ""


def _same_file(tx: sqlite3.Connection, r: sqlite3.Row, skip: set[int]) -> tuple[int, str] | None:
    for (other,) in tx.execute("SELECT id FROM receipts WHERE sha256 = ? AND part = ? ORDER BY id",
                               (r["sha256"], r["part"])):  # fmt: skip
        if other not in skip:
            return other, "same content (SHA-256)"
    return None


def _same_image(tx: sqlite3.Connection, r: sqlite3.Row, skip: set[int]) -> tuple[int, str] | None:
    if r["phash"] is None:
        return None
    rows = tx.execute("SELECT id, phash, dhash FROM receipts WHERE phash IS NOT NULL").fetchall()
    if not rows:
        return None
    table = np.array([tuple(row) for row in rows], dtype=np.int64)
    dp, dd = _distances(r["phash"], table[:, 1]), _distances(r["dhash"], table[:, 2])
    near = np.nonzero(np.minimum(dp, dd) <= HASH_DISTANCE)[0]
    for i in sorted(near, key=lambda i: (int(min(dp[i], dd[i])), int(table[i, 0]))):
        other = int(table[i, 0])
        if other in skip:
            continue
        text = tx.execute("SELECT text FROM receipts WHERE id = ?", (other,)).fetchone()[0]
        same, figures = same_text(r["text"], text)
        if same:
            return other, f"image hashes {int(dp[i])}/{int(dd[i])} bits apart of 64, {figures}"
    return None


def _same_fields(tx: sqlite3.Connection, r: sqlite3.Row, skip: set[int]) -> tuple[int, str] | None:
    vendor, date, total = (_value(tx, r["id"], n) for n in ("vendor", "date", "total"))
    if not (vendor and date and total):
        return None
    number = normalise(_value(tx, r["id"], "number")).replace(" ", "")
    rows = tx.execute(
        "SELECT d.receipt_id FROM fields d JOIN fields t ON t.receipt_id = d.receipt_id AND t.name = 'total'"
        " WHERE d.name = 'date' AND COALESCE(d.edited, d.value) = ? AND COALESCE(t.edited, t.value) = ?"
        " ORDER BY d.receipt_id",
        (date, total),
    ).fetchall()
    for (other,) in rows:
        if other in skip:
            continue
        theirs = _value(tx, other, "vendor")
        if SequenceMatcher(None, normalise(vendor), normalise(theirs)).ratio() < VENDOR_SIMILAR:
            continue
        their_number = normalise(_value(tx, other, "number")).replace(" ", "")
        if number and their_number and number != their_number:
            continue
        return other, f"vendor {theirs!r}, date {date}, total {total}" + (
            f", number {number}" if number else ""
        )
    return None


LAYERS = (("same file", _same_file), ("same image", _same_image), ("same fields", _same_fields))


def flag_on_arrival(tx: sqlite3.Connection, receipt_id: int) -> DuplicateFlag | None:
    """Flag ``receipt_id`` against the receipt it repeats, if any (inside the caller's transaction)."""
    r = tx.execute(
        "SELECT id, sha256, part, phash, dhash, text FROM receipts WHERE id = ?", (receipt_id,)
    ).fetchone()
    if r is None:
        return None
    if tx.execute("SELECT 1 FROM duplicates WHERE receipt_id = ? AND state != 'dismissed'",
                  (receipt_id,)).fetchone():  # fmt: skip
        return None  # flagged already, as the later of a pair
    skip = _excluded(tx, receipt_id)
    for reason, layer in LAYERS:
        found = layer(tx, r, skip)
        if found is not None:
            other, detail = found
            later, earlier = max(receipt_id, other), min(receipt_id, other)
            tx.execute(
                "INSERT INTO duplicates (receipt_id, original_id, reason, detail, flagged_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (later, earlier, reason, detail, time.time()),
            )
            return flag(tx, later, earlier)
    return None


FLAG_SQL = """
SELECT d.id, d.receipt_id, d.original_id, d.reason, d.detail, d.state, d.flagged_at, d.decided_by,
       a.source_path, b.source_path
FROM duplicates d JOIN receipts a ON a.id = d.receipt_id JOIN receipts b ON b.id = d.original_id
"""


def flag(tx: sqlite3.Connection, a: int, b: int) -> DuplicateFlag | None:
    """The flag on the pair (either order), or None."""
    row = tx.execute(
        FLAG_SQL + " WHERE d.receipt_id = ? AND d.original_id = ?", (max(a, b), min(a, b))
    ).fetchone()
    return DuplicateFlag(*tuple(row)) if row else None


def flags(tx: sqlite3.Connection, states: tuple[str, ...] = ("open",)) -> list[DuplicateFlag]:
    marks = ",".join("?" * len(states))
    rows = tx.execute(FLAG_SQL + f" WHERE d.state IN ({marks}) ORDER BY d.id", states).fetchall()
    return [DuplicateFlag(*tuple(r)) for r in rows]


def decide(tx: sqlite3.Connection, a: int, b: int, state: str, by: str) -> DuplicateFlag:
    """Confirm or dismiss the pair (a pair never flagged is recorded ``by hand``); the flag as it is now."""
    if state not in ("confirmed", "dismissed"):
        raise DuplicateError(f"a pair is confirmed or dismissed, not {state!r}")
    if a == b:
        raise DuplicateError("a receipt is no duplicate of itself")
    for receipt_id in (a, b):
        if tx.execute("SELECT 1 FROM receipts WHERE id = ?", (receipt_id,)).fetchone() is None:
            raise DuplicateError(f"no receipt {receipt_id} in the library")
    later, earlier = max(a, b), min(a, b)
    tx.execute(
        "INSERT INTO duplicates (receipt_id, original_id, reason, detail, state, flagged_at, decided_by,"
        " decided_at)"
        " VALUES (?, ?, 'by hand', '', ?, ?, ?, ?) ON CONFLICT (receipt_id, original_id) DO UPDATE SET"
        " state = excluded.state, decided_by = excluded.decided_by, decided_at = excluded.decided_at",
        (later, earlier, state, time.time(), by, time.time()),
    )
    if state == "confirmed":
        tx.execute("UPDATE receipts SET status = 'duplicate' WHERE id = ?", (later,))
    elif not tx.execute(
        "SELECT 1 FROM duplicates WHERE receipt_id = ? AND state = 'confirmed'", (later,)
    ).fetchone():
        tx.execute("UPDATE receipts SET status = 'to check' WHERE id = ? AND status = 'duplicate'", (later,))
    found = flag(tx, later, earlier)
    assert found is not None
    return found
