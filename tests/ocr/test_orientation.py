"""Orientation: pages turned 0/90/180/270 degrees in pixels (no EXIF) read as upright pages do."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from scanner_app.core.client.triton import OcrClient
from scanner_app.ocr import orientation as ori
from scanner_app.samples.documents import encode, render_invoice
from scanner_app.server.embedded import EmbeddedServer


def _norm(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def client(triton: EmbeddedServer) -> OcrClient:
    with OcrClient(triton.grpc_url, timeout_s=300) as ocr:
        ocr.connect()
        yield ocr


@pytest.mark.parametrize("angle", [90, 180, 270])
def test_boxes_map_back_to_the_image_as_sent(angle: int) -> None:
    upright = np.arange(5 * 8 * 3, dtype=np.uint8).reshape(5, 8, 3)
    sent = np.ascontiguousarray(np.rot90(upright, k=angle // 90))  # turned counter-clockwise
    assert np.array_equal(ori.rotate_upright(sent, angle), upright)
    # The pixel (x=6, y=1) of the upright image, as a unit box, lands on the same pixel value.
    box = np.array([[6, 1], [7, 1], [7, 2], [6, 2]], dtype=np.float32)
    (mapped,) = ori.boxes_to_sent([box], angle, sent.shape[:2])
    x0, y0 = mapped.min(axis=0).astype(int)
    assert np.array_equal(sent[y0, x0], upright[1, 6])


def test_the_vote_weighs_confidence_and_length() -> None:
    probs = np.array([[0.9, 0.1], [0.2, 0.8], [0.3, 0.7]])
    assert ori.vote_flipped(probs, [1, 1, 1]) > 0  # two of three say 180
    assert ori.vote_flipped(probs, [10, 1, 1]) < 0  # the long line that says 0 outweighs them
    assert ori.page_angle(False, True) == 180 and ori.page_angle(True, False) == 270
    assert ori.page_angle(True, True) == 90 and ori.page_angle(False, False) == 0


def test_most_boxes_tall_means_sideways() -> None:
    wide = np.array([[0, 0], [100, 0], [100, 20], [0, 20]], dtype=np.float32)
    tall = np.array([[0, 0], [20, 0], [20, 100], [0, 100]], dtype=np.float32)
    params = ori.OrientationParams()
    assert ori.sideways([tall, tall, wide], params)
    assert not ori.sideways([tall, wide, wide], params)
    assert not ori.sideways([], params)


@pytest.fixture(scope="module")
def upright_read(client: OcrClient) -> tuple[Image.Image, list[str]]:
    doc = render_invoice(seed=3)
    page = client.recognize(encode(doc.image, "PNG"), "upright.png")
    assert page.orientation == 0
    return doc.image, [line.text for line in page.lines]


@pytest.mark.parametrize("angle", [90, 180, 270])
def test_a_turned_page_reads_as_the_upright_page(
    client: OcrClient, upright_read: tuple[Image.Image, list[str]], angle: int
) -> None:
    image, upright_texts = upright_read
    turned = image.rotate(angle, expand=True)  # counter-clockwise, in pixels: no EXIF tag
    page = client.recognize(encode(turned, "PNG"), f"turned{angle}.png")
    assert page.orientation == angle  # the clockwise turn that makes it upright
    assert (page.width, page.height) == turned.size
    assert [line.text for line in page.lines] == upright_texts  # same lines, same reading order
    for line in page.lines:  # boxes in the pixels of the image as sent
        xs, ys = [x for x, _ in line.box], [y for _, y in line.box]
        assert min(xs) >= 0 and max(xs) <= turned.width and min(ys) >= 0 and max(ys) <= turned.height


def test_a_single_upside_down_line_is_read_the_right_way(client: OcrClient) -> None:
    doc = render_invoice(seed=5)
    target = max(doc.lines, key=lambda line: len(line.text))
    x0, y0, x1, y1 = (int(v) for v in target.box)
    box = (x0 - 4, y0 - 4, x1 + 4, y1 + 4)
    image = doc.image.copy()
    image.paste(image.crop(box).rotate(180), box[:2])
    page = client.recognize(encode(image, "PNG"), "one-line-turned.png")
    assert page.orientation == 0
    assert _norm(target.text) in {_norm(line.text) for line in page.lines}


def test_a_request_can_turn_orientation_and_documents_off(triton: EmbeddedServer) -> None:
    """Request parameters "orientation" / "documents" = "off" (the benchmark's "before") read that
    page as sent; the next request without them is read as shipped (same server)."""
    import tritonclient.grpc as grpcclient

    from scanner_app.contract import IMAGE_INPUT, PIPELINE_MODEL
    from scanner_app.core.client.triton import page_from_response

    turned = encode(render_invoice(seed=3).image.rotate(180, expand=True), "PNG")
    tensor = grpcclient.InferInput(IMAGE_INPUT, [1, 1], "BYTES")
    tensor.set_data_from_numpy(np.array([[turned]], dtype=np.object_))
    with grpcclient.InferenceServerClient(triton.grpc_url) as raw:
        off = raw.infer(PIPELINE_MODEL, [tensor], parameters={"orientation": "off", "documents": "off"})
        on = raw.infer(PIPELINE_MODEL, [tensor])
    assert page_from_response(off, "off", 0.0).orientation == 0
    assert page_from_response(on, "on", 0.0).orientation == 180
