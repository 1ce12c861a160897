"""How ``scanner-app library`` prints receipts and duplicate flags: a table, JSON or CSV."""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from scanner_app.core.library.duplicates import DuplicateFlag
from scanner_app.core.library.receipts import ReceiptRecord
from scanner_app.core.store.records import utf8_safe

COLUMNS = ("id", "date", "vendor", "total", "currency", "category", "status", "tags", "path", "page")


def _row(record: ReceiptRecord) -> dict[str, str]:
    data = record.to_json()
    return {
        c: ",".join(data[c]) if c == "tags" else ("" if data[c] is None else str(data[c])) for c in COLUMNS
    }


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def print_receipts(records: Sequence[ReceiptRecord], fmt: str, out: TextIO | None = None) -> None:
    out = out or sys.stdout
    if fmt == "json":
        json.dump([r.to_json() for r in records], out, ensure_ascii=False, indent=1)
        out.write("\n")
    elif fmt == "csv":
        writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(_row(r) for r in records)
    else:
        widths = {"id": 6, "date": 10, "vendor": 28, "total": 10, "currency": 4, "category": 22,
                  "status": 9, "tags": 12, "path": 40, "page": 4}  # fmt: skip
        print("  ".join(c.ljust(widths[c]) for c in COLUMNS), file=out)
        for record in records:
            row = _row(record)
            print(
                "  ".join(utf8_safe(_clip(row[c], widths[c])).ljust(widths[c]) for c in COLUMNS).rstrip(),
                file=out,
            )
        print(f"{len(records)} receipts", file=sys.stderr)


def print_flags(flags: Sequence[DuplicateFlag], fmt: str, out: TextIO | None = None) -> None:
    out = out or sys.stdout
    if fmt == "json":
        json.dump([f.to_json() for f in flags], out, ensure_ascii=False, indent=1)
        out.write("\n")
        return
    for f in flags:
        print(f"{f.receipt_id} repeats {f.original_id} ({f.reason}: {f.detail}) [{f.state}]", file=out)
        print(f"    {f.receipt_id}: {f.receipt_path}\n    {f.original_id}: {f.original_path}", file=out)
    print(f"{len(flags)} pairs", file=sys.stderr)
