"""Categories and vendor rules: explicit rules of each kind, rules learned from a person's filing,
explicit rules winning over learned ones, rules applied to receipts already in the library."""

from __future__ import annotations

from pathlib import Path

import pytest

from scanner_app.core.library.categories import CategoryError
from scanner_app.core.library.library import Library
from scanner_app.core.library.rules import RuleError
from tests.helpers.library import page_in, text_page


def _add(library: Library, folder: Path, name: str, vendor: str, *more: str) -> int:
    path, result = text_page(folder, name, [vendor, *more, "Date: 2024-01-05", f"Total {len(name)}.00"])
    (receipt_id,) = library.ingest(page_in(path, result))
    return receipt_id


def test_a_vendors_next_receipt_gets_the_category_a_person_chose(tmp_path: Path, library: Library) -> None:
    first = _add(library, tmp_path, "a.png", "Summit Hardware Co.")
    assert library.get(first).category is None
    library.set_category(first, "Repairs & maintenance")
    assert (library.get(first).category, library.get(first).category_source) == (
        "Repairs & maintenance",
        "user",
    )
    second = _add(library, tmp_path, "b.png", "SUMMIT HARDWARE CO.")  # OCR case, same vendor
    third = _add(library, tmp_path, "c.png", "Summit Hardwarc Co.")  # a misread letter
    other = _add(library, tmp_path, "d.png", "Bookworm Stationers")
    assert [library.get(i).category for i in (second, third, other)] == ["Repairs & maintenance"] * 2 + [None]
    assert library.get(second).category_source == "learned"
    (learned,) = [r for r in library.rules() if r.learned]
    assert (learned.pattern, learned.category) == ("summit hardware co", "Repairs & maintenance")
    # filed elsewhere: the lesson changes
    library.set_category(second, "Travel")
    assert library.get(_add(library, tmp_path, "e.png", "Summit Hardware Co.")).category == "Travel"


def test_explicit_rules_win_over_learned_ones_and_a_persons_choice_over_both(
    tmp_path: Path, library: Library
) -> None:
    first = _add(library, tmp_path, "a.png", "Grab Taxi Holdings")
    library.set_category(first, "Meals & entertainment")  # learned: grab taxi holdings -> meals
    library.add_rule("words", "taxi cab", "Travel")
    second = _add(library, tmp_path, "b.png", "Grab Taxi Holdings")
    assert (library.get(second).category, library.get(second).category_source) == ("Travel", "rule")
    assert library.get(first).category == "Meals & entertainment"  # a person's choice stays
    assert library.apply_rules() == 0


@pytest.mark.parametrize(
    ("kind", "pattern", "vendor", "text", "hit"),
    [
        ("exact", "Tesco Extra", "TESCO  EXTRA.", "", True),
        ("exact", "Tesco", "Tesco Extra", "", False),
        ("words", "hotel inn", "Holiday Inn Express", "", True),
        ("words", "hotel", "Hotelier Supplies", "", False),
        ("regex", r"^(mr\.? )?diy\b", "MR DIY (M) SDN BHD", "", True),
        ("fuzzy", "Starbucks Coffee", "STARBUCKS C0FFEE", "", True),
        ("fuzzy", "Starbucks Coffee", "Star Grocer", "", False),
        ("text", "parking", "City Council", "PARKING FEE 2 HOURS", True),
        ("text", "停车", "城市停车场", "停车费 5.00", True),
    ],
)
def test_rule_kinds(
    tmp_path: Path, library: Library, kind: str, pattern: str, vendor: str, text: str, hit: bool
) -> None:
    library.add_rule(kind, pattern, "Office expenses")
    path, result = text_page(tmp_path, "r.png", ["Receipt", text or "Thanks", "Total 3.00"])
    (receipt_id,) = library.ingest(page_in(path, result))
    library.set_field(receipt_id, "vendor", vendor)  # the rules run again on a new vendor
    assert (library.get(receipt_id).category == "Office expenses") is hit


def test_rules_apply_to_receipts_already_in_the_library(tmp_path: Path, library: Library) -> None:
    ids = [
        _add(library, tmp_path, f"{n}.png", vendor)
        for n, vendor in enumerate(["Petronas Bangsar", "AEON Big"])
    ]
    assert library.add_rule("regex", "petronas|shell", "Motor vehicle & fuel") > 0
    assert library.get(ids[0]).category is None  # rules apply on arrival, or when asked
    assert library.apply_rules() == 1
    assert [library.get(i).category for i in ids] == ["Motor vehicle & fuel", None]


def test_categories_are_editable(library: Library) -> None:
    library.add_category("Client gifts", "431")
    library.edit_category("client gifts", new_name="Gifts", account_code="432")
    assert {c.name: c.account_code for c in library.categories()}["Gifts"] == "432"
    with pytest.raises(CategoryError, match="exists already"):
        library.add_category("GIFTS")
    library.remove_category("Gifts")
    with pytest.raises(CategoryError, match="no category 'Gifts'"):
        library.add_rule("exact", "x", "Gifts")
    with pytest.raises(RuleError, match="bad regular expression"):
        library.add_rule("regex", "([", "Travel")
