"""What the full-text index holds for one receipt: its text, its field values (edits win), its tags,
its note and its category's name, in one body that both FTS5 indexes (words, trigrams) read."""

from __future__ import annotations

import sqlite3

BODY_SQL = """
SELECT r.text
    || char(10) || COALESCE((SELECT group_concat(COALESCE(f.edited, f.value), ' ') FROM fields f
                             WHERE f.receipt_id = r.id), '')
    || char(10) || COALESCE((SELECT group_concat(t.tag, ' ') FROM tags t WHERE t.receipt_id = r.id), '')
    || char(10) || r.note
    || char(10) || COALESCE((SELECT c.name FROM categories c WHERE c.id = r.category_id), '')
FROM receipts r WHERE r.id = ?
"""


def reindex(db: sqlite3.Connection, receipt_id: int) -> None:
    """Rewrite one receipt's body (inside the caller's transaction); the triggers update both indexes."""
    row = db.execute(BODY_SQL, (receipt_id,)).fetchone()
    if row is None:
        db.execute("DELETE FROM search_doc WHERE id = ?", (receipt_id,))
        return
    old = db.execute("SELECT body FROM search_doc WHERE id = ?", (receipt_id,)).fetchone()
    if old is None:
        db.execute("INSERT INTO search_doc (id, body) VALUES (?, ?)", (receipt_id, row[0]))
    elif old[0] != row[0]:
        db.execute("UPDATE search_doc SET body = ? WHERE id = ?", (row[0], receipt_id))


def reindex_all(db: sqlite3.Connection) -> int:
    """Every receipt's body again (a migration); how many."""
    ids = [r[0] for r in db.execute("SELECT id FROM receipts ORDER BY id")]
    for receipt_id in ids:
        reindex(db, receipt_id)
    return len(ids)
