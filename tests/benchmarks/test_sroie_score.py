"""Unit tests of benchmarks/sroie_score.py on tiny synthetic data (no ../shared/data needed)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import BENCHMARKS

_PATH = BENCHMARKS / "sroie_score.py"
_spec = importlib.util.spec_from_file_location("sroie_score", _PATH)
assert _spec is not None and _spec.loader is not None
ss = importlib.util.module_from_spec(_spec)
sys.modules["sroie_score"] = ss  # dataclasses resolve annotations through sys.modules
_spec.loader.exec_module(ss)


def quad(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    """Axis-aligned quadrilateral, clockwise from top-left."""
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def line(x0: float, y0: float, x1: float, y1: float, text: str) -> ss.Line:
    return ss.Line(quad(x0, y0, x1, y1), text)


def test_iou() -> None:
    assert ss.iou((0, 0, 10, 10), (0, 0, 10, 10)) == 1.0
    assert ss.iou((0, 0, 10, 10), (10, 0, 20, 10)) == 0.0  # touching edges
    assert ss.iou((0, 0, 10, 10), (5, 0, 15, 10)) == pytest.approx(50 / 150)
    assert ss.rect(((3, 1), (9, 2), (8, 7), (2, 6))) == (2, 1, 9, 7)


def test_edit_distance() -> None:
    assert ss.edit_distance("", "") == 0
    assert ss.edit_distance("ABC", "") == 3
    assert ss.edit_distance("KITTEN", "SITTING") == 3
    assert ss.edit_distance("SITTING", "KITTEN") == 3


def test_match_threshold_and_one_to_one() -> None:
    gt = [line(0, 0, 100, 10, "A"), line(0, 20, 100, 30, "B")]
    # pred 0 overlaps gt 0 well (IoU 0.9); pred 1 also overlaps gt 0 (IoU 0.6) but gt 0 is taken;
    # pred 2 overlaps gt 1 too little (IoU 0.4).
    pred = [line(0, 0, 90, 10, "A"), line(0, 0, 60, 10, "A"), line(0, 20, 40, 30, "B")]
    assert ss.match(gt, pred) == [(0, 0)]
    # at exactly 0.5 the pair matches
    assert ss.match([line(0, 0, 10, 10, "X")], [line(0, 0, 5, 10, "X")]) == [(0, 0)]


def test_match_greedy_prefers_highest_iou() -> None:
    gt = [line(0, 0, 100, 10, "A"), line(0, 0, 80, 10, "B")]
    pred = [line(0, 0, 80, 10, "B")]  # IoU 0.8 with gt 0, 1.0 with gt 1
    assert ss.match(gt, pred) == [(1, 0)]


def test_score_image_counts() -> None:
    gt = [
        line(0, 0, 100, 10, "TOTAL 12.00"),
        line(0, 20, 100, 30, "CASH"),
        line(0, 40, 100, 50, "THANK YOU"),
    ]
    pred = [
        line(1, 0, 100, 10, "  total 12.00 "),  # exact after strip + upper
        line(0, 20, 100, 31, "CASK"),  # one substitution
        line(200, 0, 300, 10, "EXTRA"),  # false positive
    ]
    c = ss.score_image(gt, pred)
    assert (c.gt, c.pred, c.matched, c.exact) == (3, 3, 2, 1)
    assert c.edits == 1
    assert c.matched_gt_chars == len("TOTAL 12.00") + len("CASH")
    assert c.precision == pytest.approx(2 / 3)
    assert c.recall == pytest.approx(2 / 3)
    assert c.f1 == pytest.approx(2 / 3)
    assert c.cer == pytest.approx(1 / 15)
    assert c.exact_rate == pytest.approx(1 / 3)


def test_inner_whitespace_counts() -> None:
    c = ss.score_image([line(0, 0, 10, 10, "A B")], [line(0, 0, 10, 10, "AB")])
    assert (c.exact, c.edits) == (0, 1)


def test_empty_prediction() -> None:
    c = ss.score_image([line(0, 0, 10, 10, "A")], [])
    assert (c.matched, c.precision, c.recall, c.f1, c.exact_rate) == (0, 0.0, 0.0, 0.0, 0.0)
    assert c.cer == 1.0


def test_micro_average_pools_counts() -> None:
    a = ss.score_image([line(0, 0, 10, 10, "AAAAAAAAAA")], [line(0, 0, 10, 10, "AAAAAAAAAB")])
    b = ss.score_image([line(0, 0, 10, 10, "B")], [line(0, 0, 10, 10, "C")])
    t = ss.total({"a": a, "b": b})
    assert t.cer == pytest.approx(2 / 11)  # pooled, not the mean of 0.1 and 1.0
    assert (t.gt, t.pred, t.matched, t.exact) == (2, 2, 2, 0)


def test_files_roundtrip(tmp_path: Path) -> None:
    data = tmp_path / "sroie"
    (data / "box").mkdir(parents=True)
    # CRLF, and a transcript containing commas
    (data / "box" / "000.csv").write_bytes(
        b"0,0,100,0,100,10,0,10,RM 1,234.00\r\n0,20,100,20,100,30,0,30,X\r\n"
    )
    gt = ss.load_gt(data / "box" / "000.csv")
    assert [g.text for g in gt] == ["RM 1,234.00", "X"]
    pred_dir = tmp_path / "pred"
    pred_dir.mkdir()
    doc = {"lines": [{"box": [list(p) for p in quad(0, 0, 100, 10)], "text": "rm 1,234.00", "score": 0.9}]}
    (pred_dir / "000.json").write_text(json.dumps(doc))
    per_image = ss.score_dir(pred_dir, data)
    c = per_image["000"]
    assert (c.gt, c.pred, c.matched, c.exact, c.edits) == (2, 1, 1, 1, 0)
    assert "TOTAL" in ss.format_table(per_image)
    # a missing prediction file counts as an empty prediction
    (data / "box" / "001.csv").write_text("0,0,1,0,1,1,0,1,Y\n")
    assert ss.score_dir(pred_dir, data)["001"].pred == 0
