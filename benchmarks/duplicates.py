"""Duplicates of real receipts read from other images: recall and false pairs, and the cost.

Each receipt of ../shared/data (sroie/ 10 and sroie-dev/ 50: img/*.jpg) as five images, each kind
in its own batch: its scan; a simulated phone photo (on a desk, perspective warp, uneven light,
noise, JPEG); another DPI (rescaled); recompressed (JPEG quality 35); turned 90 degrees. Every batch
is read through the real server (one EmbeddedServer, whose orientation step turns pages upright)
into one library, as `scan --out BATCH --library LIB` does (run_batch with the library's sink).

Measured: recall (every image after a receipt's first is flagged as a duplicate of the same
receipt), false pairs (flags between different receipts: goal 0 among the distinct receipts),
flags by reason, and the cost per receipt: the library's own ingest time (image read, crop,
hashes, thumbnail, fields, duplicate checks) beside the OCR time.

Usage: python benchmarks/duplicates.py [--sets sroie,sroie-dev] [--limit N] [--url HOST:PORT]
       [--jobs 2] [--max-minutes M] [--keep DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from scanner_app.core.batch.runner import run_batch
from scanner_app.core.client.triton import OcrClient
from scanner_app.core.library.library import Library
from scanner_app.core.library.sink import LibrarySink
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.model_fetch import default_repository

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
KINDS = ("scan", "photo", "dpi", "recompressed", "turned")


def phone_photo(image: Image.Image, rng: random.Random) -> Image.Image:
    """On a desk, seen at a slant, under uneven light, with sensor noise."""
    page = np.asarray(image.convert("RGB"), dtype=np.float32)
    h, w = page.shape[:2]
    pad = int(0.12 * max(w, h))
    desk = np.full((h + 2 * pad, w + 2 * pad, 3), (92, 80, 70), dtype=np.float32)
    desk[pad : pad + h, pad : pad + w] = page
    j = 0.05 * min(w, h)
    src = np.float32([[pad, pad], [pad + w, pad], [pad + w, pad + h], [pad, pad + h]])
    dst = src + np.float32([[rng.uniform(-j, j), rng.uniform(-j, j)] for _ in range(4)])
    warped = cv2.warpPerspective(desk, cv2.getPerspectiveTransform(src, dst), (desk.shape[1], desk.shape[0]),
                                 borderValue=(92, 80, 70))  # fmt: skip
    yy, xx = np.mgrid[0 : warped.shape[0], 0 : warped.shape[1]].astype(np.float32)
    light = 0.75 + 0.35 * (xx / warped.shape[1]) * (1 - 0.4 * yy / warped.shape[0])
    noisy = warped * light[..., None] + np.random.default_rng(rng.randrange(1 << 30)).normal(
        0, 6, warped.shape
    )
    return Image.fromarray(np.clip(noisy, 0, 255).astype(np.uint8))


def variants(source: Path, out: Path, seed: int) -> dict[str, Path]:
    """The five images of one receipt, each kind in its own folder (its own batch)."""
    rng = random.Random(seed)
    image = Image.open(source).convert("RGB")
    paths = {kind: out / kind / f"{source.parent.parent.name}-{source.stem}.jpg" for kind in KINDS}
    for path in paths.values():
        path.parent.mkdir(parents=True, exist_ok=True)
    paths["scan"].write_bytes(source.read_bytes())
    phone_photo(image, rng).save(paths["photo"], "JPEG", quality=80)
    scale = rng.choice((0.6, 0.75, 1.4))
    image.resize((round(image.width * scale), round(image.height * scale)), Image.Resampling.LANCZOS).save(
        paths["dpi"], "JPEG", quality=90
    )
    image.save(paths["recompressed"], "JPEG", quality=35)
    image.transpose(Image.Transpose.ROTATE_270).save(paths["turned"], "JPEG", quality=90)  # 90 clockwise
    return paths


class TimedSink(LibrarySink):
    """The library's sink, timing its own work per page."""

    seconds = 0.0

    def page_saved(self, *args) -> None:  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        super().page_saved(*args)
        TimedSink.seconds += time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="sroie,sroie-dev")
    parser.add_argument("--limit", type=int, help="receipts per set (default: all)")
    parser.add_argument("--url", help="a running server's gRPC host:port (default: start one)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--max-minutes", type=float, help="start no batch after this; report what finished")
    parser.add_argument("--keep", type=Path, help="keep the images, batches and library here")
    args = parser.parse_args()
    sources = []
    for name in args.sets.split(","):
        found = sorted((DATA / name / "img").glob("*.jpg"))[: args.limit]
        if not found:
            print(
                f"no receipts in {DATA / name / 'img'} (../shared/data): nothing to measure", file=sys.stderr
            )
            return 2
        sources += found
    work = args.keep or Path(tempfile.mkdtemp(prefix="duplicates-bench-"))
    truth: dict[str, str] = {}  # image path -> source receipt
    batches: dict[str, list[Path]] = {kind: [] for kind in KINDS}
    for i, source in enumerate(sources):
        for kind, path in variants(source, work / "images", i).items():
            batches[kind].append(path)
            truth[str(path.absolute())] = f"{source.parent.parent.name}/{source.stem}"
    deadline = time.monotonic() + (args.max_minutes * 60 if args.max_minutes else float("inf"))
    ocr_seconds, done_kinds = 0.0, []
    with contextlib.ExitStack() as stack:
        url = (
            args.url
            or stack.enter_context(EmbeddedServer(default_repository(), 0, 0, 0, ready_timeout=300)).grpc_url
        )
        client = stack.enter_context(OcrClient(url, timeout_s=900))
        client.connect()
        library = stack.enter_context(Library(work / "library.sqlite"))
        for kind in KINDS:
            if time.monotonic() > deadline:
                print(f"--max-minutes reached: batches run: {', '.join(done_kinds)}", flush=True)
                break
            start = time.perf_counter()
            before = TimedSink.seconds
            summary = run_batch(batches[kind], work / "batches" / kind, client.recognize, jobs=args.jobs,
                                sink=TimedSink(library.db, kind))  # fmt: skip
            spent = time.perf_counter() - start
            ocr_seconds += spent - (TimedSink.seconds - before)
            done_kinds.append(kind)
            print(
                f"batch {kind}: {len(summary.ok)} ok, {len(summary.failed)} failed, {spent:.0f} s", flush=True
            )
        records = {r.id: r for r in library.search("")}
        flags = library.duplicates(("open", "confirmed", "dismissed"))
    source_of = {rid: truth.get(r.source_path, "?") for rid, r in records.items()}
    by_source: dict[str, list[int]] = {}
    for rid in sorted(records):
        by_source.setdefault(source_of[rid], []).append(rid)
    flagged = {f.receipt_id: f for f in flags}
    later = [rid for ids in by_source.values() for rid in ids[1:]]
    hits = [rid for rid in later if rid in flagged and source_of[flagged[rid].original_id] == source_of[rid]]
    false = [f for f in flags if source_of[f.receipt_id] != source_of[f.original_id]]
    missed = sorted(set(later) - set(hits))
    receipts = len(records)
    print(f"\n{len(by_source)} distinct receipts, {receipts} library entries from {len(done_kinds)} batches")
    print(f"recall: {len(hits)}/{len(later)} = {len(hits) / max(1, len(later)):.3f} (goal 1.00)")
    print(f"false pairs: {len(false)} (goal 0)")
    print(f"flags by reason: {dict(Counter(f.reason for f in flags))}")
    for rid in missed[:20]:
        print(f"  missed: {records[rid].source_path} ({source_of[rid]})")
    for f in false[:20]:
        print(f"  false: {f.receipt_path} ~ {f.original_path}: {f.reason} {f.detail}")
    print(f"cost per receipt: library {1000 * TimedSink.seconds / max(1, receipts):.0f} ms "
          f"(image read, crop, hashes, thumbnail, fields, duplicate checks); "
          f"OCR and batch {ocr_seconds / max(1, receipts):.1f} s")  # fmt: skip
    return 0 if not missed and not false else 1


if __name__ == "__main__":
    raise SystemExit(main())
