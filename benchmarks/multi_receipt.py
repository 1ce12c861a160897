"""Several receipts on one glass: each found, and its fields read as well as when scanned alone.

Pages generated from the real receipts of ../shared/data (both sets): 2 or 3 receipts side by
side on a grey A4 bed at 300 DPI, each turned up to 4 degrees (scanner_app.samples.glass). Each
receipt is also sent alone at the same scale (the "alone" baseline, and the one-receipt pages
that must come back as one document). One embedded server, concurrency 1 (fields do not depend
on it).

Measured: receipts found (outline IoU >= 0.8 with where it was placed), one document on every
one-receipt page, and total / date / vendor (SROIE company) read on each receipt on the glass
against the same receipt alone (benchmarks/fields.py's normalisation).

Usage: python benchmarks/multi_receipt.py [--sets sroie,sroie-dev] [--limit N] [--bed 200]
       [--url HOST:PORT] [--max-minutes M] [--pages 10,22]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import sroie_score
from fields import same
from PIL import Image

from scanner_app.core.client.triton import OcrClient
from scanner_app.core.fields import extract_fields
from scanner_app.core.results import PageResult
from scanner_app.samples.glass import lay_on_glass
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.model_fetch import default_repository

FIELDS = {"total": "total", "date": "date", "company": "vendor"}
IOU_GOAL = 0.8


def iou(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]]) -> float:
    pa, pb = np.array(a, dtype=np.float32), np.array(b, dtype=np.float32)
    inter, _ = cv2.intersectConvexConvex(pa, pb)
    union = cv2.contourArea(pa) + cv2.contourArea(pb) - inter
    return float(inter / union) if union > 0 else 0.0


def jpeg(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="JPEG", quality=92)
    return buf.getvalue()


def field_hits(page: PageResult, key: dict[str, str]) -> dict[str, bool]:
    fields = extract_fields(page)
    return {f: same(f, key.get(f, ""), fields.value(ours)) for f, ours in FIELDS.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=sroie_score.default_data().parent)
    parser.add_argument("--sets", default="sroie,sroie-dev")
    parser.add_argument("--limit", type=int, default=None, help="receipts per set (default: all)")
    parser.add_argument("--bed", type=int, default=200, help="grey level of the bed (0-255)")
    parser.add_argument("--url", default=None, help="a running server's gRPC host:port (default: start one)")
    parser.add_argument(
        "--max-minutes", type=float, default=None, help="start no page after this; report what finished"
    )
    parser.add_argument(
        "--pages", default=None, help="run only these glass pages (1-based, as the page log numbers them)"
    )
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"no data at {args.data} (../shared/data): nothing to measure", file=sys.stderr)
        return 2
    receipts = []  # (name, data dir, image)
    for name in args.sets.split(","):
        for path in sorted((args.data / name / "img").glob("*.jpg"))[: args.limit or None]:
            with Image.open(path) as image:
                receipts.append((path.stem, args.data / name, image.convert("RGB")))
    groups, i = [], 0
    while i < len(receipts):  # 2, 3, 2, 3, ... receipts per page
        size = 2 + len(groups) % 2
        groups.append(receipts[i : i + size])
        i += size
    if len(groups[-1]) < 2:
        groups[-2:] = [groups[-2] + groups[-1]]
    chosen = range(len(groups))  # the page numbers stay those of the full run (seed = page index)
    if args.pages:
        chosen = sorted({int(p) - 1 for p in args.pages.split(",")} & set(range(len(groups))))

    bed = (args.bed,) * 3
    found = placed = one_doc = alone_pages = 0
    hits = {"glass": dict.fromkeys(FIELDS, 0), "alone": dict.fromkeys(FIELDS, 0)}
    lost: list[str] = []  # "page 22 receipt 142: total" where alone read it and the glass did not
    worst_iou = 1.0
    deadline = time.monotonic() + (args.max_minutes * 60 if args.max_minutes else float("inf"))
    pages_done = 0
    with contextlib.ExitStack() as stack:
        if args.url:
            url = args.url
        else:
            url = stack.enter_context(
                EmbeddedServer(default_repository(), 0, 0, 0, ready_timeout=300)
            ).grpc_url
        client = stack.enter_context(OcrClient(url, timeout_s=900))
        client.connect()
        for g in chosen:
            group = groups[g]
            if time.monotonic() > deadline:
                print(f"--max-minutes reached: {pages_done} of {len(chosen)} glass pages run", flush=True)
                break
            images = [image for _, _, image in group]
            glass = lay_on_glass(images, bed=bed, seed=g)
            page = client.recognize(jpeg(glass.image), f"glass-{g}.jpg")
            docs = page.documents()
            for k, (name, data, image) in enumerate(group):
                placed += 1
                key = json.loads((data / "key" / f"{name}.json").read_text(encoding="utf-8"))
                best = max(range(len(docs)), key=lambda d: iou(glass.outlines[k], docs[d].box))
                overlap = iou(glass.outlines[k], docs[best].box)
                worst_iou = min(worst_iou, overlap)
                found += overlap >= IOU_GOAL
                on_glass = field_hits(page.document_page(best), key)
                for f, ok in on_glass.items():
                    hits["glass"][f] += ok
                scale = glass.scales[k]
                alone_image = image.resize((round(image.width * scale), round(image.height * scale)))
                alone = client.recognize(jpeg(alone_image), f"{name}.jpg")
                alone_pages += 1
                one_doc += len(alone.documents()) == 1
                for f, ok in field_hits(alone, key).items():
                    hits["alone"][f] += ok
                    if ok and not on_glass[f]:
                        lost.append(f"page {g + 1} receipt {name}: {f}")
            pages_done += 1
            print(
                f"page {g + 1}/{len(groups)}: {len(group)} placed, {len(docs)} found; so far found "
                f"{found}/{placed}, worst IoU {worst_iou:.3f}, one document {one_doc}/{alone_pages}, "
                + ", ".join(f"{f} {hits['glass'][f]}/{hits['alone'][f]}" for f in FIELDS),
                flush=True,
            )

    print(
        f"\n{pages_done} of {len(chosen)} glass pages (grey {args.bed} bed, A4 300 DPI, tilt <= 4 deg), "
        f"{placed} receipts"
    )
    print(f"receipts found (IoU >= {IOU_GOAL}): {found}/{placed}; worst IoU {worst_iou:.3f}")
    print(f"one-receipt pages read as one document: {one_doc}/{alone_pages}")
    print(f"{'field':<9}{'on glass':>10}{'alone':>8}{'ratio':>8}")
    ok = found == placed and one_doc == alone_pages and pages_done == len(chosen)
    for f in FIELDS:
        on_glass, by_itself = hits["glass"][f], hits["alone"][f]
        ratio = on_glass / by_itself if by_itself else 1.0
        ok &= on_glass >= by_itself
        print(f"{f:<9}{on_glass:>10}{by_itself:>8}{ratio:>8.3f}")
    print(f"read alone but not on the glass: {len(lost)}" + "".join(f"\n  {item}" for item in lost))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
