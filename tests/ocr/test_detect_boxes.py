"""The box reported for a line (detect.fit_box): fitted to its text, centre and direction kept."""

from __future__ import annotations

import math

import numpy as np

from scanner_app.ocr.detect import fit_box, page_line_height
from scanner_app.ocr.engine import assemble_lines
from scanner_app.ocr.params import BoxFit, RecParams

CROP_BOX = BoxFit(1.0, 0.0, 0.0, 0.0)


def _rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float32)


def _sides(box: np.ndarray) -> tuple[float, float]:
    return float(np.linalg.norm(box[1] - box[0])), float(np.linalg.norm(box[3] - box[0]))


def test_the_crop_box_fit_reports_the_box_unchanged() -> None:
    box = _rect(10, 20, 210, 60)
    assert np.allclose(fit_box(box, 30.0, CROP_BOX), box)


def test_the_default_fit_tightens_a_line_about_its_centre() -> None:
    box = _rect(10, 20, 210, 60)  # 200 long, 40 high, on a page of 30 px lines
    fitted = fit_box(box, 30.0, BoxFit())
    length, height = _sides(fitted)
    assert math.isclose(height, 0.7 * 40 + 0.2 * 30, rel_tol=1e-5)
    assert math.isclose(length, 200 - 0.2 * 40 + 0.2 * 30, rel_tol=1e-5)
    assert np.allclose(fitted.mean(axis=0), box.mean(axis=0))
    assert height < 40 and length < 200


def test_a_turned_box_keeps_its_direction() -> None:
    angle = math.radians(10)
    along, across = (
        np.array([math.cos(angle), math.sin(angle)]),
        np.array([-math.sin(angle), math.cos(angle)]),
    )
    tl = np.array([50.0, 50.0])
    box = np.array([tl, tl + 100 * along, tl + 100 * along + 20 * across, tl + 20 * across], np.float32)
    fitted = fit_box(box, 20.0, BoxFit())
    top = fitted[1] - fitted[0]
    assert np.allclose(top / np.linalg.norm(top), along, atol=1e-5)
    assert math.isclose(_sides(fitted)[1], 0.7 * 20 + 0.2 * 20, rel_tol=1e-5)


def test_page_line_height_is_the_median_height() -> None:
    boxes = [_rect(0, 0, 100, 20), _rect(0, 40, 100, 70), _rect(0, 90, 50, 190)]
    assert page_line_height(boxes) == 30.0
    assert page_line_height([]) == 0.0


def test_assemble_lines_reports_fitted_boxes() -> None:
    boxes = [_rect(10, 20, 210, 60), _rect(10, 80, 110, 110)]
    decoded = {0: ("TOTAL 12.50", 0.9), 1: ("CASH", 0.9)}
    fitted = assemble_lines(boxes, decoded, RecParams())
    crop = assemble_lines(boxes, decoded, RecParams(box_fit=CROP_BOX))
    assert [line.text for line in fitted] == [line.text for line in crop] == ["TOTAL 12.50", "CASH"]
    assert np.allclose(crop[0].box, boxes[0]) and np.allclose(crop[1].box, boxes[1])
    page = 35.0  # the median of the two heights, 40 and 30
    assert math.isclose(_sides(fitted[1].box)[1], 0.7 * 30 + 0.2 * page, rel_tol=1e-5)
