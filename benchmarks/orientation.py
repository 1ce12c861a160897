"""Orientation: SROIE receipts turned 90/180/270 degrees in pixels read as well as upright.

One command, ratios in one run, on one real embedded server (the repository as shipped):

1. upright, on against off, in interleaved rounds: each round sends the same `concurrency` upright
   receipts twice, once as shipped and once with the request parameters "orientation" and
   "documents" = "off" (the pipeline as it was before issue 11), the order alternating from round
   to round (off-on, on-off, ...). Every receipt is read both ways, so the rounds give both the
   accuracy of on against off and one throughput ratio each; the ratios' median and spread are
   the throughput figure (one pair on a shared, busy machine is noise);
2. the receipts turned 90, 180 and 270 degrees (PIL, counter-clockwise, no EXIF tag), orientation on.

Every image is sent as PNG made from the same decoded pixels, so only the turn differs. Boxes of
turned pages are mapped back to the upright frame and scored with benchmarks/sroie_score.py's
rule, per set and over all. Goals (issue 11): each angle within 0.01 F1 and 0.005 CER of upright;
upright with orientation on loses at most 5 % throughput (median round ratio >= 0.95) and nothing
in accuracy against off. Each finished part is printed at once, so a cut-short run still says
what it measured.

Usage: python benchmarks/orientation.py [--sets sroie,sroie-dev] [--limit N] [--concurrency 8]
       [--repeat R] [--max-minutes M] [--url HOST:PORT]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import sroie_score
import tritonclient.grpc as grpcclient
from PIL import Image

from scanner_app.contract import IMAGE_INPUT, PIPELINE_MODEL
from scanner_app.core.client.triton import page_from_response
from scanner_app.core.results import PageResult
from scanner_app.ocr.orientation import boxes_to_sent
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.model_fetch import default_repository

ANGLES = (90, 180, 270)
OFF = {"orientation": "off", "documents": "off"}  # request parameters: the pipeline before issue 11


@dataclass(frozen=True)
class Receipt:
    """One receipt: its set, where its ground truth is, and its upright pixels."""

    name: str
    data: Path
    image: Image.Image


@dataclass(frozen=True)
class Run:
    """What one batch of requests gave."""

    pages: list[PageResult]
    seconds: float

    @property
    def images_per_s(self) -> float:
        return len(self.pages) / self.seconds if self.seconds else 0.0


@dataclass(frozen=True)
class Round:
    """One interleaved round: the same upright receipts read off and on."""

    indices: list[int]
    off: Run
    on: Run
    off_first: bool

    @property
    def ratio(self) -> float:
        """Throughput on / off in this round."""
        return self.off.seconds / self.on.seconds if self.on.seconds else 0.0


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


class Sender:
    """Pages to the pipeline over gRPC, with or without request parameters (one connection)."""

    def __init__(self, url: str, timeout_s: float) -> None:
        self._client = grpcclient.InferenceServerClient(url)
        self._timeout_us = int(timeout_s * 1_000_000)

    def close(self) -> None:
        self._client.close()

    def page(self, encoded: bytes, name: str, parameters: Mapping[str, str] | None) -> PageResult:
        request = grpcclient.InferInput(IMAGE_INPUT, [1, 1], "BYTES")
        request.set_data_from_numpy(np.array([[encoded]], dtype=np.object_))
        started = time.perf_counter()
        response = self._client.infer(
            PIPELINE_MODEL, [request], timeout=self._timeout_us, parameters=dict(parameters or {}) or None
        )
        return page_from_response(response, name, (time.perf_counter() - started) * 1000.0)

    def run(self, payloads: Sequence[bytes], concurrency: int, parameters: Mapping[str, str] | None) -> Run:
        start = time.perf_counter()
        with ThreadPoolExecutor(concurrency) as pool:
            pages = list(pool.map(lambda p: self.page(p[1], str(p[0]), parameters), enumerate(payloads)))
        return Run(pages, time.perf_counter() - start)


def rounds_of(count: int, size: int, repeat: int) -> list[list[int]]:
    """Receipt indices in rounds of `size` (the last filled from the start), over `repeat` passes."""
    order = list(range(count)) * repeat
    rounds = [order[i : i + size] for i in range(0, len(order), size)]
    if rounds and len(rounds[-1]) < size:
        rounds[-1] += order[: size - len(rounds[-1])]
    return rounds


def upright_lines(page: PageResult, angle: int, upright_size: tuple[int, int]) -> list[sroie_score.Line]:
    """The page's lines with boxes in the upright receipt's pixels (it was turned by `angle` CCW)."""
    boxes = [np.array(line.box, dtype=np.float32) for line in page.lines]
    if angle:
        boxes = boxes_to_sent(boxes, (360 - angle) % 360, upright_size)
    return [
        sroie_score.Line(tuple((float(x), float(y)) for x, y in box), line.text)
        for box, line in zip(boxes, page.lines, strict=True)
    ]


def score(
    receipts: Sequence[Receipt], pages: Sequence[PageResult], angle: int
) -> dict[str, sroie_score.Counts]:
    """Counts per set and over "all"."""
    totals: dict[str, sroie_score.Counts] = {}
    for receipt, page in zip(receipts, pages, strict=True):
        gt = sroie_score.load_gt(receipt.data / "box" / f"{receipt.name}.csv")
        size = (receipt.image.height, receipt.image.width)
        counts = sroie_score.score_image(gt, upright_lines(page, angle, size))
        for key in (receipt.data.name, "all"):
            totals[key] = totals.get(key, sroie_score.Counts()) + counts
    return totals


class Table:
    """Rows printed as they are measured, scored against the upright-on row."""

    def __init__(self, keys: Sequence[str]) -> None:
        self.keys = keys
        self.base: dict[str, sroie_score.Counts] = {}
        self.turned_ok = True
        print(
            f"\n{'pass':<16}{'set':<11}{'found':>9}{'F1':>8}{'CER':>8}{'exact':>8}{'dF1':>8}{'dCER':>8}"
            f"{'img/s':>8}",
            flush=True,
        )

    def row(
        self,
        label: str,
        angle: int,
        pages: Sequence[PageResult],
        counts: Mapping[str, sroie_score.Counts],
        rate: float,
    ) -> None:
        for key in self.keys:
            c, b = counts[key], self.base.get(key, counts[key])
            d_f1, d_cer = c.f1 - b.f1, c.cer - b.cer
            if angle:
                self.turned_ok &= d_f1 >= -0.01 and d_cer <= 0.005
            found = (
                sum(p.orientation == angle for p in pages) if key == "all" or len(self.keys) == 1 else None
            )
            found_text = f"{found:>4}/{len(pages):<4}" if found is not None else " " * 9
            rate_text = f"{rate:>8.3f}" if found is not None else ""
            print(
                f"{label:<16}{key:<11}{found_text}{c.f1:>8.3f}{c.cer:>8.4f}{c.exact_rate:>8.3f}"
                f"{d_f1:>+8.3f}{d_cer:>+8.4f}{rate_text}",
                flush=True,
            )


def serve(repository: Path) -> EmbeddedServer:
    return EmbeddedServer(repository, 0, 0, 0, ready_timeout=300)


@dataclass
class Measured:
    """Every reading so far, by receipt index: upright off and on, and each turn (orientation on)."""

    rounds: list[Round]
    off: dict[int, PageResult]
    on: dict[int, PageResult]
    turned: dict[int, dict[int, PageResult]]
    turned_seconds: dict[int, float]

    def complete(self) -> list[int]:
        """Receipts read every way (a run cut short by --max-minutes reports on these)."""
        return sorted(i for i in self.on if i in self.off and all(i in self.turned[a] for a in ANGLES))


def measure(
    sender: Sender,
    receipts: Sequence[Receipt],
    rounds: Sequence[list[int]],
    concurrency: int,
    deadline: float,
) -> Measured:
    """Interleaved on/off rounds of upright receipts, each followed by the same receipts turned."""
    upright = [png(r.image) for r in receipts]
    got = Measured([], {}, {}, {a: {} for a in ANGLES}, dict.fromkeys(ANGLES, 0.0))
    print(
        f"\n{'round':<7}{'first':<7}{'off s':>8}{'on s':>8}{'on/off':>8}"
        + "".join(f"{f'{a} s':>8}" for a in ANGLES)
        + f"{'receipts':>10}",
        flush=True,
    )
    for k, indices in enumerate(rounds):
        if time.monotonic() > deadline:
            print(f"--max-minutes reached: {k} of {len(rounds)} rounds run", flush=True)
            break
        batch = [upright[i] for i in indices]
        off_first = k % 2 == 0
        first = sender.run(batch, concurrency, OFF if off_first else None)
        second = sender.run(batch, concurrency, None if off_first else OFF)
        off, on = (first, second) if off_first else (second, first)
        got.rounds.append(Round(list(indices), off, on, off_first))
        for i, a, b in zip(indices, off.pages, on.pages, strict=True):
            got.off.setdefault(i, a)
            got.on.setdefault(i, b)
        fresh = [i for i in dict.fromkeys(indices) if i not in got.turned[ANGLES[0]]]
        times = []
        for angle in ANGLES:
            turned = [png(receipts[i].image.rotate(angle, expand=True)) for i in fresh]
            result = sender.run(turned, concurrency, None) if turned else Run([], 0.0)
            got.turned[angle].update(zip(fresh, result.pages, strict=True))
            got.turned_seconds[angle] += result.seconds
            times.append(result.seconds)
        print(
            f"{k + 1:<7}{'off' if off_first else 'on':<7}{off.seconds:>8.1f}{on.seconds:>8.1f}"
            f"{got.rounds[-1].ratio:>8.3f}"
            + "".join(f"{t:>8.1f}" for t in times)
            + f"{len(got.complete()):>10}",
            flush=True,
        )
    return got


def report(got: Measured, receipts: Sequence[Receipt], sets: Sequence[str], concurrency: int) -> bool:
    """Print the throughput rounds and the accuracy table; True when every goal is met."""
    if not got.rounds:
        print("no round finished: nothing to report")
        return False
    ratios = [r.ratio for r in got.rounds]
    median = statistics.median(ratios)
    quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [median, median, median]
    sent = sum(len(r.indices) for r in got.rounds)
    rate_off = sent / sum(r.off.seconds for r in got.rounds)
    rate_on = sent / sum(r.on.seconds for r in got.rounds)
    print(
        f"\nupright throughput on / off at concurrency {concurrency}, {len(ratios)} interleaved rounds: "
        f"median {median:.3f} (quartiles {quartiles[0]:.3f}-{quartiles[2]:.3f}, min {min(ratios):.3f}, "
        f"max {max(ratios):.3f}); pooled {rate_on:.3f} / {rate_off:.3f} img/s = {rate_on / rate_off:.3f} "
        "(goal: median >= 0.95)"
    )
    print("per-round on/off:", " ".join(f"{r:.3f}" for r in ratios))

    done = got.complete()
    chosen = [receipts[i] for i in done]
    counted = {s: sum(r.data.name == s for r in chosen) for s in sets}
    print(
        f"\naccuracy over {len(done)}/{len(receipts)} receipts read every way ("
        + ", ".join(f"{s} {n}" for s, n in counted.items())
        + ")"
    )
    keys = [*sets, "all"] if len(sets) > 1 else list(sets)
    keys = [k for k in keys if k == "all" or counted.get(k)]
    table = Table(keys)
    off_list, on_list = [got.off[i] for i in done], [got.on[i] for i in done]
    base_off, base_on = score(chosen, off_list, 0), score(chosen, on_list, 0)
    table.base = base_on
    table.row("upright, off", 0, off_list, base_off, rate_off)
    table.row("upright, on", 0, on_list, base_on, rate_on)
    for angle in ANGLES:
        pages = [got.turned[angle][i] for i in done]
        seconds = got.turned_seconds[angle]
        rate = len(got.turned[angle]) / seconds if seconds else 0.0
        table.row(f"turned {angle}", angle, pages, score(chosen, pages, angle), rate)

    same = all(base_on[k].f1 >= base_off[k].f1 and base_on[k].cer <= base_off[k].cer for k in keys)
    changed = sum(a.text != b.text for a, b in zip(on_list, off_list, strict=True))
    print()
    for key in keys:
        print(
            f"upright accuracy {key}, on / off: F1 {base_on[key].f1:.4f} / {base_off[key].f1:.4f}, "
            f"CER {base_on[key].cer:.4f} / {base_off[key].cer:.4f}"
        )
    print(
        f"upright pages read differently on and off: {changed}/{len(done)}",
        "(nothing lost)" if same else "(LOST)",
    )
    print("turned pages within 0.01 F1 and 0.005 CER of upright:", "yes" if table.turned_ok else "NO")
    return table.turned_ok and same and median >= 0.95 and len(done) == len(receipts)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=sroie_score.default_data().parent)
    parser.add_argument("--sets", default="sroie,sroie-dev")
    parser.add_argument("--limit", type=int, default=None, help="receipts per set (default: all)")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=1, help="passes of on/off rounds over the upright set")
    parser.add_argument(
        "--max-minutes", type=float, default=None, help="start no round after this; report what finished"
    )
    parser.add_argument("--url", default=None, help="a running server's gRPC host:port (default: start one)")
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"no data at {args.data} (../shared/data): nothing to measure", file=sys.stderr)
        return 2
    sets = args.sets.split(",")
    receipts = load_receipts(args.data, sets, args.limit)
    rounds = rounds_of(len(receipts), args.concurrency, max(1, args.repeat))
    deadline = time.monotonic() + (args.max_minutes * 60 if args.max_minutes else float("inf"))
    print(
        f"{len(receipts)} receipts ({args.sets}), concurrency {args.concurrency}, "
        f"{len(rounds)} on/off rounds of {args.concurrency}, each followed by its receipts turned",
        flush=True,
    )
    with contextlib.ExitStack() as stack:
        url = args.url or stack.enter_context(serve(default_repository())).grpc_url
        sender = Sender(url, timeout_s=900)
        stack.callback(sender.close)
        warm = [png(r.image) for r in receipts[: args.concurrency]]
        sender.run(warm, args.concurrency, None)  # warm-up, both paths
        sender.run(warm, args.concurrency, OFF)
        got = measure(sender, receipts, rounds, args.concurrency, deadline)
    return 0 if report(got, receipts, sets, args.concurrency) else 1


if __name__ == "__main__":
    sys.exit(main())
