"""Score OCR output against the SROIE ground truth in ../shared/data/sroie (rule in its README).

Rule, as implemented here:

- text is compared case-insensitively: ``.upper()`` after stripping outer whitespace only;
- a predicted line matches a ground-truth line when the IoU of their axis-aligned bounding
  rectangles is >= 0.5; matching is one-to-one and greedy: all (gt, pred) pairs with IoU >= 0.5
  are taken in order of decreasing IoU (ties by gt index, then pred index), skipping any pair
  whose gt or pred line is already matched;
- detection precision = matched / predicted, recall = matched / ground truth, F1 their harmonic
  mean;
- CER = sum of Levenshtein distances over matched pairs / sum of ground-truth characters of the
  matched lines (pooled, not a mean of per-line rates);
- exact = matched pairs whose texts are equal / all ground-truth lines.

Totals are micro-averaged: counts are summed over all images before the ratios are taken.

Usage: ``python benchmarks/sroie_score.py PRED_DIR [--data ../shared/data/sroie]`` where PRED_DIR
holds NNN.json files ``{"lines": [{"box": [[x, y] x4], "text": str, "score": float}]}``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

IOU_THRESHOLD = 0.5

Point = tuple[float, float]
Rect = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class Line:
    """One text line: its quadrilateral (4 points) and its transcript."""

    box: tuple[Point, ...]
    text: str


@dataclass
class Counts:
    """Summable counts for one image or a pool of images."""

    gt: int = 0
    pred: int = 0
    matched: int = 0
    edits: int = 0
    matched_gt_chars: int = 0
    exact: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(
            self.gt + other.gt,
            self.pred + other.pred,
            self.matched + other.matched,
            self.edits + other.edits,
            self.matched_gt_chars + other.matched_gt_chars,
            self.exact + other.exact,
        )

    @property
    def precision(self) -> float:
        return self.matched / self.pred if self.pred else 0.0

    @property
    def recall(self) -> float:
        return self.matched / self.gt if self.gt else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def cer(self) -> float:
        """Pooled character error rate over matched lines (1.0 when nothing matched)."""
        return self.edits / self.matched_gt_chars if self.matched_gt_chars else 1.0

    @property
    def exact_rate(self) -> float:
        return self.exact / self.gt if self.gt else 0.0

    def as_dict(self) -> dict[str, float]:
        return {
            "f1": self.f1,
            "precision": self.precision,
            "recall": self.recall,
            "cer": self.cer,
            "exact": self.exact_rate,
        }


def normalize(text: str) -> str:
    """Case-fold the way SROIE is annotated: outer whitespace stripped, upper-cased."""
    return text.strip().upper()


def load_gt(path: Path) -> list[Line]:
    """Read one SROIE ``box/NNN.csv`` file (``x1,y1,...,x4,y4,TRANSCRIPT`` rows)."""
    lines: list[Line] = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        row = raw.rstrip("\r\n")
        if not row.strip():
            continue
        parts = row.split(",", 8)
        if len(parts) < 9:
            raise ValueError(f"{path}: malformed row {row!r}")
        c = [float(v) for v in parts[:8]]
        box = ((c[0], c[1]), (c[2], c[3]), (c[4], c[5]), (c[6], c[7]))
        lines.append(Line(box, parts[8]))
    return lines


def lines_from_json(doc: dict) -> list[Line]:
    """Convert a prediction document ``{"lines": [{"box", "text", ...}]}`` to lines."""
    return [
        Line(tuple((float(x), float(y)) for x, y in item["box"]), str(item["text"]))
        for item in doc.get("lines", [])
    ]


def load_pred(path: Path) -> list[Line]:
    """Read one prediction JSON file."""
    return lines_from_json(json.loads(path.read_text(encoding="utf-8")))


def rect(box: Iterable[Point]) -> Rect:
    """Axis-aligned bounding rectangle of a polygon."""
    xs, ys = zip(*box, strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def iou(a: Rect, b: Rect) -> float:
    """Intersection over union of two axis-aligned rectangles."""
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    if iw <= 0 or ih <= 0:
        return 0.0
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def match(
    gt: Sequence[Line], pred: Sequence[Line], threshold: float = IOU_THRESHOLD
) -> list[tuple[int, int]]:
    """One-to-one greedy matching by decreasing IoU; returns (gt index, pred index) pairs."""
    gr = [rect(g.box) for g in gt]
    pr = [rect(p.box) for p in pred]
    cands = [
        (v, gi, pi) for gi, g in enumerate(gr) for pi, p in enumerate(pr) if (v := iou(g, p)) >= threshold
    ]
    cands.sort(key=lambda c: (-c[0], c[1], c[2]))
    used_g: set[int] = set()
    used_p: set[int] = set()
    pairs: list[tuple[int, int]] = []
    for _, gi, pi in cands:
        if gi in used_g or pi in used_p:
            continue
        used_g.add(gi)
        used_p.add(pi)
        pairs.append((gi, pi))
    return sorted(pairs)


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance (unit insert, delete, substitute)."""
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def score_image(gt: Sequence[Line], pred: Sequence[Line]) -> Counts:
    """Counts for one image."""
    c = Counts(gt=len(gt), pred=len(pred))
    for gi, pi in match(gt, pred):
        g, p = normalize(gt[gi].text), normalize(pred[pi].text)
        c.matched += 1
        c.edits += edit_distance(g, p)
        c.matched_gt_chars += len(g)
        c.exact += g == p
    return c


