"""The receipt library's search at scale: 20,000 generated receipts, timed queries, open time, size.

Receipts are generated (vendors, items, amounts, dates, receipt numbers; one in eight Chinese) and
written through the library's own tables and index code (``search_index.reindex``), in one
transaction; ingest of real pages is measured by benchmarks/duplicates.py. Then, each run RUNS
times with different terms: a word (``--`` vendor words), a number fragment (4 digits from inside
receipt numbers), a 3-character Chinese query (trigram), a 1-character one (plain scan), a word
with a date filter. Printed: p50 and p95 per query kind, the library's open time (a new
connection, migrations checked, first query), the file size. Goals: p95 < 50 ms, open < 1 s.

Usage: python benchmarks/library_search.py [--receipts 20000] [--runs 50] [--keep PATH]
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from scanner_app.core.library.library import Library
from scanner_app.core.library.search import Filters
from scanner_app.core.library.search_index import reindex

WORDS = [
    "Northwind",
    "Bluebird",
    "Cedar",
    "Harbor",
    "Summit",
    "Maple",
    "Granite",
    "Riverside",
    "Evergreen",
    "Copperfield",
    "Silverline",
    "Redwood",
    "Oakhurst",
    "Westbrook",
    "Foxglove",
    "Stonegate",
    "Sunflower",
    "Brightwater",
    "Pinehaven",
    "Marigold",
]
KINDS = [
    "Hardware",
    "Bakery",
    "Pharmacy",
    "Deli",
    "Florist",
    "Grocers",
    "Stationers",
    "Electronics",
    "Coffee",
    "Garage",
    "Taxi",
    "Hotel",
    "Restaurant",
    "Bookstore",
    "Market",
]
ITEMS = (
    "Copy Paper",
    "Ballpoint Pens",
    "Stapler",
    "Toner",
    "Sticky Notes",
    "Coffee Beans",
    "Sandwich",
    "Parking",
    "Fuel",
    "Room Night",
    "Taxi Fare",
    "Lunch Set",
    "Cable Kit",
    "Batteries",
)
CN_SHOPS = (
    "星巴克咖啡",
    "全家便利店",
    "海底捞火锅",
    "京东商城",
    "滴滴出行",
    "如家酒店",
    "中国石化",
    "华润万家",
)
CN_ITEMS = ("拿铁", "美式咖啡", "矿泉水", "打车费", "住宿费", "汽油", "办公用品", "午餐")


def receipt_text(rng: random.Random, i: int) -> tuple[str, dict[str, str]]:
    date = datetime.date(2024, 1, 1) + datetime.timedelta(days=rng.randrange(730))
    number = f"INV-{rng.choice('ABCDEFGH')}{rng.randrange(100000, 999999)}"
    total = f"{rng.randrange(100, 50000) / 100:.2f}"
    if i % 8 == 7:
        vendor = rng.choice(CN_SHOPS) + rng.choice(("北京店", "上海店", "深圳店", "广州店"))
        items = [f"{rng.choice(CN_ITEMS)} {rng.randrange(1, 99)}.00" for _ in range(rng.randrange(2, 6))]
        lines = [vendor, f"发票号码 {number}", f"日期 {date.isoformat()}", *items, f"合计 ¥{total}"]
        return "\n".join(lines), {
            "vendor": vendor,
            "date": date.isoformat(),
            "total": total,
            "currency": "CNY",
            "number": number,
        }
    vendor = f"{rng.choice(WORDS)} {rng.choice(KINDS)} {rng.choice(('Ltd', 'Co.', 'Sdn Bhd', 'LLC'))}"
    items = [
        f"{rng.choice(ITEMS)} {rng.randrange(1, 9)} x {rng.randrange(100, 9999) / 100:.2f}"
        for _ in range(rng.randrange(3, 12))
    ]
    lines = [
        vendor,
        f"{rng.randrange(1, 300)} {rng.choice(WORDS)} Street",
        f"Tel {rng.randrange(10**7, 10**8)}",
        f"Invoice No: {number}",
        f"Date: {date:%d/%m/%Y} {rng.randrange(24):02d}:{rng.randrange(60):02d}",
        *items,
        f"TOTAL {total}",
        "Thank you, please come again",
    ]
    return "\n".join(lines), {
        "vendor": vendor,
        "date": date.isoformat(),
        "total": total,
        "currency": "MYR",
        "number": number,
    }


def build(library: Library, n: int, seed: int = 0) -> list[str]:
    """``n`` receipts; the receipt numbers, for number-fragment queries."""
    rng, numbers = random.Random(seed), []
    with library.db.tx() as tx:
        for i in range(n):
            text, fields = receipt_text(rng, i)
            numbers.append(fields["number"])
            receipt_id = tx.execute(
                "INSERT INTO receipts (source_path, sha256, part, page, way_in, read_at, os_user, text,"
                " phash, dhash)"
                " VALUES (?, ?, 'file', 1, 'scan', ?, 'bench', ?, ?, ?) RETURNING id",
                (
                    f"/scans/{i // 500}/receipt-{i}.jpg",
                    f"{i:064x}",
                    time.time(),
                    text,
                    rng.randrange(-(2**63), 2**63),
                    rng.randrange(-(2**63), 2**63),
                ),
            ).fetchone()[0]
            tx.execute(
                "INSERT INTO receipt_pages (receipt_id, page_index, text, fields) VALUES (?, 0, ?, ?)",
                (receipt_id, text, json.dumps({"fields": {k: {"value": v} for k, v in fields.items()}})),
            )
            tx.executemany(
                "INSERT INTO fields (receipt_id, name, value, confidence) VALUES (?, ?, ?, 0.9)",
                [(receipt_id, k, v) for k, v in fields.items()],
            )
            reindex(tx, receipt_id)
    return numbers


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed(library: Library, queries: list[tuple[str, Filters | None]]) -> tuple[list[float], list[int]]:
    times, hits = [], []
    for query, filters in queries:
        start = time.perf_counter()
        found = library.search_ids(query, filters, limit=200)
        times.append((time.perf_counter() - start) * 1000)
        hits.append(len(found))
    return times, hits


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--receipts", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--keep", type=Path, help="build the library here and keep it")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="library-bench-"))
    path = args.keep or folder / "library.sqlite"
    start = time.perf_counter()
    with Library(path) as library:
        numbers = build(library, args.receipts)
    print(f"built {args.receipts} receipts in {time.perf_counter() - start:.1f} s")
    rng = random.Random(1)
    opens = []
    for _ in range(5):
        start = time.perf_counter()
        with Library(path) as library:
            library.search_ids("total", limit=1)
            opens.append((time.perf_counter() - start) * 1000)
    with Library(path) as library:
        kinds = {
            "word": [(rng.choice(WORDS), None) for _ in range(args.runs)],
            "word + date filter": [
                (
                    rng.choice(KINDS),
                    Filters(date_from=datetime.date(2025, 1, 1), date_to=datetime.date(2025, 3, 31)),
                )
                for _ in range(args.runs)
            ],
            "number fragment": [(rng.choice(numbers)[5:9], None) for _ in range(args.runs)],
            "Chinese, 3 chars": [(rng.choice(CN_SHOPS)[:3], None) for _ in range(args.runs)],
            "Chinese, 1 char": [(rng.choice("咖啡店酒汽午餐"), None) for _ in range(args.runs)],
            "vendor filter only": [("", Filters(vendor=rng.choice(KINDS))) for _ in range(args.runs)],
        }
        print(f"\n{'query':<22} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'hits (median)':>14}")
        worst = 0.0
        for name, queries in kinds.items():
            times, hits = timed(library, queries)
            p95 = percentile(times, 0.95)
            worst = max(worst, p95)
            print(
                f"{name:<22} {statistics.median(times):8.2f} {p95:8.2f} {max(times):8.2f} "
                f"{statistics.median(hits):14.0f}"
            )
    size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
    open_p50 = statistics.median(opens)
    print(f"\nopen (new connection + first query): p50 {open_p50:.1f} ms, max {max(opens):.1f} ms")
    print(
        f"file size: {size / 1e6:.1f} MB for {args.receipts} receipts "
        f"({size / args.receipts / 1e3:.1f} kB each)"
    )
    ok = worst < 50 and max(opens) < 1000
    print(f"goal p95 < 50 ms and open < 1 s: {'PASS' if ok else 'FAIL'} (worst p95 {worst:.1f} ms)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
