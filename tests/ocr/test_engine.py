"""The OCR math on synthetic inputs: no models, no server."""

from __future__ import annotations

import numpy as np
import pytest

from scanner_app.ocr.detect import (
    DET_PAD_VALUE,
    boxes_from_probability,
    bucket_size,
    detection_size,
    order_points_clockwise,
    preprocess_for_detection,
)
from scanner_app.ocr.engine import finish_recognition, plan_recognition
from scanner_app.ocr.order import reading_order
from scanner_app.ocr.params import DET_MEAN, DET_STD, DetParams, RecParams
from scanner_app.ocr.recognize import (
    crop_text_line,
    ctc_decode,
    plan_batches,
    preprocess_for_recognition,
    width_bucket,
)


def _rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float32)


# --- detection: resize and padding ---------------------------------------------------------


@pytest.mark.parametrize(
    ("height", "width"), [(1013, 463), (605, 463), (1716, 604), (3000, 4000), (20, 900), (33, 33)]
)
def test_detection_size_is_a_multiple_of_32_within_the_limits(height: int, width: int) -> None:
    params = DetParams()
    resized_h, resized_w = detection_size(height, width, params)
    assert resized_h % 32 == 0 and resized_w % 32 == 0
    assert resized_h >= 32 and resized_w >= 32
    # Aspect ratio kept up to the rounding of each side to 32.
    ratio = resized_w / width
    assert abs(resized_h - height * ratio) <= 16 * (1 + height / width) or min(resized_h, resized_w) == 32
    assert max(resized_h, resized_w) <= params.limit_side_len + 16


def test_detection_size_scales_small_images_up_to_the_minimum_side() -> None:
    params = DetParams(limit_side_len=2000, min_side_len=736)
    resized_h, resized_w = detection_size(1000, 460, params)
    assert resized_w == 736
    assert resized_h == round(1000 * 736 / 460 / 32) * 32


def test_detection_size_limits_the_longest_side() -> None:
    params = DetParams(limit_side_len=960, min_side_len=0)
    assert detection_size(4000, 3000, params) == (960, 704)


def test_detection_size_limit_wins_over_the_minimum_side() -> None:
    params = DetParams(limit_side_len=2000, min_side_len=736)
    assert detection_size(1716, 604, params) == (1984, 704)  # 2000 rounded to 32
    assert detection_size(20, 900, params) == (32, 1984)  # upscaled 2.2x, not 4x
    assert detection_size(100, 100, params) == (384, 384)  # at most 4x


@pytest.mark.parametrize("step", [32, 320])
def test_preprocess_for_detection_pads_to_the_bucket(step: int) -> None:
    image = np.full((1013, 463, 3), 255, dtype=np.uint8)
    params = DetParams(bucket_step=step)
    padded, (resized_h, resized_w) = preprocess_for_detection(image, params)
    assert padded.dtype == np.uint8
    assert padded.shape == (*bucket_size(resized_h, resized_w, step), 3)
    assert padded.shape[0] % step == 0 and padded.shape[1] % step == 0
    assert padded.shape[0] % 32 == 0 and padded.shape[1] % 32 == 0
    # The image area stays white; the padding is the mean colour, which normalises to ~zero.
    assert np.all(padded[:resized_h, :resized_w] == 255)
    assert np.all(padded[resized_h:] == DET_PAD_VALUE) and np.all(padded[:, resized_w:] == DET_PAD_VALUE)
    normalised_pad = (DET_PAD_VALUE / 255.0 - np.array(DET_MEAN)) / np.array(DET_STD)
    assert np.abs(normalised_pad).max() < 0.01


def test_bucket_size_rounds_up() -> None:
    assert bucket_size(736, 1600, 320) == (960, 1600)
    assert bucket_size(32, 64, 32) == (32, 64)


# --- detection: probability map to boxes ---------------------------------------------------


def _two_rectangles(dtype: type = np.float32) -> np.ndarray:
    prob = np.zeros((320, 640), dtype=np.float32)
    prob[40:60, 100:300] = 0.95  # a line 200 x 20 in map pixels
    prob[200:230, 50:600] = 0.9  # a line 550 x 30
    if dtype is np.uint8:
        return np.rint(prob * 255).astype(np.uint8)
    return prob