def score_dir(pred_dir: Path, data: Path, names: Iterable[str] | None = None) -> dict[str, Counts]:
    """Score PRED_DIR/NNN.json against DATA/box/NNN.csv for each name (default: all GT files).

    A missing prediction file counts as an empty prediction.
    """
    if names is None:
        names = sorted(p.stem for p in (data / "box").glob("*.csv"))
    out: dict[str, Counts] = {}
    for name in names:
        gt = load_gt(data / "box" / f"{name}.csv")
        pfile = pred_dir / f"{name}.json"
        pred = load_pred(pfile) if pfile.exists() else []
        out[name] = score_image(gt, pred)
    return out


def total(per_image: dict[str, Counts]) -> Counts:
    """Micro-average: sum the counts of all images."""
    acc = Counts()
    for c in per_image.values():
        acc = acc + c
    return acc


def format_table(per_image: dict[str, Counts]) -> str:
    """Per-image table plus the pooled total row."""
    head = f"{'image':<8}{'gt':>5}{'pred':>6}{'match':>7}{'P':>7}{'R':>7}{'F1':>7}{'CER':>7}{'exact':>7}"
    rows = [head]
    for name, c in [*per_image.items(), ("TOTAL", total(per_image))]:
        rows.append(
            f"{name:<8}{c.gt:>5}{c.pred:>6}{c.matched:>7}{c.precision:>7.3f}{c.recall:>7.3f}"
            f"{c.f1:>7.3f}{c.cer:>7.3f}{c.exact_rate:>7.3f}"
        )
    return "\n".join(rows)


def default_data() -> Path:
    """../shared/data/sroie relative to the project root."""
    return Path(__file__).resolve().parents[1].parent / "shared" / "data" / "sroie"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pred_dir", type=Path, help="folder of NNN.json predictions")
    ap.add_argument("--data", type=Path, default=default_data(), help="SROIE folder (box/, img/)")
    ap.add_argument("--json", action="store_true", help="print the totals as JSON instead")
    args = ap.parse_args(argv)
    if not (args.data / "box").is_dir():
        print(f"ground truth not found: {args.data / 'box'}", file=sys.stderr)
        return 2
    per_image = score_dir(args.pred_dir, args.data)
    if args.json:
        print(json.dumps(total(per_image).as_dict()))
    else:
        print(format_table(per_image))
    return 0


if __name__ == "__main__":
    sys.exit(main())
