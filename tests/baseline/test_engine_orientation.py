"""The serial baseline (Flask app around the in-process engine) reads pages as the server does:
a turned page like upright, several receipts on a glass as several documents.

Real models through ONNX Runtime in this process (no Triton), real SROIE receipts.
"""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from scanner_app.baseline.app import create_app
from scanner_app.baseline.engine import build_engine, pipeline_settings
from scanner_app.core.results import PageResult
from scanner_app.ocr.in_process import InProcessEngine
from scanner_app.samples.documents import distinct_receipts, encode
from scanner_app.samples.glass import lay_on_glass
from tests.helpers.paths import SROIE_IMAGES

RECEIPT = SROIE_IMAGES / "001.jpg"


@pytest.fixture(scope="module")
def engine(model_repository: Path) -> InProcessEngine:
    return build_engine(model_repository, threads=1)


def _png(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def _post(engine: InProcessEngine, data: bytes, name: str) -> PageResult:
    response = create_app(engine).test_client().post(f"/ocr?name={name}", data=data)
    assert response.status_code == 200, response.get_json()
    return PageResult.from_json(response.get_json())


def test_the_baseline_follows_the_repository(model_repository: Path, engine: InProcessEngine) -> None:
    settings = pipeline_settings(model_repository)
    assert settings.orientation and settings.documents  # as shipped
    assert engine.orientation.enabled and engine.documents.enabled


def test_a_turned_page_through_the_baseline_reads_like_upright(engine: InProcessEngine) -> None:
    with Image.open(RECEIPT) as image:
        upright = image.convert("RGB")
    base = _post(engine, _png(upright), "upright.png")
    assert base.orientation == 0 and len(base.lines) > 10
    for angle in (90, 180, 270):  # PIL turns counter-clockwise: the page must turn `angle` clockwise
        page = _post(engine, _png(upright.rotate(angle, expand=True)), f"turned-{angle}.png")
        assert page.orientation == angle
        assert [line.text for line in page.lines] == [line.text for line in base.lines]
        corners = np.array([p for line in page.lines for p in line.box])
        assert corners.min() >= -2 and corners[:, 0].max() <= page.width + 2
        assert corners[:, 1].max() <= page.height + 2  # boxes in the pixels of the image as sent


def test_a_glass_page_through_the_baseline_is_its_receipts(engine: InProcessEngine) -> None:
    receipts = distinct_receipts(2, seed=4)
    glass = lay_on_glass([d.image for d in receipts], seed=5)
    page = _post(engine, encode(glass.image, "JPEG"), "glass.jpg")
    assert len(page.receipts) == 2
    vendors = [d.lines[0].text for d in receipts]
    for doc, placed, vendor in zip(page.receipts, glass.outlines, vendors, strict=True):
        a, b = np.array(placed, dtype=np.float32), np.array(doc.box, dtype=np.float32)
        inter, _ = cv2.intersectConvexConvex(a, b)
        assert inter / (cv2.contourArea(a) + cv2.contourArea(b) - inter) >= 0.8
        assert vendor in " ".join(page.lines[i].text for i in doc.lines)
