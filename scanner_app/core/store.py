"""A batch's persistent state: files, page results, line and field edits in one SQLite file (WAL mode).

The database lives in the batch's output folder (``<out>/scanner-app.sqlite``). One connection is
shared by every thread (``check_same_thread=False``) behind a lock: SQLite serialises writers
anyway, a single connection never meets "database is locked" from its own threads, and each call
is one short transaction. Every write commits at once, so a crash loses at most the page in flight.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from scanner_app.core.results import PageResult
from scanner_app.core.store_records import (
    STATES,
    FileRecord,
    FileResult,
    FileState,
    LineEdit,
    PageRecord,
    StoreSummary,
    file_sha256,
    path_from_text,
    path_text,
    utf8_safe,
)

__all__ = ["STATES", "STORE_NAME", "BatchStore", "FileRecord", "FileResult", "FileState", "LineEdit",
           "PageRecord", "StoreSummary", "file_sha256", "path_from_text", "path_text",
           "utf8_safe"]  # fmt: skip

STORE_NAME = "scanner-app.sqlite"

_SCHEMA = """
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


def _id(item: FileRecord | PageRecord | int) -> int:
    return item if isinstance(item, int) else item.id


class BatchStore:
    """Files, pages and edits of one batch; every method is thread-safe and commits at once."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # a new folder: owner-only
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.row_factory = sqlite3.Row
        mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode.lower() != "wal":
            raise sqlite3.OperationalError(f"{self.path}: WAL mode refused (journal mode {mode})")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        with self._lock:
            self._db.executescript(_SCHEMA)  # idempotent; each statement commits by itself
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(files)")}
            if "retryable" not in columns:  # stores made before the column existed
                self._db.execute("ALTER TABLE files ADD COLUMN retryable INTEGER NOT NULL DEFAULT 0")
        _owner_only(self.path)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> BatchStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One immediate transaction under the lock, committed on exit, rolled back on error."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _query(self, sql: str, args: Iterable[object] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, tuple(args)).fetchall()

    # Files ----------------------------------------------------------------------------------
    def add_files(self, paths: Iterable[Path | str]) -> list[FileRecord]:
        """Add (or re-check) files; return their records in the order given.

        A file already stored with the same content keeps its state (a done file is not sent
        again; size and mtime unchanged count as the same content); a changed file is queued again
        and its old pages are dropped. A new path whose content equals a done file's is marked done
        with a copy of that file's pages (their ``PageResult.image`` names the first file).
        """
        ids = []
        for raw in paths:
            path = Path(raw).absolute()
            st = path.stat()
            row = self._query("SELECT * FROM files WHERE path = ?", (path_text(path),))
            if row and (row[0]["size"], row[0]["mtime"]) == (st.st_size, st.st_mtime):
                ids.append(row[0]["id"])  # same size and time: trust the stored hash, read nothing
                continue
            sha = file_sha256(path)
            now = time.time()
            with self._tx() as db:
                row = db.execute("SELECT id, sha256 FROM files WHERE path = ?", (path_text(path),)).fetchone()
                if row is not None and row["sha256"] == sha:
                    db.execute("UPDATE files SET mtime = ? WHERE id = ?", (st.st_mtime, row["id"]))
                    ids.append(row["id"])
                    continue
                if row is not None:  # changed content: start this file over
                    db.execute("DELETE FROM pages WHERE file_id = ?", (row["id"],))
                    db.execute(
                        "UPDATE files SET sha256 = ?, size = ?, mtime = ?, pages = NULL, state = 'queued',"
                        " error = NULL, updated_at = ? WHERE id = ?",
                        (sha, st.st_size, st.st_mtime, now, row["id"]),
                    )
                    file_id = row["id"]
                else:
                    file_id = db.execute(
                        "INSERT INTO files (path, sha256, size, mtime, state, updated_at)"
                        " VALUES (?, ?, ?, ?, 'queued', ?)",
                        (path_text(path), sha, st.st_size, st.st_mtime, now),
                    ).lastrowid
                twin = db.execute(
                    "SELECT id, pages FROM files WHERE sha256 = ? AND state = 'done' AND id != ?",
                    (sha, file_id),
                ).fetchone()
                if twin is not None:
                    db.execute(
                        "INSERT INTO pages (file_id, page_index, result, lines, elapsed_ms, saved_at)"
                        " SELECT ?, page_index, result, lines, elapsed_ms, ? FROM pages WHERE file_id = ?",
                        (file_id, now, twin["id"]),
                    )
                    db.execute(
                        "UPDATE files SET state = 'done', pages = ? WHERE id = ?", (twin["pages"], file_id)
                    )
                ids.append(file_id)
        return [self.file(i) for i in ids]

    def file(self, file: FileRecord | int) -> FileRecord:
        """The current record of a file."""
        rows = self._query("SELECT * FROM files WHERE id = ?", (_id(file),))
        if not rows:
            raise KeyError(f"no file with id {_id(file)}")
        return _file(rows[0])

    def files(self, state: FileState | None = None) -> list[FileRecord]:
        """All files (or those in one state), in the order they were added."""
        if state is None:
            return [_file(r) for r in self._query("SELECT * FROM files ORDER BY id")]
        return [_file(r) for r in self._query("SELECT * FROM files WHERE state = ? ORDER BY id", (state,))]

    def pending(self) -> list[FileRecord]:
        """Files still to be read (state queued)."""
        return self.files("queued")

    def _set_state(
        self, file: FileRecord | int, state: FileState, error: str | None, pages: int | None
    ) -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE files SET state = ?, error = ?, pages = COALESCE(?, pages), updated_at = ?"
                " WHERE id = ?",
                (state, error, pages, time.time(), _id(file)),
            )

    def mark_running(self, file: FileRecord | int) -> None:
        self._set_state(file, "running", None, None)

    def mark_queued(self, file: FileRecord | int) -> None:
        self._set_state(file, "queued", None, None)

    def mark_done(self, file: FileRecord | int, pages: int | None = None) -> None:
        self._set_state(file, "done", None, pages)

    def mark_failed(self, file: FileRecord | int, error: str, retryable: bool = False) -> None:
        """`retryable`: the server failed, not the file; a later run (resume) sends it again."""
        self._set_state(file, "failed", error, None)
        with self._tx() as db:
            db.execute("UPDATE files SET retryable = ? WHERE id = ?", (int(retryable), _id(file)))

    def set_page_count(self, file: FileRecord | int, pages: int) -> None:
        with self._tx() as db:
            db.execute("UPDATE files SET pages = ? WHERE id = ?", (pages, _id(file)))

    def reset_running(self) -> int:
        """On resume: files left running by a run that died go back to queued; how many."""
        with self._tx() as db:
            cur = db.execute("UPDATE files SET state = 'queued', updated_at = ? WHERE state = 'running'",
                             (time.time(),))  # fmt: skip
            return cur.rowcount

    def requeue_failed(self, only_retryable: bool = False) -> int:
        """Queue the failed files again (to retry them), or only those the server failed; how many."""
        where = "state = 'failed'" + (" AND retryable = 1" if only_retryable else "")
        with self._tx() as db:
            cur = db.execute("UPDATE files SET state = 'queued', error = NULL, retryable = 0,"
                             f" updated_at = ? WHERE {where}", (time.time(),))  # fmt: skip
            return cur.rowcount

    def clear(self) -> None:
        """Forget every file, page and edit (a fresh batch)."""
        with self._tx() as db:
            db.execute("DELETE FROM files")

    # Pages ----------------------------------------------------------------------------------
    def save_page(self, file: FileRecord | int, index: int, result: PageResult) -> int:
        """Store one page's result (replacing an earlier one of that page and its edits); its id."""
        data = utf8_safe(json.dumps(result.to_json(), ensure_ascii=False))  # a name may not be UTF-8
        with self._tx() as db:
            row = db.execute(
                "INSERT INTO pages (file_id, page_index, result, lines, elapsed_ms, saved_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (file_id, page_index) DO UPDATE SET"
                " result = excluded.result, lines = excluded.lines, elapsed_ms = excluded.elapsed_ms,"
                " saved_at = excluded.saved_at RETURNING id",
                (_id(file), index, data, len(result.lines), result.elapsed_ms, time.time()),
            ).fetchone()
            db.execute("DELETE FROM edits WHERE page_id = ?", (row[0],))
            return int(row[0])

    def page_indexes(self, file: FileRecord | int) -> set[int]:
        """Indexes of the pages stored for a file."""
        rows = self._query("SELECT page_index FROM pages WHERE file_id = ?", (_id(file),))
        return {r[0] for r in rows}

    def pages(self, file: FileRecord | int) -> list[PageRecord]:
        """A file's stored pages, in page order, with their edits."""
        return self._pages("WHERE p.file_id = ?", (_id(file),))

    def page(self, page_id: int) -> PageRecord:
        found = self._pages("WHERE p.id = ?", (page_id,))
        if not found:
            raise KeyError(f"no page with id {page_id}")
        return found[0]

    def _pages(self, where: str, args: tuple[object, ...]) -> list[PageRecord]:
        edit_sql = "SELECT e.page_id, e.line_index, e.original, e.edited, e.edited_at FROM edits e"
        with self._lock:
            page_sql = f"SELECT p.* FROM pages p {where} ORDER BY p.file_id, p.page_index"
            rows = self._db.execute(page_sql, args).fetchall()
            edit_sql += f" JOIN pages p ON p.id = e.page_id {where}"
            edit_rows = self._db.execute(edit_sql, args).fetchall()
        edits: dict[int, list[LineEdit]] = {}
        for e in sorted(edit_rows, key=lambda e: e[1]):
            edits.setdefault(e[0], []).append(LineEdit(*tuple(e)[1:]))
        return [_page(r, tuple(edits.get(r["id"], ()))) for r in rows]

    def results(self) -> list[FileResult]:
        """Every file with its pages (for exports), in the order the files were added."""
        pages: dict[int, list[PageRecord]] = {}
        for page in self._pages("", ()):
            pages.setdefault(page.file_id, []).append(page)
        return [FileResult(f, tuple(pages.get(f.id, ()))) for f in self.files()]

    # Edits ----------------------------------------------------------------------------------
    def edit_line(self, page: PageRecord | int, line_index: int, new_text: str) -> PageRecord:
        """Record a correction of one line (the server's text is kept); the updated page.

        Editing a line back to the server's text removes the edit.
        """
        record = page if isinstance(page, PageRecord) else self.page(page)
        lines = record.result.lines
        if not 0 <= line_index < len(lines):
            raise IndexError(f"page {record.id} has {len(lines)} lines, not line {line_index}")
        original = lines[line_index].text
        with self._tx() as db:
            if new_text == original:
                db.execute("DELETE FROM edits WHERE page_id = ? AND line_index = ?", (record.id, line_index))
            else:
                db.execute(
                    "INSERT INTO edits (page_id, line_index, original, edited, edited_at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (page_id, line_index)"
                    " DO UPDATE SET edited = excluded.edited, edited_at = excluded.edited_at",
                    (record.id, line_index, original, new_text, time.time()),
                )
        return self.page(record.id)

    def edit_field(self, page: PageRecord | int, name: str, value: str, receipt: int = 0) -> None:
        """Record an invoice field set by hand for a page (kept when the page is recognised again).

        ``receipt`` as in the reimbursement sheet: 0 for the page (its only document), 1-based for
        one receipt of a page with several (receipt_field_edits; a table of its own because
        field_edits is UNIQUE (page_id, name), which SQLite cannot alter in place).
        """
        with self._tx() as db:
            if receipt:
                db.execute(
                    "INSERT INTO receipt_field_edits (page_id, receipt, name, value, edited_at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (page_id, receipt, name)"
                    " DO UPDATE SET value = excluded.value, edited_at = excluded.edited_at",
                    (_id(page), int(receipt), name, value, time.time()),
                )
                return
            db.execute(
                "INSERT INTO field_edits (page_id, name, value, edited_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (page_id, name)"
                " DO UPDATE SET value = excluded.value, edited_at = excluded.edited_at",
                (_id(page), name, value, time.time()),
            )

    def receipt_field_edits(
        self, page: PageRecord | int | None = None
    ) -> dict[int, dict[int, dict[str, str]]]:
        """Fields set by hand on single receipts: page id -> receipt (1-based) -> {field name: value}."""
        where, args = ("WHERE page_id = ?", (_id(page),)) if page is not None else ("", ())
        edits: dict[int, dict[int, dict[str, str]]] = {}
        query = f"SELECT page_id, receipt, name, value FROM receipt_field_edits {where} ORDER BY edited_at"
        for row in self._query(query, args):
            edits.setdefault(row[0], {}).setdefault(row[1], {})[row[2]] = row[3]
        return edits

    def field_edits(self, page: PageRecord | int | None = None) -> dict[int, dict[str, str]]:
        """Fields set by hand: page id -> {field name: value}, for one page or (None) every page."""
        where, args = ("WHERE page_id = ?", (_id(page),)) if page is not None else ("", ())
        edits: dict[int, dict[str, str]] = {}
        for row in self._query(f"SELECT page_id, name, value FROM field_edits {where} ORDER BY id", args):
            edits.setdefault(row[0], {})[row[1]] = row[2]
        return edits

    def remove_field_edit(self, page: PageRecord | int, name: str, receipt: int = 0) -> None:
        """Forget a field set by hand (undoing its first edit): the page's reading stands again."""
        with self._tx() as db:
            if receipt:
                db.execute(
                    "DELETE FROM receipt_field_edits WHERE page_id = ? AND receipt = ? AND name = ?",
                    (_id(page), int(receipt), name),
                )
                return
            db.execute("DELETE FROM field_edits WHERE page_id = ? AND name = ?", (_id(page), name))

    # Checked marks --------------------------------------------------------------------------
    def set_checked(self, page: PageRecord | int, receipt: int, checked: bool = True) -> None:
        """Mark one receipt as checked by a person (or not); ``receipt`` as in the reimbursement
        sheet: 0 for a page's only document, 1-based on a page with several."""
        with self._tx() as db:
            if checked:
                db.execute(
                    "INSERT INTO checked_receipts (page_id, receipt, checked_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (page_id, receipt) DO NOTHING",
                    (_id(page), receipt, time.time()),
                )
            else:
                db.execute(
                    "DELETE FROM checked_receipts WHERE page_id = ? AND receipt = ?", (_id(page), receipt)
                )

    def checked_receipts(self) -> set[tuple[int, int]]:
        """Every (page id, receipt) a person marked as checked."""
        return {(r[0], r[1]) for r in self._query("SELECT page_id, receipt FROM checked_receipts")}

    # Totals ---------------------------------------------------------------------------------
    def summary(self) -> StoreSummary:
        """How many files are in each state, and the pages and lines stored."""
        counts = dict.fromkeys(STATES, 0)
        for row in self._query("SELECT state, COUNT(*) FROM files GROUP BY state"):
            counts[row[0]] = row[1]
        pages, lines, receipts = self._query(
            "SELECT COUNT(*), COALESCE(SUM(lines), 0),"
            " COALESCE(SUM(MAX(COALESCE(json_array_length(result, '$.receipts'), 1), 1)), 0) FROM pages"
        )[0]
        return StoreSummary(**counts, pages=pages, lines=lines, receipts=receipts)

    def journal_mode(self) -> str:
        return str(self._query("PRAGMA journal_mode")[0][0])


def _page(row: sqlite3.Row, edits: tuple[LineEdit, ...]) -> PageRecord:
    result = PageResult.from_json(json.loads(row["result"]))
    return PageRecord(row["id"], row["file_id"], row["page_index"], result, row["elapsed_ms"], edits)


def _file(row: sqlite3.Row) -> FileRecord:
    return FileRecord(**{**dict(row), "path": path_from_text(row["path"])})


def _owner_only(path: Path) -> None:
    """The store and its WAL files hold receipt text: readable by their owner only."""
    for name in (path.name, f"{path.name}-wal", f"{path.name}-shm"):
        with contextlib.suppress(OSError):
            (path.parent / name).chmod(0o600)
