"""A batch's persistent state: files, page results, line and field edits in one SQLite file (WAL mode).

The database lives in the batch's output folder (``<out>/scanner-app.sqlite``); its schema and the
one connection all threads share: scanner_app.core.store.db. Each call is one short transaction;
every write commits at once, so a crash loses at most the page in flight. Line and field edits and
checked marks: scanner_app.core.store.edits (methods of BatchStore). Each saved page is also handed to
the store's optional ``sink`` (scanner_app.core.store.sink.PageSink: the receipt library), after it
is committed; a sink that fails never fails the page.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path

from scanner_app.core.results import PageResult
from scanner_app.core.store.db import StoreDB
from scanner_app.core.store.edits import StoreEdits
from scanner_app.core.store.records import (
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
    record_id,
    utf8_safe,
)
from scanner_app.core.store.sink import PageSink

__all__ = ["STATES", "STORE_NAME", "BatchStore", "FileRecord", "FileResult", "FileState", "LineEdit",
           "PageRecord", "PageSink", "StoreSummary", "file_sha256", "path_from_text", "path_text",
           "utf8_safe"]  # fmt: skip

STORE_NAME = "scanner-app.sqlite"

log = logging.getLogger(__name__)


class BatchStore(StoreEdits):
    """Files, pages and edits of one batch; every method is thread-safe and commits at once."""

    def __init__(self, path: Path | str, sink: PageSink | None = None) -> None:
        """``sink``: told of every page saved (the receipt library), after the page is committed."""
        self.path = Path(path)
        self.sink = sink
        self._db = StoreDB(self.path)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> BatchStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

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
            row = self._db.query("SELECT * FROM files WHERE path = ?", (path_text(path),))
            if row and (row[0]["size"], row[0]["mtime"]) == (st.st_size, st.st_mtime):
                ids.append(row[0]["id"])  # same size and time: trust the stored hash, read nothing
                continue
            sha = file_sha256(path)
            now = time.time()
            with self._db.tx() as db:
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
        rows = self._db.query("SELECT * FROM files WHERE id = ?", (record_id(file),))
        if not rows:
            raise KeyError(f"no file with id {record_id(file)}")
        return _file(rows[0])

    def files(self, state: FileState | None = None) -> list[FileRecord]:
        """All files (or those in one state), in the order they were added."""
        if state is None:
            return [_file(r) for r in self._db.query("SELECT * FROM files ORDER BY id")]
        return [_file(r) for r in self._db.query("SELECT * FROM files WHERE state = ? ORDER BY id", (state,))]

    def pending(self) -> list[FileRecord]:
        """Files still to be read (state queued)."""
        return self.files("queued")

    def _set_state(
        self, file: FileRecord | int, state: FileState, error: str | None, pages: int | None
    ) -> None:
        with self._db.tx() as db:
            db.execute(
                "UPDATE files SET state = ?, error = ?, pages = COALESCE(?, pages), updated_at = ?"
                " WHERE id = ?",
                (state, error, pages, time.time(), record_id(file)),
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
        with self._db.tx() as db:
            db.execute("UPDATE files SET retryable = ? WHERE id = ?", (int(retryable), record_id(file)))

    def set_page_count(self, file: FileRecord | int, pages: int) -> None:
        with self._db.tx() as db:
            db.execute("UPDATE files SET pages = ? WHERE id = ?", (pages, record_id(file)))

    def reset_running(self) -> int:
        """On resume: files left running by a run that died go back to queued; how many."""
        with self._db.tx() as db:
            cur = db.execute("UPDATE files SET state = 'queued', updated_at = ? WHERE state = 'running'",
                             (time.time(),))  # fmt: skip
            return cur.rowcount

    def requeue_failed(self, only_retryable: bool = False) -> int:
        """Queue the failed files again (to retry them), or only those the server failed; how many."""
        where = "state = 'failed'" + (" AND retryable = 1" if only_retryable else "")
        with self._db.tx() as db:
            cur = db.execute("UPDATE files SET state = 'queued', error = NULL, retryable = 0,"
                             f" updated_at = ? WHERE {where}", (time.time(),))  # fmt: skip
            return cur.rowcount

    def clear(self) -> None:
        """Forget every file, page and edit (a fresh batch)."""
        with self._db.tx() as db:
            db.execute("DELETE FROM files")

    # Pages ----------------------------------------------------------------------------------
    def save_page(self, file: FileRecord | int, index: int, result: PageResult) -> int:
        """Store one page's result (replacing an earlier one of that page and its edits); its id."""
        data = utf8_safe(json.dumps(result.to_json(), ensure_ascii=False))  # a name may not be UTF-8
        with self._db.tx() as db:
            row = db.execute(
                "INSERT INTO pages (file_id, page_index, result, lines, elapsed_ms, saved_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (file_id, page_index) DO UPDATE SET"
                " result = excluded.result, lines = excluded.lines, elapsed_ms = excluded.elapsed_ms,"
                " saved_at = excluded.saved_at RETURNING id",
                (record_id(file), index, data, len(result.lines), result.elapsed_ms, time.time()),
            ).fetchone()
            db.execute("DELETE FROM edits WHERE page_id = ?", (row[0],))
            file_row = db.execute("SELECT * FROM files WHERE id = ?", (record_id(file),)).fetchone()
        if self.sink is not None:
            try:
                self.sink.page_saved(self.path, _file(file_row), index, result)
            except Exception:  # the page is stored: what listens must never fail the batch
                log.exception("the page sink failed on page %d of %s", index + 1, file_row["path"])
        return int(row[0])

    def page_indexes(self, file: FileRecord | int) -> set[int]:
        """Indexes of the pages stored for a file."""
        rows = self._db.query("SELECT page_index FROM pages WHERE file_id = ?", (record_id(file),))
        return {r[0] for r in rows}

    def pages(self, file: FileRecord | int) -> list[PageRecord]:
        """A file's stored pages, in page order, with their edits."""
        return self._pages("WHERE p.file_id = ?", (record_id(file),))

    def page(self, page_id: int) -> PageRecord:
        found = self._pages("WHERE p.id = ?", (page_id,))
        if not found:
            raise KeyError(f"no page with id {page_id}")
        return found[0]

    def _pages(self, where: str, args: tuple[object, ...]) -> list[PageRecord]:
        edit_sql = "SELECT e.page_id, e.line_index, e.original, e.edited, e.edited_at FROM edits e"
        with self._db.read() as db:
            page_sql = f"SELECT p.* FROM pages p {where} ORDER BY p.file_id, p.page_index"
            rows = db.execute(page_sql, args).fetchall()
            edit_sql += f" JOIN pages p ON p.id = e.page_id {where}"
            edit_rows = db.execute(edit_sql, args).fetchall()
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

    # Totals ---------------------------------------------------------------------------------
    def summary(self) -> StoreSummary:
        """How many files are in each state, and the pages and lines stored."""
        counts = dict.fromkeys(STATES, 0)
        for row in self._db.query("SELECT state, COUNT(*) FROM files GROUP BY state"):
            counts[row[0]] = row[1]
        pages, lines, receipts = self._db.query(
            "SELECT COUNT(*), COALESCE(SUM(lines), 0),"
            " COALESCE(SUM(MAX(COALESCE(json_array_length(result, '$.receipts'), 1), 1)), 0) FROM pages"
        )[0]
        return StoreSummary(**counts, pages=pages, lines=lines, receipts=receipts)

    def journal_mode(self) -> str:
        return str(self._db.query("PRAGMA journal_mode")[0][0])


def _page(row: sqlite3.Row, edits: tuple[LineEdit, ...]) -> PageRecord:
    result = PageResult.from_json(json.loads(row["result"]))
    return PageRecord(row["id"], row["file_id"], row["page_index"], result, row["elapsed_ms"], edits)


def _file(row: sqlite3.Row) -> FileRecord:
    return FileRecord(**{**dict(row), "path": path_from_text(row["path"])})
