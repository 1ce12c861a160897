"""The library file: where it lives, refused on a network share, migrated from version 1, refused when
newer or damaged (and never replaced), backed up while in use."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from scanner_app.core import mounts
from scanner_app.core.library.db import LibraryCorrupt, LibraryTooNew
from scanner_app.core.library.library import Library
from scanner_app.core.library.location import LibraryLocationError, default_library_path
from scanner_app.core.library.schema import SCHEMA_VERSION
from tests.helpers.library import page_in, write_receipts

# The schema as version 1 of the library created it (frozen here: the test is what an old file is).
V1_FILE = """
CREATE TABLE receipts (
    id INTEGER PRIMARY KEY, source_path TEXT NOT NULL, sha256 TEXT NOT NULL, part TEXT NOT NULL,
    page INTEGER NOT NULL, pages INTEGER NOT NULL DEFAULT 1, document INTEGER,
    way_in TEXT NOT NULL, read_at REAL NOT NULL, os_user TEXT NOT NULL, batch TEXT,
    text TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'new'
        CHECK (status IN ('new', 'to check', 'checked', 'exported', 'duplicate')),
    category_id INTEGER REFERENCES categories (id) ON DELETE SET NULL,
    category_source TEXT CHECK (category_source IN ('user', 'rule', 'learned')),
    note TEXT NOT NULL DEFAULT '', UNIQUE (source_path, sha256, part));
CREATE INDEX receipts_sha256 ON receipts (sha256);
CREATE TABLE receipt_pages (
    receipt_id INTEGER NOT NULL REFERENCES receipts (id) ON DELETE CASCADE,
    page_index INTEGER NOT NULL, text TEXT NOT NULL, fields TEXT NOT NULL,
    PRIMARY KEY (receipt_id, page_index));
CREATE TABLE fields (
    receipt_id INTEGER NOT NULL REFERENCES receipts (id) ON DELETE CASCADE,
    name TEXT NOT NULL, value TEXT NOT NULL DEFAULT '', confidence REAL NOT NULL DEFAULT 0,
    edited TEXT, edited_by TEXT, edited_at REAL, PRIMARY KEY (receipt_id, name));
CREATE INDEX fields_by_name ON fields (name, receipt_id);
CREATE TABLE thumbnails (receipt_id INTEGER PRIMARY KEY REFERENCES receipts (id) ON DELETE CASCADE,
    jpeg BLOB NOT NULL);
CREATE TABLE categories (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE, account_code TEXT);
CREATE TABLE tags (receipt_id INTEGER NOT NULL REFERENCES receipts (id) ON DELETE CASCADE, tag TEXT NOT NULL,
    PRIMARY KEY (receipt_id, tag));
CREATE INDEX tags_by_tag ON tags (tag);
CREATE TABLE exports (id INTEGER PRIMARY KEY, name TEXT NOT NULL, format TEXT NOT NULL, path TEXT NOT NULL,
    exported_at REAL NOT NULL, exported_by TEXT NOT NULL, receipts INTEGER NOT NULL);
CREATE TABLE receipt_exports (
    receipt_id INTEGER NOT NULL REFERENCES receipts (id) ON DELETE CASCADE,
    export_id INTEGER NOT NULL REFERENCES exports (id) ON DELETE CASCADE,
    PRIMARY KEY (receipt_id, export_id));
INSERT INTO categories (name, account_code) VALUES ('Travel', '493'), ('Office expenses', '453');
INSERT INTO receipts (source_path, sha256, part, page, way_in, read_at, os_user, text, category_id, note)
    VALUES ('/scans/taxi.jpg', 'aa', 'file', 1, 'scan', 1700000000, 'clerk',
            'CITY CABS\nFARE 23.40\nINV-A1312',
            1, 'airport');
INSERT INTO fields (receipt_id, name, value, confidence) VALUES (1, 'vendor', 'CITY CABS', 0.9),
    (1, 'total', '23.40', 0.95), (1, 'date', '2023-11-14', 0.9);
INSERT INTO fields (receipt_id, name, value, confidence, edited, edited_by, edited_at)
    VALUES (1, 'currency', '', 0, 'EUR', 'clerk', 1700000100);
