"""Issue 17's figures against the embedded server: memory of hostile images, deadlines.

    python benchmarks/hardening.py
    python benchmarks/hardening.py --only oversize [--server-arg=--grpc-infer-allocation-pool-size=8]

1. Four 19000x4000 PNGs (a few hundred KB each) at once: peak and kept RSS of the server and its
   stubs (a sum of RSS: shared-memory pages count in each process that maps them).
2. Three rejected 200 MB requests in a row: what each leaves (sum of RSS, sum of PSS: shared pages
   counted once, our /dev/shm regions, and the sum of RSS less /dev/shm: the processes' own heaps).
3. 100 requests with a 1 ms deadline, then a normal one: how many of the 100 were still run to the
   end (ocr_postprocess successes) and the normal request's latency behind them against alone; with
   the deadline sent as the request's timeout, and without.
"""

from __future__ import annotations

import argparse
import io
import sys
import threading
import time
from pathlib import Path

import numpy as np
import tritonclient.grpc as grpcclient
from PIL import Image, ImageDraw
from tritonclient.utils import InferenceServerException

from scanner_app import contract
from scanner_app.server.embedded import EmbeddedServer
from scanner_app.server.model_fetch import default_repository
from scanner_app.server.supervise import Supervisor, stubs_of

sys.path.insert(0, str(Path(__file__).parent))
from proc_memory import own_mb, pss_mb, regions_mb, rss_mb
from soak import RECEIPTS


def total_rss(server: EmbeddedServer) -> float:
    pids = [server.pid or 0, *(s.info.pid for s in stubs_of(server.pid or 0))]
    return sum(rss_mb(pid) or 0.0 for pid in pids)


def footprint(server: EmbeddedServer) -> dict[str, tuple[float, float, float]]:
    """process -> (RSS, PSS, RSS less /dev/shm) in MB, and "/dev/shm" -> MB of our regions (thrice)."""
    procs = {"tritonserver": server.pid or 0, **{s.instance: s.info.pid for s in stubs_of(server.pid or 0)}}
    out = {name: (rss_mb(pid) or 0.0, pss_mb(pid) or 0.0, own_mb(pid) or 0.0) for name, pid in procs.items()}
    size = regions_mb(list(procs.values()))
    out["/dev/shm"] = (size, size, size)
    return out


def oversize(server: EmbeddedServer, client: grpcclient.InferenceServerClient, count: int = 3) -> None:
    """Rejected 200 MB requests, one after another: what each leaves behind, and where."""
    big, first = image_input(bytes(200 * 1024 * 1024)), footprint(server)
    for n in range(1, count + 1):
        before = footprint(server)
        try:
            client.infer(contract.PIPELINE_MODEL, [big], client_timeout=900)
            print("200 MB request: ACCEPTED (should not be)")
        except InferenceServerException as exc:
            print(f"200 MB request {n}: {exc.status()} {exc.message()[-80:]}")
        time.sleep(2.0)  # let freed memory go back
        after = footprint(server)
        _delta(f"  left by request {n}", before, after)
    _delta(f"  all {count}", first, footprint(server))
    # What the app's supervisor then does: reload each model whose region a refused request grew.
    for event in Supervisor(server).recycle_oversized():
        print(f"  supervisor: {event.kind}: {event.message}")
    time.sleep(2.0)
    _delta(f"  all {count}, then the supervisor's recycling", first, footprint(server))


Footprint = dict[str, tuple[float, float, float]]


def _delta(label: str, before: Footprint, after: Footprint) -> None:
    procs = [n for n in after if n in before and n != "/dev/shm"]
    rss, pss, own = (sum(after[n][i] - before[n][i] for n in procs) for i in range(3))
    grown = ", ".join(
        f"{n} +{after[n][0] - before[n][0]:.0f}" for n in procs if after[n][0] - before[n][0] > 5
    )
    regions = after["/dev/shm"][0] - before["/dev/shm"][0]
    print(f"{label}: sum RSS +{rss:.0f} MB, sum PSS +{pss:.0f} MB, /dev/shm regions +{regions:.0f} MB, "
          f"sum RSS less /dev/shm +{own:.0f} MB (RSS: {grown or 'none'})")  # fmt: skip


