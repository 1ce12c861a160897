"""The library file: opened (WAL, busy timeout, foreign keys), checked, migrated; one connection per
process, shared by its threads behind a lock; every write one ``BEGIN IMMEDIATE`` transaction.

Several processes (the app, a ``watch``, a ``scan``) write one library at once: WAL lets readers
read while one writes, BEGIN IMMEDIATE takes the write lock up front (no deadlock between two
readers turning writers), and the busy timeout makes a writer wait its turn instead of failing.
A file that is not a library, is damaged, or was made by a newer version is refused with its name
and the cause, and is never replaced.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from scanner_app.core.errors import ScannerError
from scanner_app.core.library.categories import seed_defaults
from scanner_app.core.library.location import refuse_network_share
from scanner_app.core.library.schema import SCHEMA_VERSION, migrate
from scanner_app.core.store.db import immediate_transaction

APPLICATION_ID = 0x5343414C  # "SCAL": marks the file as a scanner-app library
BUSY_TIMEOUT_S = 60.0  # a writer waits this long for another process's transaction


class LibraryError(ScannerError):
    """The library cannot be used; the message names the file and says why."""


class LibraryCorrupt(LibraryError):
    """The file is not a library, or is damaged."""


class LibraryTooNew(LibraryError):
    """The file was made by a newer scanner-app (a schema version this one does not know)."""


class LibraryDB:
    """The open library file; thread-safe (one connection, one lock)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path).absolute()
        refuse_network_share(self.path)
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(
            self.path, check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT_S
        )
        self._db.row_factory = sqlite3.Row
        try:
            self.migrated = self._open()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                raise LibraryError(f"{self.path}: the library is busy ({exc}); try again") from exc
            raise corrupt(self.path, exc) from exc
        except LibraryError:
            self._db.close()
            raise
        _owner_only(self.path)

    def _open(self) -> list[int]:
        db = self._db
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        app_id, version = db.execute("PRAGMA application_id").fetchone()[0], _version(db)
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]  # reads the schema
        if app_id not in (0, APPLICATION_ID) or (app_id == 0 and tables and version == 0):
            raise LibraryCorrupt(f"{self.path}: not a scanner-app library (another program's SQLite file)")
        if version > SCHEMA_VERSION:
            raise LibraryTooNew(
                f"{self.path}: made by a newer scanner-app (library schema {version}; this version "
                f"reads up to {SCHEMA_VERSION}): upgrade scanner-app to open it"
            )
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise LibraryError(f"{self.path}: WAL mode refused (journal mode {mode})")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        ran = migrate(db)
        if 1 in ran:  # a new file
            with self.tx() as tx:
                seed_defaults(tx)
                tx.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        return ran

    @property
    def version(self) -> int:
        return _version(self._db)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        """One immediate transaction under the lock, committed on exit, rolled back on error."""
        with self._lock, self._errors(), immediate_transaction(self._db) as db:
            yield db

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """The connection under the lock, in one read transaction (one consistent state)."""
        with self._lock, self._errors():
            self._db.execute("BEGIN")
            try:
                yield self._db
            finally:
                self._db.execute("COMMIT")

    def query(self, sql: str, args: Iterable[object] = ()) -> list[sqlite3.Row]:
        with self._lock, self._errors():
            return self._db.execute(sql, tuple(args)).fetchall()

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """A damaged file met mid-use is reported as LibraryCorrupt, with the file's name."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            if type(exc) is sqlite3.DatabaseError:  # "database disk image is malformed", "not a database"
                raise corrupt(self.path, exc) from exc
            raise

    def check(self) -> list[str]:
        """SQLite's integrity check: [] when the file is sound, else its complaints."""
        rows = self.query("PRAGMA integrity_check")
        found = [str(r[0]) for r in rows]
        return [] if found == ["ok"] else found

    def backup_to(self, target: sqlite3.Connection) -> None:
        """Copy the whole library into ``target`` with SQLite's online backup (consistent while in use)."""
        with self._lock, self._errors():
            self._db.backup(target)


def corrupt(path: Path, exc: BaseException) -> LibraryCorrupt:
    return LibraryCorrupt(
        f"{path}: the library cannot be read ({exc}). The file is left as it is: restore a backup "
        "(`scanner-app library backup` makes one), or move it away to start a new library"
    )


def _version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def _owner_only(path: Path) -> None:
    """The library holds receipts: readable by its owner only."""
    for name in (path.name, f"{path.name}-wal", f"{path.name}-shm"):
        with contextlib.suppress(OSError):
            (path.parent / name).chmod(0o600)
