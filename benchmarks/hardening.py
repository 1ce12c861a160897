"""Issue 17's figures against the embedded server: memory of hostile images, deadlines.

    python benchmarks/hardening.py

1. Four 19000x4000 PNGs (a few hundred KB each) at once: peak and kept RSS of the server and its
   stubs (a sum of RSS: shared-memory pages count in each process that maps them).
2. One rejected 200 MB request: RSS kept.
3. 100 requests with a 1 ms deadline, then a normal one: how many of the 100 were still run to the
   end (ocr_postprocess successes) and the normal request's latency behind them against alone; with
   the deadline sent as the request's timeout, and without.
"""

from __future__ import annotations

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
from scanner_app.server.supervise import stubs_of

sys.path.insert(0, str(Path(__file__).parent))
from soak import RECEIPTS, rss_mb


def total_rss(server: EmbeddedServer) -> float:
    pids = [server.pid or 0, *(s.info.pid for s in stubs_of(server.pid or 0))]
    return sum(rss_mb(pid) or 0.0 for pid in pids)


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
    base = total_rss(server)
    try:
        client.infer(contract.PIPELINE_MODEL, [image_input(bytes(200 * 1024 * 1024))], client_timeout=900)
    except InferenceServerException as exc:
        print(f"200 MB request: {exc.status()} {exc.message()[-80:]}")
    print(f"rejected 200 MB request: kept +{total_rss(server) - base:.0f} MB")


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
    receipt = (RECEIPTS / "000.jpg").read_bytes()
    with (
        EmbeddedServer(default_repository(), 0, 0, 0, ready_timeout=600) as server,
        grpcclient.InferenceServerClient(server.grpc_url) as client,
    ):
        client.infer(contract.PIPELINE_MODEL, [image_input(receipt)], client_timeout=900)  # warm-up
        memory(server, client)
        deadlines(client, receipt)
    return 0


if __name__ == "__main__":
    sys.exit(main())
