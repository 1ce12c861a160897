"""Duplicates in three layers, flagged on arrival; confirmed and dismissed pairs, a dismissed pair
staying dismissed; distinct receipts never flagged."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

from scanner_app.core.library.duplicates import same_text
from scanner_app.core.library.library import Library
from scanner_app.core.library.search import Filters
from tests.helpers.library import misread, page_in, rescaled, text_page, turned, write_receipts


def test_distinct_receipts_are_never_flagged(tmp_path: Path, library: Library) -> None:
    # Rendered from one template, their image hashes lie 2-4 bits apart: the texts tell them apart.
    for path, result, _ in write_receipts(tmp_path, 12):
        library.ingest(page_in(path, result))
    assert library.duplicates(("open", "confirmed", "dismissed")) == []


def test_same_file_under_another_name(tmp_path: Path, library: Library) -> None:
    ((path, result, _),) = write_receipts(tmp_path / "in", 1)
    copy = tmp_path / "copies" / "again.png"
    copy.parent.mkdir()
    shutil.copy(path, copy)
    (first,) = library.ingest(page_in(path, result))
    (second,) = library.ingest(page_in(copy, result, "watch"))
    (flag,) = library.duplicates()
    assert (flag.receipt_id, flag.original_id, flag.reason) == (second, first, "same file")
    assert (flag.receipt_path, flag.original_path) == (str(copy), str(path))


def test_same_receipt_from_other_images(tmp_path: Path, library: Library) -> None:
    """Another DPI and recompressed, turned 90 degrees, read with a few other characters: the image
    hashes of the upright crops raise it, the texts confirm it."""
    receipts = write_receipts(tmp_path / "in", 4)
    for path, result, _ in receipts:
        library.ingest(page_in(path, result))
    (path, result, _) = receipts[1]
    small = rescaled(path, misread(result), tmp_path / "small.jpg", 0.6, quality=55)
    side = turned(path, misread(result, 3), tmp_path / "side.png")
    (a,) = library.ingest(page_in(*small, "camera"))
    (b,) = library.ingest(page_in(*side, "clipboard"))
    flags = {f.receipt_id: f for f in library.duplicates()}
    assert set(flags) == {a, b}
    original = library.search("", Filters(way_in="scan"))[-2].id  # receipts[1]
    assert {f.original_id for f in flags.values()} == {original}
    assert {f.reason for f in flags.values()} == {"same image"}
    assert "bits apart" in flags[a].detail and "text" in flags[a].detail


def test_one_shops_receipts_share_a_header_not_their_numbers() -> None:
    base = ["CORNER DELI", "12 Harbor Street", "Tel 555-0142", "Receipt R-100234", "Date: 2024-05-01",
            "Soup 4.50", "Bread 2.10", "Total 6.60", "Thank you"]  # fmt: skip
    other = ["CORNER DELI", "12 Harbor Street", "Tel 555-0142", "Receipt R-100871", "Date: 2024-05-09",
             "Salad 7.90", "Water 1.20", "Total 9.10", "Thank you"]  # fmt: skip
    reread = ["C0RNER DELI", "12 Harbor Strect", "Tel 555-0142", "Receipt R-100234", "Date: 2024-05-01",
              "Soup 4.50", "Bread 2.1O", "Total 6.60", "Thank you"]  # fmt: skip
    assert not same_text("\n".join(base), "\n".join(other))[0]
    assert same_text("\n".join(base), "\n".join(reread))[0]


def test_same_vendor_date_total_and_number_from_any_image(tmp_path: Path, library: Library) -> None:
    scan = ["Bluebird Bakery", "Invoice No: INV-2291", "Date: 2024-02-03", "Croissant 3.20", "Total 14.70"]
    photo = [
        "BLUEBIRD BAKERY LTD",
        "Invoice No: INV-2291",
        "2024-02-03 09:12",
        "Total 14.70",
        "Card ****1234",
    ]
    elsewhere = ["Bluebird Bakery", "Invoice No: INV-2302", "Date: 2024-02-03", "Total 14.70"]  # other number
    ids = []
    for name, texts in (("scan.png", scan), ("photo.png", photo), ("other.png", elsewhere)):
        path, result = text_page(tmp_path, name, texts)
        ids += library.ingest(page_in(path, result))
    (flag,) = library.duplicates()
    assert (flag.receipt_id, flag.original_id, flag.reason) == (ids[1], ids[0], "same fields")
    assert "2024-02-03" in flag.detail and "14.70" in flag.detail


def test_confirm_and_dismiss(tmp_path: Path, library: Library) -> None:
    ((path, result, _), (path2, result2, _)) = write_receipts(tmp_path / "in", 2)
    copies = []
    for p in (path, path2):
        copy = tmp_path / f"copy-{p.name}"
        shutil.copy(p, copy)
        copies.append(copy)
    (a,) = library.ingest(page_in(path, result))
    (b,) = library.ingest(page_in(path2, result2))
    (a2,) = library.ingest(page_in(copies[0], result))
    (b2,) = library.ingest(page_in(copies[1], result2))
    assert {(f.receipt_id, f.original_id) for f in library.duplicates()} == {(a2, a), (b2, b)}
    confirmed = library.decide_duplicate(a, a2, "confirmed", by="maria")  # either order
    assert (confirmed.state, confirmed.decided_by) == ("confirmed", "maria")
    assert library.get(a2).status == "duplicate"
    assert a2 not in {r.id for r in library.search("", Filters(include_duplicates=False))}
    library.decide_duplicate(b2, b, "dismissed")
    assert [f.receipt_id for f in library.duplicates()] == []
    # a dismissed pair stays dismissed: both read again, nothing is flagged
    library.ingest(page_in(copies[1], result2))
    library.ingest(page_in(path2, result2))
    assert library.duplicates() == []
    assert {f.state for f in library.duplicates(("confirmed", "dismissed"))} == {"confirmed", "dismissed"}
    # a third copy of b is still caught (its own pair)
    third = tmp_path / "third.png"
    shutil.copy(path2, third)
    (b3,) = library.ingest(page_in(third, result2))
    assert [(f.receipt_id, f.original_id) for f in library.duplicates()] == [(b3, b)]


def test_a_pair_dismissed_before_it_was_ever_flagged_is_never_flagged(
    tmp_path: Path, library: Library
) -> None:
    path, result = text_page(tmp_path, "one.png", ["Oak Cafe", "Date: 2024-04-01", "Total 5.00"])
    path2, result2 = text_page(tmp_path, "two.png", ["Oak Cafe", "Date: 2024-04-01", "Total 4.00"])
    (a,) = library.ingest(page_in(path, result))
    (b,) = library.ingest(page_in(path2, result2))
    library.decide_duplicate(a, b, "dismissed")
    lines = tuple(
        replace(ln, text="Total 5.00") if ln.text.startswith("Total") else ln for ln in result2.lines
    )
    library.ingest(page_in(path2, replace(result2, lines=lines)))  # now it reads as the same fields
    assert library.duplicates() == []
