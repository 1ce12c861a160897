"""Orientation: SROIE receipts turned 90/180/270 degrees in pixels read as well as upright.

One command, ratios in one run (a real embedded server each time, one at a time):

1. off (ocr_postprocess parameters "orientation" and "documents" = "off", an overlay repository:
   the pipeline as it was before issue 11): the upright receipts at concurrency N, the "before"
   throughput and accuracy;
2. on (the repository as shipped): the same upright receipts at concurrency N, then
   the receipts turned 90, 180 and 270 degrees (PIL, counter-clockwise, no EXIF tag).

Every image is sent as PNG made from the same decoded pixels, so only the turn differs. Boxes of
turned pages are mapped back to the upright frame and scored with benchmarks/sroie_score.py's
rule. Goals (issue 11): each angle within 0.01 F1 and 0.005 CER of upright; upright with
orientation on loses at most 5 % throughput and nothing in accuracy against off.

Usage: python benchmarks/orientation.py [--sets sroie,sroie-dev] [--limit N] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import io
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import sroie_score
from PIL import Image

from scanner_app.contract import POSTPROCESS_MODEL
from scanner_app.core.client import OcrClient
from scanner_app.core.results import PageResult
from scanner_app.ocr.orientation import boxes_to_sent
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.model_fetch import default_repository

ANGLES = (90, 180, 270)


@dataclass(frozen=True)
class Receipt:
    """One receipt: where its ground truth is, and its upright pixels."""

    name: str
    data: Path
    image: Image.Image


@dataclass(frozen=True)
class Run:
    """What one pass over the receipts gave."""

    pages: list[PageResult]
    seconds: float

    @property
    def images_per_s(self) -> float:
        return len(self.pages) / self.seconds if self.seconds else 0.0


def load_receipts(root: Path, sets: Sequence[str], limit: int | None) -> list[Receipt]:
    receipts = []
    for name in sets:
        data = root / name
        paths = sorted((data / "img").glob("*.jpg"))[: limit or None]
        for path in paths:
            with Image.open(path) as image:
                receipts.append(Receipt(path.stem, data, image.convert("RGB")))
    return receipts


def png(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def off_repository(repository: Path, into: Path) -> Path:
    """An overlay of the repository with ocr_postprocess's orientation and documents turned off."""
    into.mkdir(parents=True)
    for model in repository.iterdir():
        if not model.is_dir():
            (into / model.name).symlink_to(model)
            continue
        (into / model.name).mkdir()
        for entry in model.iterdir():
            if model.name == POSTPROCESS_MODEL and entry.name in ("config.pbtxt", "configs"):
                continue
            (into / model.name / entry.name).symlink_to(entry)
        if model.name == POSTPROCESS_MODEL:
            (into / model.name / "configs").mkdir()
            for config in (model / "config.pbtxt", model / "configs" / "local.pbtxt"):
                text = config.read_text(encoding="utf-8")
                for key in ("orientation", "documents"):
                    on = f'key: "{key}" value: {{ string_value: "on" }}'
                    if on not in text:
                        raise SystemExit(f"{config} has no {key} parameter to turn off")
                    text = text.replace(on, on.replace('"on"', '"off"'))
                (into / model.name / config.relative_to(model)).write_text(text, encoding="utf-8")
    return into


def run(client: OcrClient, payloads: Sequence[bytes], concurrency: int) -> Run:
    start = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        pages = list(pool.map(lambda p: client.recognize(p[1], str(p[0])), enumerate(payloads)))
    return Run(pages, time.perf_counter() - start)


def upright_lines(page: PageResult, angle: int, upright_size: tuple[int, int]) -> list[sroie_score.Line]:
    """The page's lines with boxes in the upright receipt's pixels (it was turned by `angle` CCW)."""
    boxes = [np.array(line.box, dtype=np.float32) for line in page.lines]
    if angle:
        boxes = boxes_to_sent(boxes, (360 - angle) % 360, upright_size)
    return [
        sroie_score.Line(tuple((float(x), float(y)) for x, y in box), line.text)
        for box, line in zip(boxes, page.lines, strict=True)
    ]


