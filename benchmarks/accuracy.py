"""Accuracy on the SROIE receipts: the app against the peer (PaddleOCR via rapidocr), same images.

Usage: ``python benchmarks/accuracy.py [--data DIR ...] [--set NAME] [--server HOST:PORT] [--reuse]``

``--data`` may be repeated; by default both ../shared/data/sroie (10 receipts) and
../shared/data/sroie-dev (50 receipts, the tuning set) are read, and each set gets its own table,
the app and the peer side by side. The app half runs ``python -m scanner_app.cli scan --jobs 1
--json OUT/app/<data> <images>`` against one server for all sets (``--server`` when given,
otherwise one embedded server on model_repository/), the peer half runs benchmarks/peer.py with
``--set`` (default: the set placed in model_repository/) into OUT/peer-<set>/<data>. Both are
scored with benchmarks/sroie_score.py. ``--reuse`` scores the JSON already in OUT for a side and
set that has one per image instead of running it again (for re-scoring, e.g. after a scoring
change). App seconds per image are the client's ``elapsed_ms`` (one request in flight); peer
seconds are RapidOCR's wall time per call.
Exit status: 0 the app meets the goal on every set, 1 it does not (or failed), 2 no test data.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import peer
import sroie_score

from scanner_app.server.model_sets import DEFAULT_SET, MODEL_SETS

GOAL_F1 = 0.93
GOAL_CER = 0.030
GOAL_EXACT = 0.78
OUT_ROOT = peer.CACHE / "accuracy"
TUNING_SET = "sroie-dev"


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


@dataclass
class SetResult:
    """The app's and the peer's rows on one data set."""

    data: Path
    images: list[Path]
    app: Row
    peer: Row | None = None

    def format(self) -> str:
        head = f"{'':<24}{'F1':>7}{'P':>7}{'R':>7}{'CER':>7}{'exact':>7}{'s/img':>9}"
        rows = [f"{self.data.name}: {len(self.images)} receipts ({self.data})", head, self.app.format()]
        rows += [self.peer.format()] if self.peer else []
        app, other = self.app.counts, self.peer.counts if self.peer else None
        verdict = f"app goal: {'PASS' if app is not None and meets_goal(app) else 'FAIL'}"
        if app is not None and other is not None:
            verdict += (
                f"; vs peer: F1 {app.f1 - other.f1:+.3f}, CER {app.cer - other.cer:+.3f}, "
                f"exact {app.exact_rate - other.exact_rate:+.3f} "
                f"({'beats' if beats(app, other) else 'does not beat'} the peer on F1 and CER)"
            )
        return "\n".join([*rows, verdict])


def meets_goal(c: sroie_score.Counts) -> bool:
    """The issue's goal: F1 >= 0.93, CER <= 0.030, exact >= 0.78."""
    return c.f1 >= GOAL_F1 and c.cer <= GOAL_CER and c.exact_rate >= GOAL_EXACT


def beats(app: sroie_score.Counts, other: sroie_score.Counts) -> bool:
    """Higher F1 and lower CER than the other side."""
    return app.f1 > other.f1 and app.cer < other.cer


def default_sets() -> list[Path]:
    """../shared/data/sroie and its sibling sroie-dev."""
    first = sroie_score.default_data()
    return [first, first.parent / TUNING_SET]


def placed_set() -> str | None:
    """Name of the model set placed in the app's default model repository, if any."""
    try:
        from scanner_app.server.model_fetch import default_repository, placed_model_set
    except ImportError:
        return None
    placed = placed_model_set(default_repository())
    return placed["set"] if placed else None


def complete(out_dir: Path, images: Sequence[Path]) -> bool:
    """Whether OUT_DIR holds one JSON per image."""
    return all((out_dir / f"{p.stem}.json").is_file() for p in images)


def app_seconds(out_dir: Path, images: Sequence[Path]) -> float | None:
    """Mean client ``elapsed_ms`` per image, in seconds (None when a result lacks it)."""
    elapsed = [json.loads((out_dir / f"{p.stem}.json").read_text()).get("elapsed_ms") for p in images]
    if images and all(isinstance(ms, (int, float)) for ms in elapsed):
        return sum(elapsed) / len(elapsed) / 1000.0
    return None


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
    secs = app_seconds(out_dir, images)
    return secs if secs is not None else wall / len(images)


def score(pred_dir: Path, data: Path, images: Sequence[Path]) -> dict[str, sroie_score.Counts]:
    """Per-image counts for the predictions in PRED_DIR."""
    return sroie_score.score_dir(pred_dir, data, [p.stem for p in images])


