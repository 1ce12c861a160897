"""`scanner-app library` end to end: import batch folders (nothing twice), search as JSON, duplicates
as JSON then dismissed, edits, rules, an accounting export read back (and not twice unless asked),
backup, refusals; and `scan --library` against the real server with real receipts."""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scanner_app.cli import main
from scanner_app.core import mounts
from scanner_app.core.library.library import Library
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore
from scanner_app.server.embedded import EmbeddedServer
from tests.helpers.library import write_receipts
from tests.helpers.paths import SROIE_IMAGES


def _cli(capsys: pytest.CaptureFixture[str], library: Path, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["library", "--library", str(library), *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    """A batch folder as `scan --out` leaves it: three receipts and a copy of the first under another name."""
    receipts = write_receipts(tmp_path / "in", 3)
    copy = tmp_path / "in" / "copy-of-first.png"
    shutil.copy(receipts[0][0], copy)
    with BatchStore(tmp_path / "batch" / STORE_NAME) as store:
        records = store.add_files([*(p for p, _, _ in receipts), copy])
        for record, result in zip(records, [*(r for _, r, _ in receipts), receipts[0][1]], strict=True):
            store.save_page(record, 0, result)
            store.mark_done(record, 1)
        store.edit_field(store.pages(records[1])[0], "total", "77.70")
    return tmp_path / "batch"


def test_import_search_duplicates_edit_export(
    tmp_path: Path, batch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lib = tmp_path / "library.sqlite"
    code, _, err = _cli(capsys, lib, "import", str(batch))
    assert code == 0 and "4 receipts, 4 new" in err, err
    code, _, err = _cli(capsys, lib, "import", str(batch))
    assert code == 0 and "4 receipts, 0 new" in err  # nothing read twice

    code, out, _ = _cli(capsys, lib, "search", "--format", "json")
    found = json.loads(out)
    assert code == 0 and len(found) == 4
    assert all({"id", "path", "page"} <= set(r) and r["page"] == 1 and r["way_in"] == "import" for r in found)
    by_name = {Path(r["path"]).name: r for r in found}
    assert by_name["receipt-0-1.png"]["total"] == "77.70"  # the batch's own field edit came along
    text = json.loads(_cli(capsys, lib, "show", str(by_name["receipt-0-2.png"]["id"]))[1])["text"]
    number = re.search(r"R-(\d{5})", text)
    assert number is not None
    fragment = json.loads(_cli(capsys, lib, "search", "--format", "json", number[1][1:4])[1])
    assert [r["id"] for r in fragment] == [by_name["receipt-0-2.png"]["id"]]  # part of a number

    code, out, _ = _cli(capsys, lib, "duplicates", "--format", "json")
    (pair,) = json.loads(out)
    first, copy = by_name["receipt-0-0.png"], by_name["copy-of-first.png"]
    assert pair["reason"] == "same file"
    assert (pair["receipt"], pair["original"]) == (
        {"id": copy["id"], "path": copy["path"]}, {"id": first["id"], "path": first["path"]})  # fmt: skip
    code, _, _ = _cli(capsys, lib, "duplicates", "confirm", str(first["id"]), str(copy["id"]))
    assert code == 0 and json.loads(_cli(capsys, lib, "duplicates", "--format", "json")[1]) == []

    receipt = by_name["receipt-0-2.png"]["id"]
    edits = ("--category", "Travel", "--tag", "trip", "--note", "taxi", "--field", "currency=myr")
    code, _, err = _cli(capsys, lib, "set", str(receipt), *edits)
    assert code == 0, err
    shown = json.loads(_cli(capsys, lib, "show", str(receipt))[1])
    assert (shown["category"], shown["account_code"], shown["tags"], shown["currency"]) == (
        "Travel",
        "493",
        ["trip"],
        "MYR",
    )
    code, _, err = _cli(capsys, lib, "set", "999", "--note", "x")
    assert code == 2 and "no receipt 999" in err

    code, _, err = _cli(
        capsys, lib, "export", "--format", "csv", "--out", str(tmp_path / "out.csv"), "--name", "june"
    )
    assert code == 0 and "3 receipts written" in err, err  # the confirmed duplicate left out
    assert (tmp_path / "out.csv").stat().st_mode & 0o777 == 0o600
    with open(tmp_path / "out.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert sorted(int(r["id"]) for r in rows) == sorted(r["id"] for r in found if r["id"] != copy["id"])
    row = next(r for r in rows if int(r["id"]) == receipt)
    assert (row["category"], row["account_code"], row["currency"], row["note"]) == (
        "Travel",
        "493",
        "MYR",
        "taxi",
    )
    exported = json.loads(_cli(capsys, lib, "search", "--status", "exported", "--format", "json")[1])
    assert len(exported) == 3 and all(r["exports"] == ["june"] for r in exported)
    code, _, err = _cli(capsys, lib, "export", "--format", "csv", "--out", str(tmp_path / "again.csv"))
    assert "0 receipts written" in err and "3 exported before left out" in err
    again = ("--again", "--include-duplicates")
    code, _, err = _cli(capsys, lib, "export", "--format", "csv", "--out", str(tmp_path / "all.csv"), *again)
    assert "4 receipts written" in err, err

    code, _, err = _cli(capsys, lib, "backup", str(tmp_path / "safe" / "copy.sqlite"))
    assert code == 0
    with Library(tmp_path / "safe" / "copy.sqlite") as copy_lib:
        assert copy_lib.count() == 4 and copy_lib.check() == []


def test_rules_and_categories_from_the_command_line(
    tmp_path: Path, batch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lib = tmp_path / "library.sqlite"
    _cli(capsys, lib, "import", str(batch))
    vendors = [r["vendor"] for r in json.loads(_cli(capsys, lib, "search", "--format", "json")[1])]
    assert _cli(capsys, lib, "categories", "add", "Shop supplies", "--account", "455")[0] == 0
    word = vendors[0].split()[0]
    assert _cli(capsys, lib, "rules", "add", "words", word, "Shop supplies")[0] == 0
    code, _, err = _cli(capsys, lib, "rules", "apply")
    assert code == 0 and "receipts changed category" in err and not err.startswith("0 ")
    found = json.loads(_cli(capsys, lib, "search", "--category", "Shop supplies", "--format", "json")[1])
    assert found and all(word in r["vendor"] for r in found)
    listed = json.loads(_cli(capsys, lib, "rules", "--format", "json")[1])
    assert listed[0]["kind"] == "words" and listed[0]["category"] == "Shop supplies"
    code, _, err = _cli(capsys, lib, "rules", "add", "regex", "([", "Travel")
    assert code == 2 and "bad regular expression" in err


def test_refusals_name_the_file_and_the_cause(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    damaged = tmp_path / "damaged.sqlite"
    damaged.write_bytes(b"\x00garbage" * 512)
    code, _, err = _cli(capsys, damaged, "search")
    assert code == 2 and str(damaged) in err and "cannot be read" in err
    # Mocked: only the mount table read.
    table = tmp_path / "mounts"
    table.write_text(f"//nas/scans {tmp_path / 'share'} cifs rw 0 0\n", encoding="utf-8")
    monkeypatch.setattr(mounts, "MOUNT_TABLE", table)
    code, _, err = _cli(capsys, tmp_path / "share" / "library.sqlite", "info")
    assert code == 2 and "network file system (cifs)" in err


@pytest.mark.skipif(not SROIE_IMAGES.is_dir(), reason="needs ../shared/data/sroie (absent on a fresh clone)")
def test_scan_adds_real_receipts_to_the_library_as_they_are_read(
    triton: EmbeddedServer, tmp_path: Path
) -> None:
    images = sorted(SROIE_IMAGES.glob("*.jpg"))[:2]
    lib = tmp_path / "library.sqlite"
    out = ("--out", str(tmp_path / "out"), "--library", str(lib), "--quiet", "--jobs", "2")
    server = ("--server", triton.grpc_url)
    command = [sys.executable, "-m", "scanner_app.cli", "scan", *map(str, images), *server, *out]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "2 receipts added or updated" in done.stderr
    with Library(lib) as library:
        found = library.search("")
        assert sorted(r.source_path for r in found) == sorted(str(p) for p in images)
        assert {r.way_in for r in found} == {"scan"} and all(library.thumbnail(r.id) for r in found)
        assert {r.batch for r in found} == {str(tmp_path / "out" / STORE_NAME)}
        word = found[0].text.split()[0]
        assert found[0].id in library.search_ids(word)
