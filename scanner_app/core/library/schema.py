"""The library's tables, as a list of migrations; the file's version is SQLite's ``PRAGMA user_version``.

A new file runs every step; a file made by an older version runs the steps it lacks, each in its own
transaction with its version bump (a crash between two leaves a file that the next open finishes).
Steps are never edited once released: a change is a new step.

Version 1: receipts, their pages, fields (as read, and a person's edit with who and when), thumbnails,
categories, tags, exports. Version 2: full-text search (one text per receipt, indexed by FTS5 twice:
unicode61 for words, trigram for parts of words and Chinese), image hashes and duplicate flags,
category rules.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from scanner_app.core.store.db import immediate_transaction

V1 = """
CREATE TABLE receipts (
    id INTEGER PRIMARY KEY,
    source_path TEXT NOT NULL, sha256 TEXT NOT NULL,
    part TEXT NOT NULL,              -- 'file': the file's one-document pages; 'p3d2': document 2 of page 3
    page INTEGER NOT NULL,           -- first page, from 1
    pages INTEGER NOT NULL DEFAULT 1,
    document INTEGER,                -- the document on a page holding several, from 1; NULL otherwise
    way_in TEXT NOT NULL, read_at REAL NOT NULL, os_user TEXT NOT NULL, batch TEXT,
    text TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'new'
        CHECK (status IN ('new', 'to check', 'checked', 'exported', 'duplicate')),
    category_id INTEGER REFERENCES categories (id) ON DELETE SET NULL,
    category_source TEXT CHECK (category_source IN ('user', 'rule', 'learned')),
    note TEXT NOT NULL DEFAULT '',
    UNIQUE (source_path, sha256, part));
CREATE INDEX receipts_sha256 ON receipts (sha256);
CREATE TABLE receipt_pages (
    receipt_id INTEGER NOT NULL REFERENCES receipts (id) ON DELETE CASCADE,
    page_index INTEGER NOT NULL, text TEXT NOT NULL, fields TEXT NOT NULL,
    PRIMARY KEY (receipt_id, page_index));
CREATE TABLE fields (
    receipt_id INTEGER NOT NULL REFERENCES receipts (id) ON DELETE CASCADE,
    name TEXT NOT NULL, value TEXT NOT NULL DEFAULT '', confidence REAL NOT NULL DEFAULT 0,
    edited TEXT, edited_by TEXT, edited_at REAL,
    PRIMARY KEY (receipt_id, name));
CREATE INDEX fields_by_name ON fields (name, receipt_id);
CREATE TABLE thumbnails (
    receipt_id INTEGER PRIMARY KEY REFERENCES receipts (id) ON DELETE CASCADE, jpeg BLOB NOT NULL);
CREATE TABLE categories (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE, account_code TEXT);
CREATE TABLE tags (
    receipt_id INTEGER NOT NULL REFERENCES receipts (id) ON DELETE CASCADE, tag TEXT NOT NULL,
    PRIMARY KEY (receipt_id, tag));
CREATE INDEX tags_by_tag ON tags (tag);
CREATE TABLE exports (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, format TEXT NOT NULL, path TEXT NOT NULL,
    exported_at REAL NOT NULL, exported_by TEXT NOT NULL, receipts INTEGER NOT NULL);
CREATE TABLE receipt_exports (
    receipt_id INTEGER NOT NULL REFERENCES receipts (id) ON DELETE CASCADE,
    export_id INTEGER NOT NULL REFERENCES exports (id) ON DELETE CASCADE,
    PRIMARY KEY (receipt_id, export_id));
"""

V2 = """
ALTER TABLE receipts ADD COLUMN phash INTEGER;  -- 64-bit image hashes of the upright receipt crop
ALTER TABLE receipts ADD COLUMN dhash INTEGER;
CREATE TABLE search_doc (
    id INTEGER PRIMARY KEY REFERENCES receipts (id) ON DELETE CASCADE, body TEXT NOT NULL);
