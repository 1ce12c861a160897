"""A colon the detector drops (printed after a gap, ``TOTAL   :``) is found and read (ocr.punctuation).

Pure tests draw a label, a gap and a colon with cv2.putText; the real-model tests read sroie 007,
whose annotation ends "SUB TOTAL :", "GRAND TOTAL :", "CASH :" where the detector's boxes stop
before the colon.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner_app.core.client.triton import OcrClient
from scanner_app.ocr.decode import decode_sized
from scanner_app.ocr.in_process import InProcessEngine
from scanner_app.ocr.orientation import Models, OrientationParams, read_page
from scanner_app.ocr.params import ColonParams, RecParams
from scanner_app.ocr.punctuation import ColonExtension, colon_extension, colon_extensions, colon_reading
from scanner_app.server import model_fetch
from scanner_app.server.embedded import EmbeddedServer
from tests.helpers.paths import SROIE_IMAGES

RECEIPTS = SROIE_IMAGES
FONT, SCALE, THICK = cv2.FONT_HERSHEY_SIMPLEX, 0.9, 2
PARAMS = ColonParams()


def _page(
    label: str, after: str | None, gap_px: int, width: int = 520, after_grey: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """A white page with ``label`` and, ``gap_px`` past it, ``after``; and a DB-like box on the label."""
    page = np.full((100, width), 255, np.uint8)
    (w, h), _ = cv2.getTextSize(label, FONT, SCALE, THICK)
    x, base = 20, 60
    cv2.putText(page, label, (x, base), FONT, SCALE, 0, THICK, cv2.LINE_AA)
    if after is not None:
        cv2.putText(page, after, (x + w + gap_px, base), FONT, SCALE, after_grey, THICK, cv2.LINE_AA)
    pad = 0.35 * h
    box = np.array(
        [
            [x - pad, base - h - pad],
            [x + w + pad, base - h - pad],
            [x + w + pad, base + pad],
            [x - pad, base + pad],
        ],
        np.float32,
    )
    return page, box


def _right_end(box: np.ndarray) -> float:
    return float(max(box[1][0], box[2][0]))


def test_a_colon_after_a_gap_extends_the_box_over_it() -> None:
    page, box = _page("TOTAL GST", ":", gap_px=30)
    ext = colon_extension(page, [box], 0, True, PARAMS)
    assert ext is not None and ext.trailing
    ink = np.nonzero((page < 128).any(axis=0))[0]
    colon_right = float(ink.max())  # the colon is the page's rightmost ink
    assert colon_right < _right_end(ext.box) < colon_right + 0.4 * (box[3][1] - box[0][1])
    np.testing.assert_allclose(ext.box[[0, 3]], box[[0, 3]])  # the start stays
    assert colon_extensions(page, [box], PARAMS).keys() == {0}


def test_a_colon_printed_fainter_than_its_label_still_counts() -> None:
    page, box = _page("TOTAL GST", ":", gap_px=30, after_grey=170)  # the letters black, the colon grey
    assert colon_extension(page, [box], 0, True, PARAMS) is not None
    assert colon_extension(page, [box], 0, True, dataclasses.replace(PARAMS, ink_contrast=0.6)) is None
    blank = np.full_like(page, 255)
    assert colon_extension(blank, [box], 0, True, PARAMS) is None  # no ink at all: no contrast


def test_no_colon_a_speck_a_period_or_a_value_after_the_gap_gives_no_extension() -> None:
    plain, box = _page("TOTAL GST", None, gap_px=30)
    assert colon_extension(plain, [box], 0, True, PARAMS) is None
    speck = plain.copy()
    speck[45, int(box[1][0]) + 20] = 0  # one dark pixel of noise in the gap
    assert colon_extension(speck, [box], 0, True, PARAMS) is None
    for after in (".", "12.50", "-", "i"):
        page, box = _page("TOTAL GST", after, gap_px=30)
        assert colon_extension(page, [box], 0, True, PARAMS) is None, after


def test_a_colon_farther_than_the_gap_or_inside_another_box_is_left_alone() -> None:
    page, box = _page("TOTAL", ":", gap_px=200)
    assert colon_extension(page, [box], 0, True, PARAMS) is None
    page, box = _page("TOTAL", ":", gap_px=30)
    other = box.copy()
    other[:, 0] += _right_end(box) - box[0][0] + 5  # a detected box over the gap and the colon
    assert colon_extension(page, [box, other], 0, True, PARAMS) is None
    assert colon_extension(page, [box], 0, True, dataclasses.replace(PARAMS, gap=0.3)) is None


def test_a_leading_colon_before_a_value_extends_its_start() -> None:
    page = np.full((100, 520), 255, np.uint8)
    cv2.putText(page, ":", (20, 60), FONT, SCALE, 0, THICK, cv2.LINE_AA)
    cv2.putText(page, "CS00004040", (60, 60), FONT, SCALE, 0, THICK, cv2.LINE_AA)
    (w, h), _ = cv2.getTextSize("CS00004040", FONT, SCALE, THICK)
    pad = 0.35 * h
    box = np.array(
        [
            [60 - pad, 60 - h - pad],
            [60 + w + pad, 60 - h - pad],
            [60 + w + pad, 60 + pad],
            [60 - pad, 60 + pad],
        ],
        np.float32,
    )
    ext = colon_extensions(page, [box], PARAMS, texts=["CS00004040"]).get(0)
    assert ext is not None and not ext.trailing
    assert ext.box[0][0] < 20 < box[0][0]
    np.testing.assert_allclose(ext.box[[1, 2]], box[[1, 2]])
    assert colon_extensions(page, [box], dataclasses.replace(PARAMS, leading=False)) == {}
    assert colon_extensions(page, [box], PARAMS, texts=[": CS00004040"]) == {}  # read already


def test_a_line_on_a_turned_page_is_looked_along_its_own_direction() -> None:
    page, box = _page("TOTAL GST", ":", gap_px=30)
    big = np.full((400, 700), 255, np.uint8)
    big[150:250, 90:610] = page
    box = box + np.array([90, 150], np.float32)
    matrix = cv2.getRotationMatrix2D((350, 200), 8.0, 1.0)  # the line runs 8 degrees up
    turned = cv2.warpAffine(big, matrix, (700, 400), borderValue=255)
    turned_box = cv2.transform(box[None], matrix)[0]
    ext = colon_extension(turned, [turned_box], 0, True, PARAMS)
    assert ext is not None
    grown = ext.box[1] - turned_box[1]
    direction = turned_box[1] - turned_box[0]
    cos = float(grown @ direction / np.linalg.norm(grown) / np.linalg.norm(direction))
    assert cos > 0.999  # grown along the line, not along the page's x axis
    assert colon_extension(np.rot90(turned).copy(), [turned_box], 0, True, PARAMS) is None  # wrong pixels


def _found(trailing: bool, spaced: bool = True) -> ColonExtension:
    box = np.zeros((4, 2), np.float32)
    return ColonExtension(box=box, trailing=trailing, gap=10.0, centre=(0.0, 0.0), spaced=spaced)


def test_the_reading_is_taken_as_the_line_plus_a_colon_at_that_end() -> None:
    end, start = _found(trailing=True), _found(trailing=False)
    assert colon_reading("TOTAL", "TOTAL :", end) == "TOTAL :"
    assert colon_reading("TOTAL", "TOTAL:", end) == "TOTAL:"
    assert colon_reading("CS00004040", ": CS00004040", start) == ": CS00004040"
    assert colon_reading("TOTAL", "TOTAL  :", end) is None
    assert colon_reading("TOTAL", "TOTAL :", start) is None  # the colon at the wrong end
    assert colon_reading("TOTAL", "TOTAI :", end) is None  # the line itself read otherwise
    assert colon_reading("TOTAL", "TOTAL .", end) is None
    assert colon_reading("TOTAL:", "TOTAL::", end) is None
    assert colon_reading("", ":", end) is None


def test_a_colon_the_recogniser_drops_again_is_read_from_its_dots_spaced_as_measured() -> None:
    assert colon_reading("DISCOUNT", "DISCOUNT", _found(True, spaced=True)) == "DISCOUNT :"
    assert colon_reading("DISCOUNT", "DISCOUNT ", _found(True, spaced=False)) == "DISCOUNT:"
    assert colon_reading("REF.", "REF.", _found(True)) == "REF. :"
    assert colon_reading("(EXCL GST)", "(EXCL GST)", _found(True)) == "(EXCL GST) :"
    assert colon_reading("USER", " USER", _found(False, spaced=True)) == ": USER"
    assert colon_reading("USER", "USER", _found(False, spaced=False)) == ":USER"
    # Digits next to the dots may be a time or a ratio: only the recogniser's reading counts there.
    assert colon_reading("TOTAL 1", "TOTAL 1", _found(True)) is None
    assert colon_reading("2 CONES", "2 CONES", _found(False)) is None
    assert colon_reading("DISCOUNT", "DISCOUNT 1", _found(True)) is None  # read more than the line


def test_spaced_follows_the_gap_between_the_line_and_its_colon() -> None:
    page, box = _page("TOTAL GST", ":", gap_px=30)
    wide = colon_extension(page, [box], 0, True, PARAMS)
    assert wide is not None and wide.spaced
    page, box = _page("TOTAL GST", ":", gap_px=3)
    box[[1, 2], 0] = np.nonzero((page < 128).any(axis=0))[0].max() - 8  # the box stops before the colon
    tight = colon_extension(page, [box], 0, True, PARAMS)
    assert tight is not None and not tight.spaced


def _engine(model_repository: Path) -> tuple[InProcessEngine, list[str]]:
    keys = json.loads((model_repository / model_fetch.KEYS_PATH).read_text(encoding="utf-8"))
    engine = InProcessEngine(
        str(model_repository / model_fetch.DET_PATH),
        str(model_repository / model_fetch.REC_PATH),
        keys,
        cls_model=str(model_repository / model_fetch.ORIENTATION_PATH),
    )
    return engine, keys


def test_the_real_recogniser_reads_the_dropped_colons_of_a_real_receipt(model_repository: Path) -> None:
    engine, keys = _engine(model_repository)
    image = decode_sized((RECEIPTS / "007.jpg").read_bytes()).pixels
    boxes = engine.detect(image)
    models = Models(detect=engine._detect_tensor, classify=engine._classify, recognize=engine._recognize)
    orient = OrientationParams()

    def read(colon: ColonParams) -> dict[str, np.ndarray]:
        rec = RecParams(colon=colon)
        page = asyncio.run(read_page(image, boxes, models, engine.det_params, rec, keys, orient))
        return {line.text: line.box for line in page.lines}

    off = read(ColonParams(enabled=False))
    on = read(ColonParams())
    for label in ("SUB TOTAL", "GRAND TOTAL", "CASH"):
        assert label in off and label + " :" not in off
        assert label + " :" in on and label not in on
        assert _right_end(on[label + " :"]) > _right_end(off[label]) + 5  # the box covers the colon
    unchanged = set(off) & set(on)
    assert len(unchanged) >= len(off) - 6  # only the lines with a colon change


def test_the_server_reads_the_dropped_colons(triton: EmbeddedServer) -> None:
    with OcrClient(triton.grpc_url, timeout_s=300) as client:
        client.connect()
        page = client.recognize((RECEIPTS / "007.jpg").read_bytes(), "007.jpg")
    texts = {line.text for line in page.lines}
    assert {"SUB TOTAL :", "GRAND TOTAL :", "CASH :"} <= texts


@pytest.mark.parametrize("gap_px", [12, 30, 45])
def test_the_gap_is_a_fraction_of_the_line_height_at_any_print_size(gap_px: int) -> None:
    small, small_box = _page("TOTAL", ":", gap_px=gap_px)
    big = cv2.resize(small, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_LINEAR)
    found_small = colon_extension(small, [small_box], 0, True, PARAMS)
    found_big = colon_extension(big, [small_box * 2], 0, True, PARAMS)
    assert found_small is not None and found_big is not None
    assert found_big.gap == pytest.approx(2 * found_small.gap, abs=2)
    far, far_box = _page("TOTAL", ":", gap_px=2 * gap_px + 60)  # past 1.5 line heights (34 px)
    assert colon_extension(far, [far_box], 0, True, PARAMS) is None


@pytest.mark.parametrize(("gap_px", "spaced"), [(3, False), (16, True)])
def test_a_colon_inside_the_box_that_the_line_ends_on_is_found_there(gap_px: int, spaced: bool) -> None:
    page, box = _page("TOTAL QTY", ":", gap_px=gap_px)
    box[[1, 2], 0] = np.nonzero((page < 128).any(axis=0))[0].max() + 6  # the box holds the colon
    ext = colon_extension(page, [box], 0, True, PARAMS)
    assert ext is not None and ext.inside and ext.spaced is spaced
    np.testing.assert_allclose(ext.box, box)  # nothing to extend over
    assert colon_reading("TOTAL QTY", "TOTAL QTY", ext) == ("TOTAL QTY :" if spaced else "TOTAL QTY:")
    plain, plain_box = _page("TOTAL QTY", None, gap_px=0)
    assert colon_extension(plain, [plain_box], 0, True, PARAMS) is None
    lone = np.full_like(page, 255)
    cv2.putText(lone, ":", (40, 60), FONT, SCALE, 0, THICK, cv2.LINE_AA)
    assert colon_extension(lone, [box], 0, True, PARAMS) is None  # a colon with no line before it


def test_a_broken_stroke_or_a_dot_and_a_speck_inside_the_box_is_not_a_colon() -> None:
    page, box = _page("TOTAL QTY", None, gap_px=0)
    right = int(np.nonzero((page < 128).any(axis=0))[0].max())
    box[[1, 2], 0] = right + 16
    top, bottom = int(box[0][1]), int(box[3][1])
    mid = (top + bottom) // 2
    for marks in (
        [(mid - 6, mid - 1), (mid + 1, mid + 6)],  # a stroke with a crack: the pieces nearly touch
        [(mid - 8, mid - 7), (mid + 2, mid + 8)],  # a speck above a dot: sizes far apart
    ):
        marked = page.copy()
        for y0, y1 in marks:
            marked[y0 : y1 + 1, right + 5 : right + 9] = 0
        assert colon_extension(marked, [box], 0, True, PARAMS) is None, marks
    colon = page.copy()
    for y0, y1 in [(mid - 8, mid - 4), (mid + 3, mid + 7)]:
        colon[y0 : y1 + 1, right + 5 : right + 9] = 0
    found = colon_extension(colon, [box], 0, True, PARAMS)
    assert found is not None and found.inside  # two dots apart, alike: a colon