@contextlib.contextmanager
def app_server(server: str | None, needed: bool) -> Iterator[str | None]:
    """The given server, or one embedded server for every set (None when no set needs the app run)."""
    if server or not needed:
        yield server
        return
    from scanner_app.commands.scan import server_url

    with server_url(None) as url:
        yield url


def scored_row(
    label: str, out_dir: Path, data: Path, images: Sequence[Path], seconds: float | None, per_image: bool
) -> Row:
    """Score one side's JSON in OUT_DIR against DATA."""
    counts = score(out_dir, data, images)
    if per_image:
        print(f"-- {label}, {data.name}\n{sroie_score.format_table(counts)}\n")
    return Row(label, sroie_score.total(counts), seconds)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", choices=list(MODEL_SETS), help="peer model set (default: the app's placed set)")
    ap.add_argument(
        "--data", type=Path, action="append", help="SROIE folder, repeatable (default: sroie, sroie-dev)"
    )
    ap.add_argument("--server", metavar="HOST:PORT", help="a running server for the app (passed to scan)")
    ap.add_argument("--out", type=Path, default=OUT_ROOT, help="where to keep both sides' JSON")
    ap.add_argument("--reuse", action="store_true", help="score the JSON already in --out where complete")
    ap.add_argument("--no-peer", action="store_true", help="score the app only")
    ap.add_argument("--per-image", action="store_true", help="also print per-image tables")
    args = ap.parse_args(argv)

    sets: list[tuple[Path, list[Path]]] = []
    for data in args.data or default_sets():
        if not ((data / "img").is_dir() and (data / "box").is_dir()):
            print(f"No test data at {data} (expected img/ and box/); skipped.", file=sys.stderr)
            continue
        sets.append((data, sorted((data / "img").glob("*.jpg"))))
    if not sets:
        print(
            "No test data (expected ../shared/data/sroie, sroie-dev); this benchmark needs it.",
            file=sys.stderr,
        )
        return 2
    app_set = None if args.server else placed_set()
    set_name = args.set or app_set or DEFAULT_SET
    if app_set and app_set != set_name:
        print(f"warning: the app runs {app_set} (model_repository/), the peer {set_name}", file=sys.stderr)
    app_label = f"app ({app_set or ('server' if args.server else '?')})"
    peer_label = f"peer ({set_name})"

    def app_dir(data: Path) -> Path:
        return args.out / "app" / data.name

    def reused(out_dir: Path, images: Sequence[Path]) -> bool:
        return args.reuse and complete(out_dir, images)

    results: list[SetResult] = []
    needed = any(not reused(app_dir(d), imgs) for d, imgs in sets)
    with app_server(args.server, needed) as url:
        for data, images in sets:
            out = app_dir(data)
            try:
                if reused(out, images):
                    secs = app_seconds(out, images)
                else:
                    print(f"Running the app on {len(images)} receipts of {data.name} ...", file=sys.stderr)
                    secs = run_app(images, out, url)
                row = scored_row(app_label, out, data, images, secs, args.per_image)
            except AppError as e:
                print(f"app failed on {data.name}: {e}", file=sys.stderr)
                row = Row(app_label, error="scanner-app scan failed (see above)")
            results.append(SetResult(data, images, row))

    for result in [] if args.no_peer else results:
        data, images = result.data, result.images
        out = args.out / f"peer-{set_name}" / data.name
        try:
            if reused(out, images):
                secs = [json.loads((out / f"{p.stem}.json").read_text())["seconds"] for p in images]
            else:
                print(
                    f"Running the peer ({set_name}) on {len(images)} receipts of {data.name} ...",
                    file=sys.stderr,
                )
                secs = list(peer.run_peer(set_name, images, out, quiet=True).values())
            result.peer = scored_row(peer_label, out, data, images, sum(secs) / len(secs), args.per_image)
        except peer.PeerError as e:
            print(f"peer failed on {data.name}: {e}", file=sys.stderr)
            result.peer = Row(peer_label, error=str(e).splitlines()[0])

    print("\n\n".join(r.format() for r in results))
    print(f"goal on each set: F1 >= {GOAL_F1:.2f}, CER <= {GOAL_CER:.3f}, exact >= {GOAL_EXACT:.2f}")
    ok = all(r.app.counts is not None and meets_goal(r.app.counts) for r in results)
    print(f"app: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
