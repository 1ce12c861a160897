"""The real pipeline on the real embedded Triton server with the real models."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import tritonclient.grpc as grpcclient
from PIL import Image

from scanner_app.contract import DETECTION_MODEL, RECOGNITION_MODEL
from scanner_app.core.client.triton import OcrClient
from scanner_app.core.errors import InvalidImage
from scanner_app.samples.documents import (
    distinct_receipts,
    encode,
    render_blank,
    render_dense_page,
    render_invoice,
    render_text_lines,
)
from scanner_app.server.embedded import EmbeddedServer


@pytest.fixture(scope="module")
def client(triton: EmbeddedServer) -> OcrClient:
    with OcrClient(triton.grpc_url, timeout_s=300) as ocr:
        ocr.connect()
        yield ocr


def _norm(text: str) -> str:
    return " ".join(text.split())


def test_invoice_lines_read_back_exactly(client: OcrClient) -> None:
    doc = render_invoice(seed=3)
    page = client.recognize(encode(doc.image, "PNG"), "invoice.png")
    read = {_norm(line.text) for line in page.lines}
    exact = [line.text for line in doc.lines if _norm(line.text) in read]
    missed = [line.text for line in doc.lines if _norm(line.text) not in read]
    assert len(exact) >= 0.95 * len(doc.lines), f"missed: {missed}"
    assert (page.width, page.height) == doc.image.size


def test_boxes_are_in_original_pixels(client: OcrClient) -> None:
    doc = render_invoice(seed=4)
    page = client.recognize(encode(doc.image, "JPEG"), "invoice.jpg")

    def centre(box: tuple[tuple[float, float], ...]) -> tuple[float, float]:
        xs, ys = [x for x, _ in box], [y for _, y in box]
        return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2

    placed = 0
    for truth in doc.lines:
        x0, y0, x1, y1 = truth.box
        centres = [centre(line.box) for line in page.lines if _norm(line.text) == _norm(truth.text)]
        placed += any(x0 - 5 <= cx <= x1 + 5 and y0 - 5 <= cy <= y1 + 5 for cx, cy in centres)
    assert placed >= 0.9 * len(doc.lines)


def test_blank_image_has_no_lines(client: OcrClient) -> None:
    page = client.recognize(encode(render_blank(1000, 700), "PNG"), "blank.png")
    assert page.lines == ()
    assert (page.width, page.height) == (1000, 700)


def test_dense_page_is_not_cut_by_batch_size(client: OcrClient) -> None:
    doc = render_dense_page(n_lines=250)
    page = client.recognize(encode(doc.image, "PNG"), "dense.png")
    read = {_norm(line.text) for line in page.lines}
    found = sum(_norm(line.text) in read for line in doc.lines)
    assert len(page.lines) >= 240
    assert found >= 240


@pytest.mark.parametrize(
    ("payload", "cause"),
    [
        (b"", "empty"),
        (b"this is a text file, not an image\n" * 20, "not a recognised image"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "not a recognised image"),
        ("truncated-jpeg", "corrupt or truncated"),
    ],
)
def test_bad_bytes_are_invalid_argument_and_server_stays_healthy(
    client: OcrClient, triton: EmbeddedServer, payload: bytes | str, cause: str
) -> None:
    if payload == "truncated-jpeg":
        whole = encode(render_invoice(seed=1).image, "JPEG")
        payload = whole[: len(whole) // 2]
    with pytest.raises(InvalidImage, match=cause):
        client.recognize(payload, "bad")
    assert triton.is_running()
    good = client.recognize(encode(_healthy_page(), "PNG"), "good.png")
    assert any("HEALTHY" in line.text for line in good.lines)


def _healthy_page() -> Image.Image:
    """A tiny page that reads back quickly."""
    return render_text_lines(["SERVER HEALTHY 2024"]).image


def _statistics(triton: EmbeddedServer) -> dict[str, tuple[int, int]]:
    with grpcclient.InferenceServerClient(triton.grpc_url) as stats_client:
        stats = stats_client.get_inference_statistics(as_json=True, client_timeout=30)["model_stats"]
    return {s["name"]: (int(s.get("inference_count", 0)), int(s.get("execution_count", 0))) for s in stats}


def test_concurrent_clients_get_their_own_text_and_recognition_batches(
    triton: EmbeddedServer, capsys: pytest.CaptureFixture[str]
) -> None:
    receipts = distinct_receipts(16, seed=11)
    payloads = [encode(doc.image, "PNG") for doc in receipts]
    with OcrClient(triton.grpc_url, timeout_s=600) as single:
        golden = [single.recognize(p, f"r{i}").text for i, p in enumerate(payloads)]
    before = _statistics(triton)

    def worker(index: int) -> list[str]:
        with OcrClient(triton.grpc_url, timeout_s=600) as own:
            return [own.recognize(payloads[(index + k) % 16], "").text for k in range(2)]

    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(worker, range(16)))
    for index, texts in enumerate(results):
        for k, text in enumerate(texts):
            expected = golden[(index + k) % 16]
            assert text == expected, f"client {index} request {k} got another image's text"
    for doc, text in zip(receipts, golden, strict=True):
        vendor = doc.lines[0].text
        assert vendor in text
    after = _statistics(triton)
    batch = {
        model: (after[model][0] - before[model][0]) / max(after[model][1] - before[model][1], 1)
        for model in (DETECTION_MODEL, RECOGNITION_MODEL)
    }
    with capsys.disabled():
        print(f"\naverage executed batch size under 16 clients: {batch}")
    assert batch[RECOGNITION_MODEL] > 1.0