@pytest.mark.parametrize("dtype", [np.float32, np.uint8])
def test_boxes_from_probability_finds_two_rectangles_in_original_pixels(dtype: type) -> None:
    prob = _two_rectangles(dtype)
    # The map covers a 320x640 resize of a 160x1280 image: x scales by 2, y by 0.5.
    boxes = boxes_from_probability(prob, (320, 640), (160, 1280), DetParams())
    assert len(boxes) == 2
    boxes = [boxes[i] for i in reading_order(boxes)]
    for box, (x0, y0, x1, y1) in zip(boxes, [(100, 40, 300, 60), (50, 200, 600, 230)], strict=True):
        assert box.shape == (4, 2) and box.dtype == np.float32
        left, top = box.min(axis=0)
        right, bottom = box.max(axis=0)
        # Unclipping grows the shrunk DB region a little on every side, never by a line height.
        height = y1 - y0
        assert x0 * 2 - height * 2 <= left <= x0 * 2 and x1 * 2 <= right <= x1 * 2 + height * 2
        assert (y0 - height) / 2 <= top <= y0 / 2 and y1 / 2 <= bottom <= (y1 + height) / 2
        # Clockwise from the top-left.
        assert box[0, 0] < box[1, 0] and box[1, 1] < box[2, 1] and box[3, 0] < box[2, 0]


def test_uint8_and_float_maps_give_the_same_boxes() -> None:
    rng = np.random.default_rng(0)
    prob = np.clip(_two_rectangles() + rng.normal(0, 0.05, (320, 640)), 0, 1).astype(np.float32)
    as_uint8 = np.rint(prob * 255).astype(np.uint8)
    params = DetParams()
    a = boxes_from_probability(prob, (320, 640), (320, 640), params)
    b = boxes_from_probability(as_uint8, (320, 640), (320, 640), params)
    assert len(a) == len(b) == 2
    for box_a, box_b in zip(sorted(a, key=lambda x: x[0, 1]), sorted(b, key=lambda x: x[0, 1]), strict=True):
        assert np.abs(box_a - box_b).max() <= 2.0


def test_boxes_ignore_the_padding_and_weak_regions() -> None:
    prob = np.zeros((320, 320), dtype=np.float32)
    prob[10:30, 10:200] = 0.9
    prob[100:120, 10:200] = 0.35  # above the pixel threshold, below the box threshold
    prob[250:280, 10:200] = 0.9  # in the padding: the resized image is only 200 rows high
    boxes = boxes_from_probability(prob, (200, 320), (200, 320), DetParams())
    assert len(boxes) == 1
    assert boxes[0][:, 1].max() < 50


def test_boxes_from_an_empty_map() -> None:
    assert boxes_from_probability(np.zeros((64, 64), np.uint8), (64, 64), (64, 64), DetParams()) == []


def test_order_points_clockwise() -> None:
    shuffled = np.array([[10, 5], [0, 0], [0, 5], [10, 0]], dtype=np.float32)
    assert order_points_clockwise(shuffled).tolist() == _rect(0, 0, 10, 5).tolist()


# --- recognition -----------------------------------------------------------------------------


def test_ctc_decode_collapses_repeats_and_drops_blanks() -> None:
    keys = ["", "a", "b", "c", " "]
    indices = np.array([0, 1, 1, 0, 1, 2, 2, 2, 0, 0, 4, 3, 0])
    probs = np.linspace(0.5, 1.0, len(indices)).astype(np.float32)
    text, score = ctc_decode(indices, probs, keys)
    assert text == "aab c"
    kept = [1, 4, 5, 10, 11]
    assert score == pytest.approx(float(probs[kept].mean()))


def test_ctc_decode_of_only_blanks() -> None:
    assert ctc_decode(np.zeros(10, np.int64), np.ones(10, np.float32), ["", "a"]) == ("", 0.0)


def test_ctc_decode_ignores_indices_outside_the_keys() -> None:
    text, _ = ctc_decode(np.array([1, 7, 2]), np.ones(3, np.float32), ["", "a", "b"])
    assert text == "ab"


