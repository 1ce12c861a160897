"""Field extraction on the SROIE receipts: company, date, address, total read from the app's own OCR.

Usage: ``python benchmarks/fields.py [--data DIR] [--server HOST:PORT] [--reuse] [--pred DIR] [--per-image]``

The OCR comes from ``scanner-app scan --jobs 1 --json`` (benchmarks/accuracy.py's ``run_app``; the
embedded server unless ``--server``), kept in ``~/.cache/scanner-app/accuracy/app``; ``--reuse``
scores the JSON already there when every receipt has one. Fields come from
``scanner_app.core.fields.extract_fields``.

SROIE-style normalisation before the exact match: text fields (company, address) are NFKC-folded,
upper-cased and stripped of all whitespace (SROIE keys are upper case, and their spacing is an
annotation choice); dates are compared as calendar dates (the key's ``25/12/2018`` / ``12-01-19``
read day first, ours is ISO 8601); totals as amounts (``9.00`` = ``9``). A looser rate that also
ignores punctuation is printed beside it for information; the goals apply to the strict rate.
Exit status: 0 goals met, 1 not met (or failed), 2 no test data.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from pathlib import Path

import accuracy
import sroie_score

from scanner_app.core.fields import extract_fields
from scanner_app.core.fields.dates import parse_date
from scanner_app.core.results import PageResult

GOALS = {"total": 0.90, "date": 0.90, "company": 0.80, "address": 0.60}
OURS = {"company": "vendor", "date": "date", "address": "address", "total": "total"}


def norm_text(text: str, loose: bool = False) -> str:
    """NFKC, upper case, no whitespace (and, when ``loose``, no punctuation)."""
    t = re.sub(r"\s+", "", unicodedata.normalize("NFKC", text).upper())
    return re.sub(r"[^\w]", "", t) if loose else t


def norm_total(text: str) -> Decimal | None:
    try:
        return Decimal(re.sub(r"[^\d.\-]", "", text)).quantize(Decimal("0.01"))
    except InvalidOperation:
        return None


def same(field: str, key: str, ours: str, loose: bool = False) -> bool:
    if not ours:
        return False
    if field == "date":
        return parse_date(key, "DMY") == ours
    if field == "total":
        return norm_total(key) is not None and norm_total(key) == norm_total(ours)
    return norm_text(key, loose) == norm_text(ours, loose)


def score(
    pred_dir: Path, data: Path, names: Sequence[str]
) -> dict[str, dict[str, tuple[bool, bool, str, str]]]:
    """Per image and field: (strict match, loose match, key, ours)."""
    out = {}
    for name in names:
        key = json.loads((data / "key" / f"{name}.json").read_text(encoding="utf-8"))
        doc = json.loads((pred_dir / f"{name}.json").read_text(encoding="utf-8"))
        doc.setdefault("image", name)
        if "width" not in doc:  # the peer's JSON has no page size
            from PIL import Image

            with Image.open(data / "img" / f"{name}.jpg") as im:
                doc["width"], doc["height"] = im.size
        fields = extract_fields(PageResult.from_json(doc))
        out[name] = {
            f: (same(f, key.get(f, ""), fields.value(o)), same(f, key.get(f, ""), fields.value(o), True),
                key.get(f, ""), fields.value(o))
            for f, o in OURS.items()
        }  # fmt: skip
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=sroie_score.default_data(), help="SROIE folder")
    ap.add_argument("--server", metavar="HOST:PORT", help="a running server for the app (passed to scan)")
    ap.add_argument("--out", type=Path, default=accuracy.OUT_ROOT / "app", help="where the app's JSON goes")
    ap.add_argument("--reuse", action="store_true", help="score the app's JSON already in --out if complete")
    ap.add_argument("--per-image", action="store_true", help="print every field that did not match")
    ap.add_argument(
        "--pred", type=Path, help="score another reader's NNN.json (e.g. the data's peer/) instead"
    )
    args = ap.parse_args(argv)
    if not (args.data / "img").is_dir() or not (args.data / "key").is_dir():
        print(
            f"No test data at {args.data} (expected img/ and key/); this benchmark needs it.", file=sys.stderr
        )
        return 2
    images = sorted((args.data / "img").glob("*.jpg"))
    have = all((args.out / f"{p.stem}.json").is_file() for p in images)
    if args.pred:
        args.out = args.pred
    elif not (args.reuse and have):
        print(f"Running the app on {len(images)} receipts ...", file=sys.stderr)
        try:
            accuracy.run_app(images, args.out, args.server)
        except accuracy.AppError as e:
            print(f"app failed: {e}", file=sys.stderr)
            return 1
    results = score(args.out, args.data, [p.stem for p in images])
    print(
        f"SROIE fields, {len(images)} receipts, {'OCR' if args.pred else 'the app OCR'} ({args.out})"
    )
    print(f"{'field':<10}{'exact':>8}{'loose':>8}{'goal':>8}")
    ok = True
    for field, goal in GOALS.items():
        strict = sum(r[field][0] for r in results.values()) / len(results)
        loose = sum(r[field][1] for r in results.values()) / len(results)
        ok &= strict >= goal
        print(f"{field:<10}{strict:>8.2f}{loose:>8.2f}{goal:>8.2f}  {'PASS' if strict >= goal else 'FAIL'}")
    if args.per_image:
        for name, row in results.items():
            for field, (hit, _, key, ours) in row.items():
                if not hit:
                    print(f"  {name} {field}: key {key!r} ours {ours!r}")
    print(f"fields: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
