"""Accuracy on the SROIE receipts: the app against the peer (PaddleOCR via rapidocr), same images.

Usage: ``python benchmarks/accuracy.py [--set NAME] [--data ../shared/data/sroie] [--server HOST:PORT]``

The app half runs ``python -m scanner_app.cli scan --jobs 1 --json OUTDIR <images>`` (with
``--server`` when given; otherwise the CLI starts its embedded server on model_repository/), the
peer half runs benchmarks/peer.py on ``--set`` (default: the set placed in model_repository/).
Both are scored with benchmarks/sroie_score.py. App seconds per image are the client's
``elapsed_ms`` (one request in flight); peer seconds are RapidOCR's wall time per call.
Exit status: 0 the app meets the goal, 1 it does not (or failed), 2 no test data.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import peer
import sroie_score

from scanner_app.server.model_sets import DEFAULT_SET, MODEL_SETS

GOAL_F1 = 0.93
GOAL_CER = 0.030
GOAL_EXACT = 0.78
OUT_ROOT = peer.CACHE / "accuracy"


class AppError(RuntimeError):
    """``scanner-app scan`` failed or left results out."""


@dataclass
class Row:
    """One line of the result table."""

    label: str
    counts: sroie_score.Counts | None = None
    seconds: float | None = None
    error: str | None = None

    def format(self) -> str:
        if self.counts is None:
            return f"{self.label:<24}FAILED: {self.error}"
        c = self.counts
        s = f"{self.seconds:>9.2f}" if self.seconds is not None else f"{'-':>9}"
        return (
            f"{self.label:<24}{c.f1:>7.3f}{c.precision:>7.3f}{c.recall:>7.3f}"
            f"{c.cer:>7.3f}{c.exact_rate:>7.3f}{s}"
        )


def meets_goal(c: sroie_score.Counts) -> bool:
    """The issue's goal: F1 >= 0.93, CER <= 0.030, exact >= 0.78."""
    return c.f1 >= GOAL_F1 and c.cer <= GOAL_CER and c.exact_rate >= GOAL_EXACT


def placed_set() -> str | None:
    """Name of the model set placed in the app's default model repository, if any."""
    try:
        from scanner_app.server.model_fetch import default_repository, placed_model_set
    except ImportError:
        return None
    placed = placed_model_set(default_repository())
    return placed["set"] if placed else None


def run_app(images: Sequence[Path], out_dir: Path, server: str | None) -> float:
    """Run the app's CLI on the images into OUT_DIR; returns mean seconds per image."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in out_dir.glob("*.json"):
        stale.unlink()
    cmd = [sys.executable, "-m", "scanner_app.cli", "scan", "--jobs", "1", "--json", str(out_dir)]
    cmd += ["--server", server] if server else []
    cmd += [str(p) for p in images]
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise AppError(f"could not run {cmd[0]}: {e}") from e
    wall = time.perf_counter() - t0
    tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-15:])
    missing = [p.name for p in images if not (out_dir / f"{p.stem}.json").is_file()]
    if proc.returncode != 0 or missing:
        raise AppError(
            f"`{' '.join(cmd[:8])} ...` exited {proc.returncode}"
            + (f"; no result for {', '.join(missing)}" if missing else "")
            + (f"\n{tail}" if tail else "")
        )
    elapsed = [json.loads((out_dir / f"{p.stem}.json").read_text()).get("elapsed_ms") for p in images]
    if all(isinstance(ms, (int, float)) for ms in elapsed):
        return sum(elapsed) / len(elapsed) / 1000.0
    return wall / len(images)


def score(pred_dir: Path, data: Path, images: Sequence[Path]) -> dict[str, sroie_score.Counts]:
    """Per-image counts for the predictions in PRED_DIR."""
    return sroie_score.score_dir(pred_dir, data, [p.stem for p in images])


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", choices=list(MODEL_SETS), help="peer model set (default: the app's placed set)")
    ap.add_argument("--data", type=Path, default=sroie_score.default_data(), help="SROIE folder")
    ap.add_argument("--server", metavar="HOST:PORT", help="a running server for the app (passed to scan)")
    ap.add_argument("--out", type=Path, default=OUT_ROOT, help="where to keep both sides' JSON")
    ap.add_argument("--no-peer", action="store_true", help="score the app only")
    ap.add_argument("--per-image", action="store_true", help="also print per-image tables")
    args = ap.parse_args(argv)

    if not ((args.data / "img").is_dir() and (args.data / "box").is_dir()):
        print(
            f"No test data at {args.data} (expected ../shared/data/sroie with img/ and box/); "
            "this benchmark needs it.",
            file=sys.stderr,
        )
        return 2
    images = sorted((args.data / "img").glob("*.jpg"))
    app_set = None if args.server else placed_set()
    set_name = args.set or app_set or DEFAULT_SET
    if app_set and app_set != set_name:
        print(f"warning: the app runs {app_set} (model_repository/), the peer {set_name}", file=sys.stderr)

    rows: list[Row] = []
    app_label = f"app ({app_set or ('server' if args.server else '?')})"
    print(f"Running the app on {len(images)} receipts ...", file=sys.stderr)
    try:
        secs = run_app(images, args.out / "app", args.server)
        per_image = score(args.out / "app", args.data, images)
        rows.append(Row(app_label, sroie_score.total(per_image), secs))
        if args.per_image:
            print(f"-- {app_label}\n{sroie_score.format_table(per_image)}\n")
    except AppError as e:
        print(f"app failed: {e}", file=sys.stderr)
        rows.append(Row(app_label, error="scanner-app scan failed (see above)"))

    if not args.no_peer:
        print(f"Running the peer ({set_name}) on {len(images)} receipts ...", file=sys.stderr)
        peer_label = f"peer ({set_name})"
        try:
            seconds = peer.run_peer(set_name, images, args.out / f"peer-{set_name}", quiet=True)
            per_image = score(args.out / f"peer-{set_name}", args.data, images)
            rows.append(Row(peer_label, sroie_score.total(per_image), sum(seconds.values()) / len(seconds)))
            if args.per_image:
                print(f"-- {peer_label}\n{sroie_score.format_table(per_image)}\n")
        except peer.PeerError as e:
            print(f"peer failed: {e}", file=sys.stderr)
            rows.append(Row(peer_label, error=str(e).splitlines()[0]))

    print(f"SROIE, {len(images)} receipts ({args.data})")
    print(f"{'':<24}{'F1':>7}{'P':>7}{'R':>7}{'CER':>7}{'exact':>7}{'s/img':>9}")
    for row in rows:
        print(row.format())
    print(f"goal: F1 >= {GOAL_F1:.2f}, CER <= {GOAL_CER:.3f}, exact >= {GOAL_EXACT:.2f}")
    app = rows[0].counts
    ok = app is not None and meets_goal(app)
    print(f"app: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
