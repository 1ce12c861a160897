"""One line cut in two by the detector is read whole (ocr.line_merge); two lines in one box are
parted at the wide blank between them (ocr.line_split).

Pure tests build boxes and draw text with cv2.putText; the real-model tests read sroie-dev 114,
where the detector cuts "Date: 04/01/2018" into two boxes that reach into each other, and sroie
006, where one box runs over "TEL : ..." and "FAX : ..." printed a wide blank apart.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from scanner_app.baseline.engine import build_engine
from scanner_app.ocr.decode import decode_sized
from scanner_app.ocr.in_process import InProcessEngine
from scanner_app.ocr.line_merge import merged_box, overlapping_groups
from scanner_app.ocr.line_split import blank_cuts, split_at_blanks
from scanner_app.ocr.params import MergeParams, RecParams, SplitParams

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
FONT, SCALE, THICK = cv2.FONT_HERSHEY_SIMPLEX, 0.9, 2
MERGE, SPLIT = MergeParams(), SplitParams()


def _box(x0: float, x1: float, y0: float = 100, height: float = 40) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y0 + height], [x0, y0 + height]], np.float32)


def _turned(box: np.ndarray, degrees: float) -> np.ndarray:
    matrix = cv2.getRotationMatrix2D((400.0, 300.0), degrees, 1.0)
    return cv2.transform(box[None], matrix)[0]


def test_pieces_of_a_row_that_overlap_by_a_third_of_their_height_are_one_group() -> None:
    left, right = _box(0, 200), _box(180, 400)  # 20 px of overlap, half the height
    assert overlapping_groups([left, right], MERGE) == [[0, 1]]
    touching, apart = _box(198, 400), _box(230, 400)
    assert overlapping_groups([left, touching], MERGE) == []  # 2 px: two columns, left alone
    assert overlapping_groups([left, apart], MERGE) == []
    assert overlapping_groups([left, right], dataclasses.replace(MERGE, overlap=0.6)) == []
    assert overlapping_groups([left, right], dataclasses.replace(MERGE, enabled=False)) == []


def test_pieces_of_other_rows_sizes_or_slants_stay_apart() -> None:
    left = _box(0, 200)
    assert overlapping_groups([left, _box(180, 400, y0=120)], MERGE) == []  # half a line lower
    assert overlapping_groups([left, _box(180, 400, y0=80, height=80)], MERGE) == []  # twice as tall
    assert overlapping_groups([left, _turned(_box(180, 400), 12.0)], MERGE) == []
    tall = _box(170, 200, y0=40, height=160)  # text running down the page
    assert overlapping_groups([left, tall], MERGE) == []


def test_a_turned_row_is_looked_at_along_its_own_direction() -> None:
    pieces = [_turned(_box(0, 200), 20.0), _turned(_box(180, 400), 20.0)]
    assert overlapping_groups(pieces, MERGE) == [[0, 1]]
    whole = merged_box(pieces)
    length = np.linalg.norm(whole[1] - whole[0])
    assert length == pytest.approx(400, abs=2)  # one box along the turned row, not its upright hull
    assert np.linalg.norm(whole[3] - whole[0]) == pytest.approx(40, abs=2)


def test_chains_of_pieces_are_one_group_and_only_the_given_pieces_count() -> None:
    boxes = [_box(0, 200), _box(180, 400), _box(380, 600), _box(900, 1000)]
    assert overlapping_groups(boxes, MERGE) == [[0, 1, 2]]
    assert overlapping_groups(boxes, MERGE, among=[0, 2, 3]) == []  # the middle piece read nothing


def _row(left: str, right: str, blank_px: int) -> tuple[np.ndarray, np.ndarray, int]:
    """A page with ``left`` and ``right`` printed ``blank_px`` apart; one DB-like box over both."""
    page = np.full((100, 1100), 255, np.uint8)
    (w1, h), _ = cv2.getTextSize(left, FONT, SCALE, THICK)
    (w2, _), _ = cv2.getTextSize(right, FONT, SCALE, THICK)
    x, base = 20, 60
    cv2.putText(page, left, (x, base), FONT, SCALE, 0, THICK, cv2.LINE_AA)
    cv2.putText(page, right, (x + w1 + blank_px, base), FONT, SCALE, 0, THICK, cv2.LINE_AA)
    pad = 0.35 * h
    box = np.array(
        [
            [x - pad, base - h - pad],
            [x + w1 + blank_px + w2 + pad, base - h - pad],
            [x + w1 + blank_px + w2 + pad, base + pad],
            [x - pad, base + pad],
        ],
        np.float32,
    )
    return page, box, x + w1


def test_a_box_over_two_fields_a_wide_blank_apart_is_parted_in_the_blank() -> None:
    page, box, left_end = _row("TEL : 07-5547360", "FAX : 07-5624059", blank_px=60)
    height = float(box[3][1] - box[0][1])
    parts = split_at_blanks(page, [box], SPLIT)
    assert len(parts) == 2
    first, second = parts
    assert left_end < first[1][0] < left_end + 30  # the first part ends in the blank
    assert left_end + 30 < second[0][0] < left_end + 60  # the second starts in it
    np.testing.assert_allclose(first[[0, 3]], box[[0, 3]])  # the outer ends stay
    np.testing.assert_allclose(second[[1, 2]], box[[1, 2]])
    assert first[3][1] - first[0][1] == pytest.approx(height)
    assert split_at_blanks(page, [box], dataclasses.replace(SPLIT, enabled=False)) == [box]


def test_word_gaps_a_narrower_blank_and_a_blank_page_leave_the_box_whole() -> None:
    page, box, _ = _row("GOODS SOLD ARE NOT", "RETURNABLE", blank_px=12)  # an ordinary word space
    assert blank_cuts(page, box, SPLIT) == []
    page, box, _ = _row("TOTAL", "33.90", blank_px=25)  # under one line height (about 40 px)
    assert blank_cuts(page, box, SPLIT) == []
    assert blank_cuts(np.full_like(page, 255), box, SPLIT) == []  # no contrast: nothing to part


def test_the_blank_is_measured_in_line_heights_at_any_print_size() -> None:
    page, box, _ = _row("TEL : 07-5547360", "FAX : 07-5624059", blank_px=60)
    big = cv2.resize(page, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_LINEAR)
    small_cuts, big_cuts = blank_cuts(page, box, SPLIT), blank_cuts(big, box * 2, SPLIT)
    assert len(small_cuts) == len(big_cuts) == 1
    assert big_cuts[0] == pytest.approx(small_cuts[0], abs=0.01)  # fractions of the box's length
    assert blank_cuts(page, box, dataclasses.replace(SPLIT, gap=3.0)) == []


def _read(engine: InProcessEngine, image_path: Path, rec: RecParams) -> list[str]:
    engine.rec_params = rec
    return [line.text for line in engine(decode_sized(image_path.read_bytes()).pixels)]


def test_the_real_pipeline_reads_a_date_the_detector_cut_in_two_as_one_line(model_repository: Path) -> None:
    engine = build_engine(model_repository)
    receipt = DATA / "sroie-dev" / "img" / "114.jpg"
    apart = _read(engine, receipt, RecParams(merge=MergeParams(enabled=False)))
    whole = _read(engine, receipt, RecParams())
    assert "04/01/2018" in apart and not any(t.endswith("04/01/2018") and len(t) > 10 for t in apart)
    assert any(t.replace(" ", "").upper() == "DATE:04/01/2018" for t in whole), whole
    assert "04/01/2018" not in whole
    assert len(whole) == len(apart) - 1


def test_the_real_pipeline_parts_tel_and_fax_printed_on_one_row(model_repository: Path) -> None:
    engine = build_engine(model_repository)
    receipt = DATA / "sroie" / "img" / "006.jpg"
    joined = _read(engine, receipt, RecParams(split=SplitParams(enabled=False)))
    parted = _read(engine, receipt, RecParams())
    assert any("TEL" in t and "FAX" in t for t in joined)
    assert not any("TEL" in t and "FAX" in t for t in parted)
    tel = [t for t in parted if t.startswith("TEL")]
    fax = [t for t in parted if t.startswith("FAX")]
    assert len(tel) == len(fax) == 1 and "07-5624059" in fax[0], parted