def test_width_buckets() -> None:
    params = RecParams(width_buckets=(320, 640, 1280))
    assert width_bucket(48, 100, params) == 320
    assert width_bucket(24, 160, params) == 320
    assert width_bucket(24, 161, params) == 640
    assert width_bucket(48, 5000, params) == 1280  # wider than the widest: squeezed into it


def test_preprocess_for_recognition_shape_and_padding() -> None:
    params = RecParams()
    crop = np.full((30, 100, 3), 255, dtype=np.uint8)
    bucket = width_bucket(30, 100, params)
    tensor = preprocess_for_recognition(crop, bucket, params)
    assert tensor.shape == (3, params.height, bucket) and tensor.dtype == np.float32
    used = int(np.ceil(params.height * 100 / 30))
    assert np.allclose(tensor[:, :, :used], 1.0)
    assert np.all(tensor[:, :, used:] == 0.0)


def test_preprocess_for_recognition_squeezes_past_the_widest_bucket() -> None:
    params = RecParams(width_buckets=(320,))
    tensor = preprocess_for_recognition(np.zeros((10, 1000, 3), np.uint8), 320, params)
    assert tensor.shape == (3, params.height, 320)
    assert np.allclose(tensor, -1.0)


def test_crop_text_line_flattens_the_box() -> None:
    image = np.zeros((100, 200, 3), dtype=np.uint8)
    image[20:40, 50:150] = 255
    crop = crop_text_line(image, _rect(50, 20, 150, 40))
    assert crop.shape == (20, 100, 3)
    assert crop.mean() > 250


def test_crop_text_line_turns_tall_crops_upright() -> None:
    image = np.zeros((200, 100, 3), dtype=np.uint8)
    crop = crop_text_line(image, _rect(40, 20, 60, 180))
    assert crop.shape[0] < crop.shape[1]


def test_crop_text_line_margin_widens_along_the_text() -> None:
    image = np.zeros((100, 300, 3), dtype=np.uint8)
    plain = crop_text_line(image, _rect(100, 40, 200, 60))
    wider = crop_text_line(image, _rect(100, 40, 200, 60), margin=0.5)
    assert wider.shape[0] == plain.shape[0]
    assert wider.shape[1] == plain.shape[1] + 20


def test_plan_batches_groups_by_bucket_in_chunks() -> None:
    params = RecParams(width_buckets=(320, 640), max_batch=2)
    crops = [np.zeros((48, w, 3), np.uint8) for w in (100, 500, 200, 300, 50)]
    plan = plan_batches(crops, params)
    assert plan == [(320, [0, 2]), (320, [3, 4]), (640, [1])]


def test_plan_and_finish_recognition_round_trip() -> None:
    image = np.full((100, 300, 3), 255, dtype=np.uint8)
    boxes = [_rect(10, 60, 100, 80), _rect(10, 10, 200, 30), _rect(150, 62, 250, 82)]
    params = RecParams(max_batch=2)
    plan = plan_recognition(image, boxes, params)
    assert sorted(i for group in plan.groups for i in group) == [0, 1, 2]
    for group, batch in zip(plan.groups, plan.batches, strict=True):
        assert batch.shape[0] == len(group) and batch.shape[1:3] == (3, params.height)
    keys = ["", "a", "b", "c"]
    # Crop i reads as the i-th key, confidently, except crop 2 which is weak.
    results = []
    for group in plan.groups:
        best = np.array([[0, i + 1, 0] for i in group])
        probs = np.array([[1.0, 0.9 if i != 2 else 0.2, 1.0] for i in group], dtype=np.float32)
        results.append((best, probs))
    lines = finish_recognition(boxes, plan, results, keys, params)
    assert [line.text for line in lines] == ["b", "a"]  # reading order; the weak line dropped


# --- reading order ---------------------------------------------------------------------------


def test_reading_order_rows_then_columns() -> None:
    boxes = [
        _rect(300, 52, 400, 72),  # row 2, right (slightly lower)
        _rect(10, 10, 100, 30),  # row 1, left
        _rect(10, 50, 100, 70),  # row 2, left
        _rect(200, 8, 280, 28),  # row 1, right (slightly higher)
        _rect(10, 100, 380, 120),  # row 3
    ]
    assert reading_order(boxes) == [1, 3, 2, 0, 4]


def test_reading_order_of_nothing() -> None:
    assert reading_order([]) == []