INSERT INTO tags (receipt_id, tag) VALUES (1, 'trip-berlin');
PRAGMA application_id = 1396916556;
PRAGMA user_version = 1;
"""


def test_default_location_is_the_user_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_library_path() == tmp_path / "data" / "scanner-app" / "library.sqlite"
    monkeypatch.setenv("SCANNER_APP_LIBRARY", str(tmp_path / "mine.sqlite"))
    assert default_library_path() == tmp_path / "mine.sqlite"
    with Library() as library:
        assert library.path == tmp_path / "mine.sqlite"
    assert (tmp_path / "mine.sqlite").stat().st_mode & 0o777 == 0o600


def test_a_new_library_is_wal_at_the_current_version_with_default_categories(library: Library) -> None:
    assert library.db.version == SCHEMA_VERSION
    assert library.db.query("PRAGMA journal_mode")[0][0] == "wal"
    assert int(library.db.query("PRAGMA busy_timeout")[0][0]) >= 30_000
    names = {c.name: c.account_code for c in library.categories()}
    assert names["Travel"] == "493" and len(names) >= 10


def test_version_1_file_migrates_keeping_everything(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    old = sqlite3.connect(path)
    old.executescript(V1_FILE)
    old.close()
    with Library(path) as library:
        assert library.db.migrated == list(range(2, SCHEMA_VERSION + 1))
        assert library.db.version == SCHEMA_VERSION
        (receipt,) = library.search("")
        assert (receipt.source_path, receipt.category, receipt.note, receipt.tags) == (
            "/scans/taxi.jpg", "Travel", "airport", ("trip-berlin",))  # fmt: skip
        assert receipt.fields["currency"].value == "EUR" and receipt.fields["currency"].edited_by == "clerk"
        # version 2's search index was built from what version 1 held
        assert [r.id for r in library.search("1312")] == [1]
        assert [r.id for r in library.search("cabs")] == [1]
        assert [r.id for r in library.search("berlin")] == [1]
        assert library.duplicates() == []
    with Library(path) as again:
        assert again.db.migrated == []


def test_newer_library_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite"
    with Library(path):
        pass
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(
        LibraryTooNew, match=rf"{path}: made by a newer scanner-app \(library schema {SCHEMA_VERSION + 1}"
    ):
        Library(path)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "other-app"])
def test_a_damaged_file_is_reported_and_left_as_it_is(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "library.sqlite"
    if damage == "garbage":
        path.write_bytes(b"these are not the receipts you are looking for\n" * 200)
    elif damage == "other-app":
        other = sqlite3.connect(path)
        other.execute("CREATE TABLE songs (title TEXT)")
        other.commit()
        other.close()
    else:
        with Library(path) as library:
            for p, result, _ in write_receipts(tmp_path / "in", 3):
                library.ingest(page_in(p, result))
        data = path.read_bytes()
        path.write_bytes(data[:100] + b"\0" * 50 + data[150 : len(data) // 2])
    before = path.read_bytes()
    with pytest.raises(LibraryCorrupt) as caught, Library(path) as library:
        library.search("")  # a truncated file may open: reading it must still say so
    assert str(path) in str(caught.value)
    assert "not a scanner-app library" in str(caught.value) or "cannot be read" in str(caught.value)
    assert path.read_bytes() == before  # never replaced


def test_a_library_on_a_network_share_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Mocked: only the mount table read (a file of our own in /proc/self/mounts' format); the
    # decision and the refusal are the real code's.
    share = tmp_path / "share"
    share.mkdir()
    table = tmp_path / "mounts"
    table.write_text(
        f"/dev/sda1 / ext4 rw 0 0\nnas:/receipts {share} nfs4 rw,relatime 0 0\n", encoding="utf-8"
    )
    monkeypatch.setattr(mounts, "MOUNT_TABLE", table)
    with pytest.raises(LibraryLocationError, match=r"network file system \(nfs4\).*--library"):
        Library(share / "team" / "library.sqlite")
    assert not (share / "team").exists()
    with Library(tmp_path / "local.sqlite"):
        pass


def test_backup_while_another_thread_writes_is_consistent(tmp_path: Path) -> None:
    receipts = write_receipts(tmp_path / "in", 12)
    with Library(tmp_path / "library.sqlite") as library:
        library.ingest(page_in(*receipts[0][:2]))
        started, failures = threading.Event(), []

        def writer() -> None:
            try:
                for path, result, _ in receipts[1:]:
                    started.set()
                    library.ingest(page_in(path, result))
            except Exception as exc:
                failures.append(exc)

        thread = threading.Thread(target=writer)
        thread.start()
        started.wait(10)
        target = library.backup(tmp_path / "backups" / "copy.sqlite")
        thread.join()
        assert failures == []
        total = library.count()
    with Library(target) as copy:
        assert copy.check() == []
        assert 1 <= copy.count() <= total == 12
        assert copy.db.query("PRAGMA journal_mode")[0][0] == "wal"  # the copy opens as a library
