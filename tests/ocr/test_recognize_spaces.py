"""A CTC frame the blank wins but where the space class keeps params.REC_SPACE_PROB reads as a space;
a frame read as a space where "." keeps params.REC_POINT_PROB reads as the point.

The rule lives in the placed rec graph (server/onnx_rewrite.rewrite_recognition), so the Triton step,
the in-process engine and the baseline all decode it the same way with plain ctc_decode.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from scanner_app import contract
from scanner_app.ocr.decode import decode_sized
from scanner_app.ocr.engine import plan_crops
from scanner_app.ocr.params import REC_POINT_PROB, REC_SPACE_PROB, RecParams
from scanner_app.ocr.recognize import crop_text_line, ctc_decode
from scanner_app.server import model_fetch, onnx_rewrite
from tests.helpers.paths import SROIE_IMAGES

KEYS = ["", "A", "B", " "]  # blank, two characters, the space class last (use_space_char)
DIGIT_KEYS = ["", "8", ".", " "]
RECEIPTS = SROIE_IMAGES


def _fixed_rec_model(frame_probs: np.ndarray, point_index: int | None = None) -> bytes:
    """A rec-shaped model (x [N, 3, 48, W] -> softmax [N, T, C]) whose output is ``frame_probs``."""
    logits = np.log(frame_probs)[None].astype(np.float32)  # [1, T, C]
    nodes = [
        helper.make_node("ReduceMean", ["x"], ["m"], axes=[1, 2, 3], keepdims=0),
        helper.make_node("Mul", ["m", "zero"], ["m0"]),
        helper.make_node("Reshape", ["m0", "shape"], ["bias"]),  # [N, 1, 1] of zeros
        helper.make_node("Add", ["logits", "bias"], ["z"]),
        helper.make_node("Softmax", ["z"], ["probs"], axis=2),
    ]
    inits = [
        numpy_helper.from_array(logits, "logits"),
        numpy_helper.from_array(np.array(0.0, dtype=np.float32), "zero"),
        numpy_helper.from_array(np.array([-1, 1, 1], dtype=np.int64), "shape"),
    ]
    graph = helper.make_graph(
        nodes,
        "rec",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 48, "W"])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["N", *frame_probs.shape])],
        initializer=inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    return onnx_rewrite.rewrite_recognition(model, point_index).SerializeToString()


def _run(model: bytes) -> tuple[np.ndarray, np.ndarray]:
    session = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
    x = np.zeros((1, 3, 48, 16), dtype=np.float32)
    indices, probs = session.run([contract.REC_INDICES, contract.REC_PROBS], {contract.REC_INPUT: x})
    return indices[0], probs[0]


def test_a_hedged_space_between_characters_is_read_and_a_faint_one_is_not() -> None:
    hedged, faint = 0.10, 0.01
    assert faint < REC_SPACE_PROB < hedged
    frames = np.array(
        [
            [0.05, 0.90, 0.03, 0.02],  # A
            [0.80, 0.10, 1e-6, hedged],  # the blank wins; the space keeps more than the floor
            [0.90, 0.02, 0.08, 1e-6],  # the blank, no space at all
            [0.05, 0.03, 0.90, 0.02],  # B
            [0.90, 0.05, 0.04, faint],  # the blank, a space under the floor
            [0.05, 0.90, 0.03, 0.02],  # A
        ]
    )
    frames /= frames.sum(axis=1, keepdims=True)
    indices, probs = _run(_fixed_rec_model(frames))
    assert indices.tolist() == [1, 3, 0, 2, 0, 1]  # argmax alone: [1, 0, 0, 2, 0, 1]
    no_letter = frames[1, 0] + frames[1, 3]  # blank and space together: no letter is there
    np.testing.assert_allclose(probs[1], no_letter, rtol=1e-5)
    np.testing.assert_allclose(probs[0], frames[0].max(), rtol=1e-5)
    text, score = ctc_decode(indices, probs, KEYS)
    assert text == "A BA"
    assert score == pytest.approx(np.mean([frames[0, 1], no_letter, frames[3, 2], frames[5, 1]]), rel=1e-5)
    assert score > 0.85  # a hedged space does not make the line doubtful (its own share would: ~0.7)


def test_a_space_the_argmax_reads_is_kept_as_is() -> None:
    frames = np.array([[0.05, 0.90, 0.03, 0.02], [0.10, 0.10, 0.10, 0.70], [0.05, 0.03, 0.90, 0.02]])
    indices, probs = _run(_fixed_rec_model(frames))
    assert indices.tolist() == [1, 3, 2]
    np.testing.assert_allclose(probs, frames.max(axis=1), rtol=1e-5)


def test_a_space_where_the_point_keeps_its_floor_reads_as_the_point() -> None:
    kept, faint = 0.20, 0.01
    assert faint < REC_POINT_PROB < kept
    frames = np.array(
        [
            [0.05, 0.90, 0.03, 0.02],  # 8
            [0.10, 0.05, kept, 0.65],  # the space wins; the point keeps more than its floor
            [0.05, 0.90, 0.03, 0.02],  # 8
            [0.75, 0.05, kept, 0.10],  # the blank wins; the space rule reads a space, the point wins it
            [0.05, 0.90, 0.03, 0.02],  # 8
            [0.10, 0.05, faint, 0.84],  # the space wins; the point is under its floor: a space
            [0.05, 0.90, 0.03, 0.02],  # 8
            [0.90, 0.05, kept, 1e-6],  # the blank wins and no space is read: the point stays unread
            [0.05, 0.90, 0.03, 0.02],  # 8
        ]
    )
    frames /= frames.sum(axis=1, keepdims=True)
    point = DIGIT_KEYS.index(".")
    indices, probs = _run(_fixed_rec_model(frames, point))
    assert ctc_decode(indices, probs, DIGIT_KEYS)[0] == "8.8.8 88"
    without, _ = _run(_fixed_rec_model(frames))
    assert ctc_decode(without, probs, DIGIT_KEYS)[0] == "8 8 8 88"


def test_the_placed_recognizer_reads_the_space_after_a_colon_on_a_real_receipt(
    model_repository: Path,
) -> None:
    # sroie 007, the shop's phone line; its annotation: "Tel: 07-8263254 Fax: 07-8266888". Plain
    # argmax read "Tel:07-8263254 Fax: 07-8266888" (the blank beat the space after "Tel:").
    box = np.array([[93.2, 187.4], [373.1, 188.7], [373.0, 214.2], [93.1, 212.9]], dtype=np.float32)
    image = decode_sized((RECEIPTS / "007.jpg").read_bytes()).pixels
    params = RecParams()
    plan = plan_crops([crop_text_line(image, box, params.margin)], params)
    session = ort.InferenceSession(
        str(model_repository / model_fetch.REC_PATH), providers=["CPUExecutionProvider"]
    )
    indices, probs = session.run(
        [contract.REC_INDICES, contract.REC_PROBS], {contract.REC_INPUT: plan.batches[0]}
    )
    keys = json.loads((model_repository / model_fetch.KEYS_PATH).read_text(encoding="utf-8"))
    text, _ = ctc_decode(indices[0], probs[0], keys)
    assert text == "Tel: 07-8263254 Fax: 07-8266888"