CREATE VIRTUAL TABLE search_words USING fts5 (
    body, content='search_doc', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE search_tri USING fts5 (
    body, content='search_doc', content_rowid='id', tokenize='trigram');
CREATE TRIGGER search_doc_ai AFTER INSERT ON search_doc BEGIN
    INSERT INTO search_words (rowid, body) VALUES (new.id, new.body);
    INSERT INTO search_tri (rowid, body) VALUES (new.id, new.body);
END;
CREATE TRIGGER search_doc_ad AFTER DELETE ON search_doc BEGIN
    INSERT INTO search_words (search_words, rowid, body) VALUES ('delete', old.id, old.body);
    INSERT INTO search_tri (search_tri, rowid, body) VALUES ('delete', old.id, old.body);
END;
CREATE TRIGGER search_doc_au AFTER UPDATE ON search_doc BEGIN
    INSERT INTO search_words (search_words, rowid, body) VALUES ('delete', old.id, old.body);
    INSERT INTO search_tri (search_tri, rowid, body) VALUES ('delete', old.id, old.body);
    INSERT INTO search_words (rowid, body) VALUES (new.id, new.body);
    INSERT INTO search_tri (rowid, body) VALUES (new.id, new.body);
END;
CREATE TRIGGER receipts_ad AFTER DELETE ON receipts BEGIN
    DELETE FROM search_doc WHERE id = old.id;
END;
CREATE TABLE duplicates (
    id INTEGER PRIMARY KEY,
    receipt_id INTEGER NOT NULL REFERENCES receipts (id) ON DELETE CASCADE,   -- the later one
    original_id INTEGER NOT NULL REFERENCES receipts (id) ON DELETE CASCADE,  -- the one it repeats
    reason TEXT NOT NULL CHECK (reason IN ('same file', 'same image', 'same fields', 'by hand')),
    detail TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'confirmed', 'dismissed')),
    flagged_at REAL NOT NULL, decided_by TEXT, decided_at REAL,
    UNIQUE (receipt_id, original_id));
CREATE INDEX duplicates_original ON duplicates (original_id);
CREATE TABLE rules (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('exact', 'words', 'regex', 'fuzzy', 'text')),
    pattern TEXT NOT NULL,
    category_id INTEGER NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    learned INTEGER NOT NULL DEFAULT 0,  -- 1: learned from a person's filing (explicit rules win)
    created_at REAL NOT NULL,
    UNIQUE (kind, pattern, learned));
"""


def _v2(db: sqlite3.Connection) -> None:
    _script(db, V2)
    from scanner_app.core.library.search_index import reindex_all  # the index as this version builds it

    reindex_all(db)


def _script(db: sqlite3.Connection, script: str) -> None:
    """Run each statement of ``script`` inside the caller's transaction (executescript would commit)."""
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            db.execute(statement)
            statement = ""
    if statement.strip():
        raise ValueError(f"incomplete statement in the schema: {statement[:60]!r}")


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [
    lambda db: _script(db, V1),
    _v2,
]
SCHEMA_VERSION = len(MIGRATIONS)


def migrate(db: sqlite3.Connection) -> list[int]:
    """Bring the open file (autocommit connection) up to SCHEMA_VERSION; the versions it ran.

    Each step runs in one immediate transaction: a second process opening the file at the same time
    waits, then finds the step done. A file newer than SCHEMA_VERSION is the caller's to refuse.
    """
    ran = []
    for version, step in enumerate(MIGRATIONS, start=1):
        if db.execute("PRAGMA user_version").fetchone()[0] >= version:
            continue
        with immediate_transaction(db):
            if db.execute("PRAGMA user_version").fetchone()[0] < version:  # not done meanwhile
                step(db)
                db.execute(f"PRAGMA user_version = {version}")
                ran.append(version)
    return ran