def image_input(data: bytes) -> grpcclient.InferInput:
    tensor = grpcclient.InferInput(contract.IMAGE_INPUT, [1, 1], "BYTES")
    tensor.set_data_from_numpy(np.array([[data]], dtype=np.object_))
    return tensor


def tall_png() -> bytes:
    image = Image.new("RGB", (19000, 4000), "white")
    ImageDraw.Draw(image).text((100, 100), "TOTAL 12.50", fill="black", font_size=80)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def memory(server: EmbeddedServer, client: grpcclient.InferenceServerClient) -> None:
    data = tall_png()
    base = total_rss(server)
    peak, stop = [base], threading.Event()

    def sampler() -> None:
        while not stop.wait(0.2):
            peak[0] = max(peak[0], total_rss(server))

    watcher = threading.Thread(target=sampler, daemon=True)
    watcher.start()

    def one() -> None:
        try:
            client.infer(contract.PIPELINE_MODEL, [image_input(data)], client_timeout=900)
        except InferenceServerException as exc:
            print(f"  tall PNG refused: {exc.message()}")

    senders = [threading.Thread(target=one) for _ in range(4)]
    for thread in senders:
        thread.start()
    for thread in senders:
        thread.join()
    stop.set()
    watcher.join()
    print(f"4 x {len(data)} B PNGs of 19000x4000 at once: peak +{peak[0] - base:.0f} MB, "
          f"kept +{total_rss(server) - base:.0f} MB (server + stubs, from {base:.0f} MB)")  # fmt: skip


def deadlines(client: grpcclient.InferenceServerClient, receipt: bytes) -> None:
    def executions() -> int:  # requests run to the end of the pipeline's work
        stats = client.get_inference_statistics(contract.POSTPROCESS_MODEL)
        return sum(m.inference_stats.success.count for m in stats.model_stats)

    def timed() -> float:
        started = time.perf_counter()
        client.infer(contract.PIPELINE_MODEL, [image_input(receipt)], client_timeout=900)
        return time.perf_counter() - started

    alone = timed()
    for label, options in (("deadline + request timeout", {"timeout": 1000}), ("deadline only", {})):
        before = executions()
        answered = threading.Barrier(101)  # the 100 answers and this thread

        def done(result: object, error: object, barrier: threading.Barrier = answered) -> None:
            threading.Thread(target=barrier.wait, daemon=True).start()

        for _ in range(100):
            client.async_infer(contract.PIPELINE_MODEL, [image_input(receipt)], done, client_timeout=0.001,
                               **options)  # fmt: skip
        answered.wait(600)
        behind = timed()
        ran = executions() - before - 1
        print(f"{label}: {ran}/100 abandoned requests were run to the end; "
              f"the normal request behind them {behind:.1f} s (alone {alone:.1f} s)")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", choices=("memory", "oversize", "deadlines"), help="run one part")
    parser.add_argument("--server-arg", action="append", default=[], help="extra tritonserver argument")
    args = parser.parse_args()
    receipt = (RECEIPTS / "000.jpg").read_bytes()
    with (
        EmbeddedServer(
            default_repository(), 0, 0, 0, ready_timeout=600, extra_args=args.server_arg
        ) as server,
        grpcclient.InferenceServerClient(server.grpc_url) as client,
    ):
        for _ in range(2):  # warm-up: every step's region has seen a real receipt
            client.infer(contract.PIPELINE_MODEL, [image_input(receipt)], client_timeout=900)
        if args.only in (None, "memory"):
            memory(server, client)
        if args.only in (None, "oversize"):
            oversize(server, client)
        if args.only in (None, "deadlines"):
            deadlines(client, receipt)
    return 0


if __name__ == "__main__":
    sys.exit(main())
