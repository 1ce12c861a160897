"""The batch store's SQLite file: its schema, WAL mode, owner-only permissions, and one shared connection.

One connection is shared by every thread (``check_same_thread=False``) behind a lock: SQLite
serialises writers anyway, and a single connection never meets "database is locked" from its own
threads. What is stored in it: scanner_app.core.store.batch_store.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS files (
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, sha256 TEXT NOT NULL, size INTEGER NOT NULL,
    mtime REAL NOT NULL, pages INTEGER, error TEXT, updated_at REAL NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
    retryable INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS files_sha256 ON files (sha256);
CREATE TABLE IF NOT EXISTS pages (
    id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL REFERENCES files (id) ON DELETE CASCADE,
    page_index INTEGER NOT NULL, result TEXT NOT NULL, lines INTEGER NOT NULL,
    elapsed_ms REAL NOT NULL, saved_at REAL NOT NULL, UNIQUE (file_id, page_index));
CREATE TABLE IF NOT EXISTS edits (
    id INTEGER PRIMARY KEY, page_id INTEGER NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
    line_index INTEGER NOT NULL, original TEXT NOT NULL, edited TEXT NOT NULL,
    edited_at REAL NOT NULL, UNIQUE (page_id, line_index));
CREATE TABLE IF NOT EXISTS field_edits (
    id INTEGER PRIMARY KEY, page_id INTEGER NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
    name TEXT NOT NULL, value TEXT NOT NULL, edited_at REAL NOT NULL, UNIQUE (page_id, name));
CREATE TABLE IF NOT EXISTS receipt_field_edits (
    page_id INTEGER NOT NULL REFERENCES pages (id) ON DELETE CASCADE, receipt INTEGER NOT NULL,
    name TEXT NOT NULL, value TEXT NOT NULL, edited_at REAL NOT NULL, PRIMARY KEY (page_id, receipt, name));
CREATE TABLE IF NOT EXISTS checked_receipts (
    page_id INTEGER NOT NULL REFERENCES pages (id) ON DELETE CASCADE, receipt INTEGER NOT NULL,
    checked_at REAL NOT NULL, PRIMARY KEY (page_id, receipt));
"""


@contextmanager
def immediate_transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` on an autocommit connection (the write lock taken up front), committed on
    exit, rolled back on error: the one way the batch store and the library write."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


class StoreDB:
    """The open store file (WAL, full sync, foreign keys on, schema up to date); thread-safe."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # a new folder: owner-only
        self._lock = threading.RLock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.row_factory = sqlite3.Row
        mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode.lower() != "wal":
            raise sqlite3.OperationalError(f"{path}: WAL mode refused (journal mode {mode})")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        with self._lock:
            self._db.executescript(SCHEMA)  # idempotent; each statement commits by itself
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(files)")}
            if "retryable" not in columns:  # stores made before the column existed
                self._db.execute("ALTER TABLE files ADD COLUMN retryable INTEGER NOT NULL DEFAULT 0")
        _owner_only(path)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        """One immediate transaction under the lock, committed on exit, rolled back on error."""
        with self._lock, immediate_transaction(self._db) as db:
            yield db

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """The connection under the lock, for reads that must see one state (no transaction)."""
        with self._lock:
            yield self._db

    def query(self, sql: str, args: Iterable[object] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, tuple(args)).fetchall()


def _owner_only(path: Path) -> None:
    """The store and its WAL files hold receipt text: readable by their owner only."""
    for name in (path.name, f"{path.name}-wal", f"{path.name}-shm"):
        with contextlib.suppress(OSError):
            (path.parent / name).chmod(0o600)
