"""Search: words, parts of numbers, Chinese of one, two and three characters, accents; and filters."""

from __future__ import annotations

import datetime
from decimal import Decimal
from pathlib import Path

import pytest

from scanner_app.core.library.library import Library
from scanner_app.core.library.search import Filters
from tests.helpers.library import page_in, text_page

RECEIPTS = {
    "taxi.png": ["CITY CABS SDN BHD", "Invoice No: INV-A1312", "Date: 14/11/2023", "TOTAL RM 23.40"],
    "coffee.png": ["星巴克咖啡 上海店", "发票号码 04471231", "日期 2024-03-05", "合计 ¥ 38.00"],
    "cafe.png": ["Café Mélange", "Bill 88812", "Date: 2024-03-06", "Total EUR 12.50"],
    "hardware.png": ["GLOBAL HARDWARE TRADING", "No: 77-1312X", "Date: 20/01/2024", "TOTAL RM 150.00"],
}


@pytest.fixture
def ids(tmp_path: Path, library: Library) -> dict[str, int]:
    found = {}
    for name, texts in RECEIPTS.items():
        path, result = text_page(tmp_path / "in", name, texts)
        (found[name],) = library.ingest(page_in(path, result, "watch" if name == "cafe.png" else "scan"))
    return found


def _names(library: Library, ids: dict[str, int], query: str = "", **filters: object) -> set[str]:
    found = {r.id for r in library.search(query, Filters(**filters))}  # type: ignore[arg-type]
    return {name for name, i in ids.items() if i in found}


def test_a_word_a_number_fragment_and_chinese_of_one_to_three_characters(
    library: Library, ids: dict[str, int]
) -> None:
    assert _names(library, ids, "cabs") == {"taxi.png"}
    assert _names(library, ids, "1312") == {"taxi.png", "hardware.png"}  # in INV-A1312 and 77-1312X
    assert _names(library, ids, "A1312") == {"taxi.png"}
    assert _names(library, ids, "咖") == {"coffee.png"}  # one character: no trigram holds it
    assert _names(library, ids, "上海") == {"coffee.png"}
    assert _names(library, ids, "星巴克") == {"coffee.png"}
    assert _names(library, ids, "巴克咖啡") == {"coffee.png"}
    assert _names(library, ids, "cafe") == {"cafe.png"}  # accents do not matter
    assert _names(library, ids, "MÉLANGE") == {"cafe.png"}
    assert _names(library, ids, "gl") == {"hardware.png"}  # a short word: a prefix
    assert _names(library, ids, "rm 1312") == {"taxi.png", "hardware.png"}  # every word must be found
    assert _names(library, ids, "cabs 星巴克") == set()
    assert _names(library, ids, "nowhere") == set()
    assert _names(library, ids, 'quote"s') == set()  # FTS syntax in a query is only text


def test_fields_notes_and_tags_are_searched_too(library: Library, ids: dict[str, int]) -> None:
    library.set_note(ids["cafe.png"], "team offsite Lisbon")
    library.set_tags(ids["taxi.png"], add=["project-zephyr"])
    library.set_field(ids["hardware.png"], "vendor", "Global Hardware Trading (Penang)")
    assert _names(library, ids, "lisbon") == {"cafe.png"}
    assert _names(library, ids, "zephyr") == {"taxi.png"}
    assert _names(library, ids, "penang") == {"hardware.png"}
    library.set_tags(ids["taxi.png"], remove=["project-zephyr"])
    assert _names(library, ids, "zephyr") == set()  # the index follows the change


def test_filters(library: Library, ids: dict[str, int], tmp_path: Path) -> None:
    library.set_category(ids["taxi.png"], "Travel")
    library.set_tags(ids["coffee.png"], add=["q1"])
    library.set_status(ids["hardware.png"], "checked")
    assert _names(library, ids, vendor="hardware") == {"hardware.png"}
    assert _names(library, ids, date_from=datetime.date(2024, 3, 5)) == {"coffee.png", "cafe.png"}
    assert _names(library, ids, date_to=datetime.date(2024, 1, 31)) == {"taxi.png", "hardware.png"}
    assert _names(library, ids, amount_min=Decimal("20"), amount_max=Decimal("40")) == {
        "taxi.png",
        "coffee.png",
    }
    assert _names(library, ids, currency="eur") == {"cafe.png"}
    assert _names(library, ids, category="travel") == {"taxi.png"}
    assert _names(library, ids, tag="q1") == {"coffee.png"}
    assert _names(library, ids, status="checked") == {"hardware.png"}
    assert _names(library, ids, way_in="watch") == {"cafe.png"}
    assert _names(library, ids, "1312", amount_min=Decimal("100")) == {"hardware.png"}


def test_batch_filter(tmp_path: Path, library: Library) -> None:
    a, ra = text_page(tmp_path, "a.png", ["ALPHA SHOP", "TOTAL 1.00"])
    b, rb = text_page(tmp_path, "b.png", ["BETA SHOP", "TOTAL 2.00"])
    (ia,) = library.ingest(page_in(a, ra, batch=str(tmp_path / "june" / "scanner-app.sqlite")))
    library.ingest(page_in(b, rb, batch=str(tmp_path / "july" / "scanner-app.sqlite")))
    assert [r.id for r in library.search("", Filters(batch=str(tmp_path / "june")))] == [ia]
