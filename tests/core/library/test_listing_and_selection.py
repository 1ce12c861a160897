"""The app's two additions to the library: receipts in brief for a long list (the same values as the
full records), and the accounting export of chosen receipts (once each, duplicates left out)."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

from scanner_app.core.library.accounting import export
from scanner_app.core.library.library import Library
from scanner_app.core.library.listing import summaries
from scanner_app.core.library.selection_export import export_selected
from tests.helpers.library import page_in, write_receipts


def _fill(library: Library, folder: Path, n: int = 4) -> list[int]:
    ids = []
    for path, result, _ in write_receipts(folder, n, seed=5):
        ids += library.ingest(page_in(path, result, "viewer"))
    return ids


def _ids_in(path: Path) -> list[str]:
    with path.open(encoding="utf-8-sig", newline="") as f:
        return [row["id"] for row in csv.DictReader(f)]


def test_summaries_hold_what_the_full_records_hold(library: Library, tmp_path: Path) -> None:
    ids = _fill(library, tmp_path / "in")
    library.set_tags(ids[0], add=["zeta", "alpha"])
    library.set_category(ids[0], "Travel")
    library.set_field(ids[1], "total", "12.5")
    library.set_note(ids[1], "lunch with a client")
    export(library, "csv", tmp_path / "first.csv")
    export(library, "csv", tmp_path / "second.csv", again=True)
    wanted = [ids[2], 999, ids[0], ids[1]]  # an unknown id is left out, the order is kept
    brief = summaries(library, wanted)
    full = library.receipts(wanted)
    assert [s.id for s in brief] == [r.id for r in full] == [ids[2], ids[0], ids[1]]
    columns = ("source_path", "page", "pages", "document", "way_in", "batch", "status", "category", "note")
    fields = ("date", "vendor", "total", "currency")
    for s, r in zip(brief, full, strict=True):
        assert [getattr(s, c) for c in columns] == [getattr(r, c) for c in columns]
        assert [getattr(s, f) for f in fields] == [r.value(f) for f in fields]
        assert s.tags == r.tags and s.exports == r.exports and len(s.exports) == 2
    assert brief[1].tags == ("alpha", "zeta") and brief[2].total == "12.50"


def test_the_chosen_receipts_go_out_once_and_duplicates_stay_out(library: Library, tmp_path: Path) -> None:
    ids = _fill(library, tmp_path / "in")
    out = tmp_path / "chosen.csv"
    done = export_selected(library, "csv", out, [ids[3], ids[1]])
    assert (
        done.summary.written == 2 and done.chosen == 2 and sorted(_ids_in(out)) == sorted(map(str, ids[1::2]))
    )
    assert {library.get(i).status for i in ids[1::2]} == {"exported"}
    assert {library.get(i).status for i in ids[0::2]} != {"exported"}
    again = export_selected(library, "csv", tmp_path / "again.csv", ids)
    assert again.left_out_exported == 2 and sorted(_ids_in(tmp_path / "again.csv")) == sorted(
        map(str, ids[0::2])
    )
    assert export_selected(library, "csv", tmp_path / "all.csv", ids, again=True).summary.written == 4
    source = Path(library.get(ids[0]).source_path)  # the same receipt again, confirmed a duplicate
    copy = tmp_path / "copy" / source.name
    copy.parent.mkdir()
    shutil.copy(source, copy)
    (later,) = library.ingest(page_in(copy, write_receipts(tmp_path / "again-in", 1, seed=5)[0][1], "viewer"))
    library.decide_duplicate(later, ids[0], "confirmed")
    left = export_selected(library, "csv", tmp_path / "dup.csv", [later])
    assert left.chosen == 0 and left.summary.written == 0
    assert (
        export_selected(library, "csv", tmp_path / "dup2.csv", [later], include_duplicates=True).chosen == 1
    )
