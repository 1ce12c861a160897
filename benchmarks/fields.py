"""Field extraction on the SROIE receipts: company, date, address, total read from the app's own OCR.

Usage: ``python benchmarks/fields.py [--data DIR ...] [--server HOST:PORT] [--reuse] [--pred DIR]
[--per-image]``

Both sets, side by side: ../shared/data/sroie (10) and ../shared/data/sroie-dev (50) unless
``--data`` names others. The OCR comes from ``scanner-app scan --jobs 1 --json`` (benchmarks/accuracy.py's
``run_app``; the embedded server unless ``--server``), kept in ``~/.cache/scanner-app/accuracy/app/<set>``;
``--reuse`` scores the JSON already there when every receipt has one. Fields come from
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

GOALS = {"total": 0.95, "date": 0.95, "company": 0.85, "address": 0.70}
GOAL_SET = "sroie-dev"
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
        return not key  # nothing printed (SROIE keys null when a receipt has no address) and none read
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
        row = {}
        for f, o in OURS.items():
            want, ours = key.get(f) or "", fields.value(o)  # a key is null where nothing is printed
            row[f] = (same(f, want, ours), same(f, want, ours, True), want, ours)
        out[name] = row
    return out


def default_sets() -> list[Path]:
    """../shared/data/sroie and ../shared/data/sroie-dev, those present."""
    root = sroie_score.default_data().parent
    return [root / name for name in ("sroie", "sroie-dev") if (root / name / "key").is_dir()]


def _pred_dir(pred: Path, data: Path, several: bool) -> Path:
    """``--pred``: a folder of NNN.json, or a folder name inside each set (``peer/ppocrv6-small``)."""
    inside = data / pred
    return inside if (several or not pred.is_dir()) and inside.is_dir() else pred


def _rates(results: dict[str, dict[str, tuple[bool, bool, str, str]]], field: str) -> tuple[float, float]:
    n = max(len(results), 1)
    return sum(r[field][0] for r in results.values()) / n, sum(r[field][1] for r in results.values()) / n


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--data", type=Path, action="append", help="a SROIE folder, repeatable (default: sroie, sroie-dev)"
    )
    ap.add_argument("--server", metavar="HOST:PORT", help="a running server for the app (passed to scan)")
    ap.add_argument(
        "--out", type=Path, default=accuracy.OUT_ROOT / "app", help="where the app's JSON goes (OUT/<set>/)"
    )
    ap.add_argument("--reuse", action="store_true", help="score the app's JSON already in --out if complete")
    ap.add_argument("--per-image", action="store_true", help="print every field that did not match")
    ap.add_argument(
        "--pred",
        type=Path,
        help="score another reader's NNN.json instead: a folder, or one inside each set (peer/ppocrv6-small)",
    )
    args = ap.parse_args(argv)
    sets = args.data or default_sets()
    missing = [d for d in sets if not (d / "img").is_dir() or not (d / "key").is_dir()]
    if not sets or missing:
        where = ", ".join(map(str, missing)) or str(sroie_score.default_data().parent)
        print(f"No test data at {where} (expected img/ and key/); this benchmark needs it.", file=sys.stderr)
        return 2
    table: dict[str, dict[str, dict[str, tuple[bool, bool, str, str]]]] = {}
    for data in sets:
        images = sorted((data / "img").glob("*.jpg"))
        label = f"{data.name} ({len(images)})"
        out = _pred_dir(args.pred, data, len(sets) > 1) if args.pred else args.out / data.name
        if not args.pred and not (args.reuse and all((out / f"{p.stem}.json").is_file() for p in images)):
            print(f"Running the app on {len(images)} receipts of {data} ...", file=sys.stderr)
            try:
                accuracy.run_app(images, out, args.server)
            except accuracy.AppError as e:
                print(f"app failed: {e}", file=sys.stderr)
                return 1
        if not all((out / f"{p.stem}.json").is_file() for p in images):
            print(f"{label}: no NNN.json for every receipt in {out}; set left out", file=sys.stderr)
            continue
        print(f"{label}: {'OCR' if args.pred else 'the app OCR'} from {out}")
        table[label] = score(out, data, [p.stem for p in images])
    labels = list(table)
    if not labels:
        return 1
    # The goals are set on the larger set (issue 16); the others are reported beside it.
    judged = [label for label in labels if label.startswith(GOAL_SET + " ")] or labels
    print(f"SROIE fields, exact (loose) per set; goals apply to {', '.join(judged)}")
    print(f"{'field':<10}" + "".join(f"{label:>22}" for label in labels) + f"{'goal':>8}")
    ok = True
    for field, goal in GOALS.items():
        cells = []
        for label in labels:
            strict, loose = _rates(table[label], field)
            verdict = ("PASS" if strict >= goal else "FAIL") if label in judged else ""
            ok &= strict >= goal or label not in judged
            cells.append(f"{strict:.2f} ({loose:.2f}) {verdict:<4}")
        print(f"{field:<10}" + "".join(f"{c:>22}" for c in cells) + f"{goal:>8.2f}")
    if args.per_image:
        for label in labels:
            for name, row in table[label].items():
                for field, (hit, _, key, ours) in row.items():
                    if not hit:
                        print(f"  {label} {name} {field}: key {key!r} ours {ours!r}")
    print(f"fields: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