def score(receipts: Sequence[Receipt], pages: Sequence[PageResult], angle: int) -> sroie_score.Counts:
    total = sroie_score.Counts()
    for receipt, page in zip(receipts, pages, strict=True):
        gt = sroie_score.load_gt(receipt.data / "box" / f"{receipt.name}.csv")
        size = (receipt.image.height, receipt.image.width)
        total = total + sroie_score.score_image(gt, upright_lines(page, angle, size))
    return total


def serve(repository: Path, logs: Path, label: str) -> EmbeddedServer:
    return EmbeddedServer(repository, 0, 0, 0, log_path=logs / f"{label}.log", ready_timeout=300)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=sroie_score.default_data().parent)
    parser.add_argument("--sets", default="sroie,sroie-dev")
    parser.add_argument("--limit", type=int, default=None, help="receipts per set (default: all)")
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"no data at {args.data} (../shared/data): nothing to measure", file=sys.stderr)
        return 2
    receipts = load_receipts(args.data, args.sets.split(","), args.limit)
    upright = [png(r.image) for r in receipts]
    turned = {a: [png(r.image.rotate(a, expand=True)) for r in receipts] for a in ANGLES}
    print(f"{len(receipts)} receipts ({args.sets}), concurrency {args.concurrency}", flush=True)

    work = Path(tempfile.mkdtemp(prefix="orientation-bench-"))
    try:
        repository = default_repository()
        off_repo = off_repository(repository, (work / "off").resolve())
        with serve(off_repo, work, "off") as server, OcrClient(server.grpc_url, timeout_s=600) as client:
            client.connect()
            run(client, upright[: args.concurrency], args.concurrency)  # warm-up
            off = run(client, upright, args.concurrency)
        with serve(repository, work, "on") as server, OcrClient(server.grpc_url, timeout_s=600) as client:
            client.connect()
            run(client, upright[: args.concurrency], args.concurrency)  # warm-up
            on = run(client, upright, args.concurrency)
            turned_runs = {a: run(client, turned[a], args.concurrency) for a in ANGLES}
    finally:
        shutil.rmtree(work, ignore_errors=True)

    base_off, base_on = score(receipts, off.pages, 0), score(receipts, on.pages, 0)
    print(f"\n{'pass':<16}{'found':>9}{'F1':>8}{'CER':>8}{'exact':>8}{'dF1':>8}{'dCER':>8}{'img/s':>8}")
    rows = [("upright, off", 0, off, base_off), ("upright, on", 0, on, base_on)]
    rows += [(f"turned {a}, on", a, turned_runs[a], score(receipts, turned_runs[a].pages, a)) for a in ANGLES]
    ok = True
    for label, angle, result, counts in rows:
        found = sum(p.orientation == angle for p in result.pages)
        d_f1, d_cer = counts.f1 - base_on.f1, counts.cer - base_on.cer
        if angle:
            ok &= d_f1 >= -0.01 and d_cer <= 0.005
        print(
            f"{label:<16}{found:>4}/{len(result.pages):<4}{counts.f1:>8.3f}{counts.cer:>8.3f}"
            f"{counts.exact_rate:>8.3f}{d_f1:>+8.3f}{d_cer:>+8.3f}{result.images_per_s:>8.3f}"
        )
    ratio = on.images_per_s / off.images_per_s if off.images_per_s else 0.0
    same = base_on.f1 >= base_off.f1 and base_on.cer <= base_off.cer
    print(
        f"\nupright throughput, orientation on / off at concurrency {args.concurrency}: "
        f"{on.images_per_s:.3f} / {off.images_per_s:.3f} = {ratio:.3f} (goal >= 0.95)"
    )
    print(
        f"upright accuracy, on against off: F1 {base_on.f1:.4f} / {base_off.f1:.4f}, "
        f"CER {base_on.cer:.4f} / {base_off.cer:.4f} ({'nothing lost' if same else 'LOST'})"
    )
    print("turned pages within 0.01 F1 and 0.005 CER of upright:", "yes" if ok else "NO")
    return 0 if ok and same and ratio >= 0.95 else 1


if __name__ == "__main__":
    sys.exit(main())
