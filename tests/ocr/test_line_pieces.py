"""One line cut in two by the detector is read whole (ocr.line_merge), and so is one cut at its
dotted leader (ocr.line_leader); two lines in one box are parted at the wide blank between them
(ocr.line_split).

Pure tests build boxes and draw text with cv2.putText (and leader dots with cv2.circle); the
real-model tests read sroie-dev 114, where the detector cuts "Date: 04/01/2018" into two boxes
that reach into each other, sroie 001, where it stops at the faint dots of "TOTAL AMT.......... RM",
and sroie 006, where one box runs over "TEL : ..." and "FAX : ..." printed a wide blank apart.
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
from scanner_app.ocr.line_leader import find_leaders, join_leaders
from scanner_app.ocr.line_merge import merged_box, overlapping_groups
from scanner_app.ocr.line_split import blank_cuts, split_at_blanks
from scanner_app.ocr.params import MergeParams, RecParams, SplitParams
from tests.helpers.paths import SHARED_DATA

DATA = SHARED_DATA
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


def _leader_row(
    label: str, dots: int, value: str, *, space_before: bool = False, gap_at: int = 3, scale: float = 1.0
) -> tuple[np.ndarray, list[np.ndarray], list[str]]:
    """A page with ``label``, ``dots`` leader dots and `` value``; the detector's two pieces of it.

    The first piece stops ``gap_at`` dots into the leader, as DB stops where faint dots begin, and
    reads those dots; the second box holds the value alone. Sizes scale with ``scale``.
    """
    size, thick, pitch = SCALE * scale, max(round(THICK * scale), 1), round(17 * scale)
    page = np.full((round(100 * scale), round(1400 * scale)), 255, np.uint8)
    (w1, h), _ = cv2.getTextSize(label, FONT, size, thick)
    (w2, _), _ = cv2.getTextSize(value, FONT, size, thick)
    x, base, radius = round(20 * scale), round(60 * scale), max(round(2.5 * scale), 1)
    cv2.putText(page, label, (x, base), FONT, size, 0, thick, cv2.LINE_AA)
    first_dot = x + w1 + pitch // 2 + (pitch if space_before else 0)
    centres = [first_dot + k * pitch for k in range(dots)]
    for cx in centres:
        cv2.circle(page, (cx, base - radius), radius, 0, -1, cv2.LINE_AA)
    value_x = centres[-1] + pitch * 3 // 2  # a space's width of paper after the last dot
    cv2.putText(page, value, (value_x, base), FONT, size, 0, thick, cv2.LINE_AA)
    pad = 0.35 * h
    left_end = centres[gap_at - 1] + radius + pad / 2
    pieces = [
        _box(x - pad, left_end, base - h - pad, h + 2 * pad),
        _box(value_x - pad, value_x + w2 + pad, base - h - pad, h + 2 * pad),
    ]
    before = " " if space_before else ""
    return page, pieces, [f"{label}{before}{'.' * gap_at}", value]


def test_pieces_a_dotted_leader_apart_are_one_line_with_the_dots_on_the_page_counted() -> None:
    for dots, space_before, scale in [(17, False, 1.0), (25, True, 1.0), (12, False, 2.0)]:
        page, boxes, texts = _leader_row("TOTAL AMT", dots, "RM", space_before=space_before, scale=scale)
        decoded = {0: (texts[0], 0.95), 1: (texts[1], 0.9)}
        joined_boxes, joined = join_leaders(page, boxes, decoded, MERGE, drop_score=0.6)
        space = " " if space_before else ""
        assert joined == {0: (f"TOTAL AMT{space}{'.' * dots} RM", 0.9)}, (dots, space_before, scale)
        assert len(joined_boxes) == 1
        np.testing.assert_allclose(joined_boxes[0], merged_box(boxes), atol=1e-3)


def test_a_chain_of_leaders_is_one_line_and_other_lines_keep_their_place() -> None:
    page, boxes, texts = _leader_row("SUB TOTAL", 8, "RM", gap_at=2)
    (_, h), _ = cv2.getTextSize("RM", FONT, SCALE, THICK)
    rm_ink_end = round(float(boxes[1][1][0]) - 0.35 * h)
    centres = [rm_ink_end + 8 + k * 17 for k in range(10)]  # straight after "RM", no space
    for cx in centres:
        cv2.circle(page, (cx, 58), 2, 0, -1, cv2.LINE_AA)
    amount_x = centres[-1] + 25  # a space after the last dot
    cv2.putText(page, "5.00", (amount_x, 60), FONT, SCALE, 0, THICK, cv2.LINE_AA)
    (w_amount, _), _ = cv2.getTextSize("5.00", FONT, SCALE, THICK)
    top, height = float(boxes[1][0][1]), float(boxes[1][3][1] - boxes[1][0][1])
    amount = _box(amount_x - 7, amount_x + w_amount + 7, top, height)
    above = _box(20, 300, y0=0, height=20)
    decoded = {0: ("HEADER", 0.99), 1: (texts[0], 0.9), 2: ("RM..", 0.8), 3: ("5.00", 0.97)}
    out_boxes, out = join_leaders(page, [above, boxes[0], boxes[1], amount], decoded, MERGE, drop_score=0.6)
    assert out == {0: ("HEADER", 0.99), 1: ("SUB TOTAL........ RM.......... 5.00", 0.8)}
    assert len(out_boxes) == 2 and out_boxes[0] is above


def test_table_columns_words_without_dots_and_a_blank_gap_stay_apart() -> None:
    page, boxes, texts = _leader_row("TOTAL AMT", 17, "RM")
    assert find_leaders(page, boxes, ["TOTAL AMT", "RM"], MERGE) == []  # neither reads as a leader
    assert find_leaders(page, boxes, texts, dataclasses.replace(MERGE, leader=False)) == []
    assert find_leaders(page, boxes, texts, dataclasses.replace(MERGE, enabled=False)) == []
    assert find_leaders(page, boxes, [texts[0], ""], MERGE) == []  # the value read nothing
    # The dots stop short of the value: a stretch of paper, two columns a leader does not join.
    short, short_boxes, short_texts = _leader_row("QTY", 20, "AMOUNT")
    blanked = short.copy()
    x0, x1 = int(short_boxes[0][1][0]) + 4 * 17, int(short_boxes[1][0][0])  # 4 dots past the box stay
    blanked[:, x0:x1] = 255
    assert find_leaders(short, short_boxes, short_texts, MERGE) != []
    assert find_leaders(blanked, short_boxes, short_texts, MERGE) == []
    # A letter in the blank (a word the detector missed) is no leader dot.
    lettered = short.copy()
    cv2.putText(lettered, "X", ((x0 + x1) // 2, 60), FONT, SCALE, 0, THICK, cv2.LINE_AA)
    assert find_leaders(lettered, short_boxes, short_texts, MERGE) == []
    # Another row's piece, a line lower, is not this one's value.
    lower = [short_boxes[0], short_boxes[1] + np.float32([0, 30])]
    assert find_leaders(short, lower, short_texts, MERGE) == []


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


def test_the_real_pipeline_reads_a_dotted_leaders_line_whole(model_repository: Path) -> None:
    engine = build_engine(model_repository)
    receipt = DATA / "sroie" / "img" / "001.jpg"
    apart = _read(engine, receipt, RecParams(merge=MergeParams(leader=False)))
    whole = _read(engine, receipt, RecParams())
    for label in ("TOTAL AMT", "CASH", "CHANGE"):
        assert not any(t.startswith(label) and t.endswith("RM") for t in apart), apart
        line = [t for t in whole if t.startswith(label + ".")]
        assert len(line) == 1 and line[0].endswith(" RM") and line[0].count(".") >= 12, whole
    assert len(whole) <= len(apart) - 3
