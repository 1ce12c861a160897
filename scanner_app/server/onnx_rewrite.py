"""Rewrites of the PP-OCR det and rec ONNX graphs to the tensors of the server contract.

Detection: a new input contract.DET_INPUT, the resized image as UINT8 [N, H, W, 3] (BGR), cast,
normalised with PaddleOCR's mean and std and transposed to the model's FP32 [N, 3, H, W] inside the
graph (a quarter of the bytes to move between steps and to a GPU); output replaced by
contract.DET_OUTPUT, the probability map as UINT8 (round(prob * 255), clipped to 0..255).
Recognition: input renamed to contract.REC_INPUT (height fixed to 48); outputs replaced by
contract.REC_INDICES (INT32 argmax over the classes) and contract.REC_PROBS (FP32 max probability),
except that a frame the blank wins while the space class keeps params.REC_SPACE_PROB reads as that
space: the last class's index, and as its probability the blank's and the space's together (the
model's confidence that no letter is there; the space's own share would mark every line with a
hedged space as doubtful, flag it amber and push it towards the drop score).
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from scanner_app import contract
from scanner_app.ocr.params import DET_MEAN, DET_STD, REC_POINT_PROB, REC_SPACE_PROB

REC_HEIGHT = 48
CLS_HEIGHT, CLS_WIDTH = 48, 192  # the text-line classifier's input (PaddleOCR's cls_image_shape)
# Bumped whenever the rewritten tensors change, so that `models fetch` re-places older files.
REWRITE_VERSION = 5
_PREFIX = "scanner_app"


class RewriteError(ValueError):
    """The graph does not have the shape a PP-OCR det or rec model should have."""


def opset_version(model: onnx.ModelProto) -> int:
    """Version of the default (ai.onnx) operator set the model imports."""
    for entry in model.opset_import:
        if entry.domain in ("", "ai.onnx"):
            return entry.version
    raise RewriteError("the model imports no ai.onnx operator set")


def _dims(value: onnx.ValueInfoProto) -> list[int | str]:
    return [d.dim_value if d.HasField("dim_value") else d.dim_param for d in value.type.tensor_type.shape.dim]


class _Names:
    """Hands out node and tensor names that the graph does not use yet."""

    def __init__(self, graph: onnx.GraphProto) -> None:
        self.used = {v.name for v in (*graph.input, *graph.output, *graph.value_info, *graph.initializer)}
        for node in graph.node:
            self.used.update((node.name, *node.input, *node.output))

    def __call__(self, base: str) -> str:
        name, i = f"{_PREFIX}/{base}", 1
        while name in self.used:
            name, i = f"{_PREFIX}/{base}_{i}", i + 1
        self.used.add(name)
        return name


def _rename_uses(graph: onnx.GraphProto, old: str, new: str) -> None:
    """Rename tensor `old` to `new` in every node input, also inside subgraphs."""
    for node in graph.node:
        for i, name in enumerate(node.input):
            if name == old:
                node.input[i] = new
        for attr in node.attribute:
            subgraphs = [attr.g, *attr.graphs] if attr.HasField("g") else attr.graphs
            for sub in subgraphs:
                _rename_uses(sub, old, new)
    for value in graph.value_info:
        if value.name == old:
            value.name = new


def _image_input(model: onnx.ModelProto) -> onnx.ValueInfoProto:
    """The graph's single (non-initializer) input, checked to be FP32 [N, 3, H, W]."""
    graph = model.graph
    initializers = {t.name for t in graph.initializer}
    inputs = [v for v in graph.input if v.name not in initializers]
    if len(inputs) != 1:
        raise RewriteError(f"expected one graph input, found {len(inputs)}: {[v.name for v in inputs]}")
    value = inputs[0]
    if value.type.tensor_type.elem_type != TensorProto.FLOAT:
        raise RewriteError(f"input {value.name!r} is not FP32")
    shape = value.type.tensor_type.shape.dim
    if len(shape) != 4 or (shape[1].HasField("dim_value") and shape[1].dim_value != 3):
        raise RewriteError(f"input {value.name!r} is not [N, 3, H, W]: {_dims(value)}")
    return value


def _rename_input(model: onnx.ModelProto, new: str) -> onnx.ValueInfoProto:
    """Rename the graph's single (non-initializer) input to `new` and return it."""
    graph = model.graph
    value = _image_input(model)
    old = value.name
    if old != new:
        if new in _Names(graph).used:
            raise RewriteError(f"the graph already uses the name {new!r}")
        _rename_uses(graph, old, new)
        value.name = new
    return value


def _single_output(model: onnx.ModelProto, rank: int) -> onnx.ValueInfoProto:
    outputs = model.graph.output
    if len(outputs) != 1:
        raise RewriteError(f"expected one graph output, found {len(outputs)}: {[v.name for v in outputs]}")
    if outputs[0].type.tensor_type.elem_type != TensorProto.FLOAT:
        raise RewriteError(f"output {outputs[0].name!r} is not FP32")
    if len(outputs[0].type.tensor_type.shape.dim) != rank:
        raise RewriteError(f"output {outputs[0].name!r} is not of rank {rank}: {_dims(outputs[0])}")
    return outputs[0]


def _const(graph: onnx.GraphProto, names: _Names, base: str, value: np.ndarray | np.generic) -> str:
    name = names(base)
    graph.initializer.append(numpy_helper.from_array(np.asarray(value), name))
    return name


def _node(graph: onnx.GraphProto, names: _Names, op: str, inputs: list[str], output: str, **attrs) -> str:
    graph.node.append(helper.make_node(op, inputs, [output], name=names(op), **attrs))
    return output


def _output_info(name: str, elem_type: int, dims: list[int | str]) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem_type, [d if d != "" else None for d in dims])


def rewrite_detection(model: onnx.ModelProto) -> onnx.ModelProto:
    """Copy of a DB detection model with contract.DET_INPUT in and UINT8 contract.DET_OUTPUT out."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    graph = out.graph
    _prepend_normalisation(out)
    prob = _single_output(out, rank=4)
    dims = _dims(prob)
    names = _Names(graph)
    if contract.DET_OUTPUT in names.used:
        raise RewriteError(f"the graph already uses the name {contract.DET_OUTPUT!r}")
    f32 = np.float32
    c255 = _const(graph, names, "c255", f32(255.0))
    x = _node(graph, names, "Mul", [prob.name, c255], names("scaled"))
    x = _node(graph, names, "Add", [x, _const(graph, names, "c_half", f32(0.5))], names("rounded"))
    if opset_version(out) >= 11:
        x = _node(graph, names, "Clip", [x, _const(graph, names, "c0", f32(0.0)), c255], names("clipped"))
    else:
        x = _node(graph, names, "Clip", [x], names("clipped"), min=0.0, max=255.0)
    _node(graph, names, "Cast", [x], contract.DET_OUTPUT, to=TensorProto.UINT8)
    del graph.output[:]
    graph.output.append(_output_info(contract.DET_OUTPUT, TensorProto.UINT8, dims))
    return out


def _prepend_normalisation(model: onnx.ModelProto) -> None:
    """Replace the FP32 NCHW input by contract.DET_INPUT, UINT8 NHWC, normalised in the graph."""
    graph = model.graph
    value = _image_input(model)
    names = _Names(graph)
    if contract.DET_INPUT in names.used:
        raise RewriteError(f"the graph already uses the name {contract.DET_INPUT!r}")
    batch, _, height, width = _dims(value)
    mean = np.array(DET_MEAN, dtype=np.float32) * 255.0
    inv_std = 1.0 / (np.array(DET_STD, dtype=np.float32) * 255.0)
    prefix = onnx.GraphProto()
    x = _node(prefix, names, "Cast", [contract.DET_INPUT], names("as_float"), to=TensorProto.FLOAT)
    x = _node(prefix, names, "Sub", [x, _const(graph, names, "det_mean", mean)], names("centred"))
    x = _node(prefix, names, "Mul", [x, _const(graph, names, "det_inv_std", inv_std)], names("normalised"))
    _node(prefix, names, "Transpose", [x], value.name, perm=[0, 3, 1, 2])
    for node in reversed(prefix.node):
        graph.node.insert(0, node)
    graph.input.remove(value)
    new_input = _output_info(contract.DET_INPUT, TensorProto.UINT8, [batch, height, width, 3])
    graph.input.insert(0, new_input)


def rec_class_count(model: onnx.ModelProto) -> int:
    """Number of classes C of an (original) rec model's [N, T, C] output."""
    dim = _single_output(model, rank=3).type.tensor_type.shape.dim[2]
    if not dim.HasField("dim_value") or dim.dim_value <= 0:
        raise RewriteError("the rec model's class dimension is not fixed")
    return dim.dim_value


def ends_in_softmax(model: onnx.ModelProto) -> bool:
    """Whether the rec model's [N, T, C] output is made by a Softmax over the class axis."""
    output = _single_output(model, rank=3).name
    producer = next((n for n in model.graph.node if output in n.output), None)
    if producer is None or producer.op_type != "Softmax":
        return False
    default_axis = -1 if opset_version(model) >= 13 else 1
    axis = next((helper.get_attribute_value(a) for a in producer.attribute if a.name == "axis"), default_axis)
    if axis not in (2, -1):
        raise RewriteError(f"the rec output is a Softmax over axis {axis}, not over the classes")
    return True


def rewrite_recognition(model: onnx.ModelProto, point_index: int | None = None) -> onnx.ModelProto:
    """Copy of a CTC rec model with contract.REC_INPUT in, REC_INDICES and REC_PROBS out.

    With ``point_index`` (the class of "."), a frame read as a space where "." keeps
    params.REC_POINT_PROB reads as that point.
    """
    out = onnx.ModelProto()
    out.CopyFrom(model)
    graph = out.graph
    height = _rename_input(out, contract.REC_INPUT).type.tensor_type.shape.dim[2]
    if height.HasField("dim_value") and height.dim_value != REC_HEIGHT:
        raise RewriteError(f"the rec input height is {height.dim_value}, not {REC_HEIGHT}")
    height.Clear()
    height.dim_value = REC_HEIGHT
    classes = rec_class_count(out)
    output = _single_output(out, rank=3)
    dims = _dims(output)[:2]
    names = _Names(graph)
    for name in (contract.REC_INDICES, contract.REC_PROBS):
        if name in names.used:
            raise RewriteError(f"the graph already uses the name {name!r}")
    probs = output.name
    if not ends_in_softmax(out):
        probs = _node(graph, names, "Softmax", [probs], names("softmax"), axis=2)
    best = _node(graph, names, "ArgMax", [probs], names("argmax"), axis=2, keepdims=0)
    if opset_version(out) >= 18:
        axes = _const(graph, names, "axes", np.array([2], dtype=np.int64))
        top = _node(graph, names, "ReduceMax", [probs, axes], names("max_prob"), keepdims=0)
    else:
        top = _node(graph, names, "ReduceMax", [probs], names("max_prob"), axes=[2], keepdims=0)
    space_index = _const(graph, names, "space_index", np.array(classes - 1, dtype=np.int64))
    space = _node(graph, names, "Gather", [probs, space_index], names("space_prob"), axis=2)
    zero = _const(graph, names, "blank_index", np.array(0, dtype=np.int64))
    floor = _const(graph, names, "space_floor", np.array(REC_SPACE_PROB, dtype=np.float32))
    blank = _node(graph, names, "Equal", [best, zero], names("is_blank"))
    hedged = _node(graph, names, "Greater", [space, floor], names("space_kept"))
    read_space = _node(graph, names, "And", [blank, hedged], names("read_space"))
    index = _node(graph, names, "Where", [read_space, space_index, best], names("index"))
    if point_index is not None:
        index = _hedged_point(graph, names, probs, index, space_index, point_index)
    _node(graph, names, "Cast", [index], contract.REC_INDICES, to=TensorProto.INT32)
    no_letter = _node(graph, names, "Add", [top, space], names("no_letter_prob"))  # top is the blank's here
    _node(graph, names, "Where", [read_space, no_letter, top], contract.REC_PROBS)
    del graph.output[:]
    graph.output.extend(
        [
            _output_info(contract.REC_INDICES, TensorProto.INT32, dims),
            _output_info(contract.REC_PROBS, TensorProto.FLOAT, dims),
        ]
    )
    return out


def _hedged_point(
    graph: onnx.GraphProto, names: _Names, probs: str, index: str, space_index: str, point_index: int
) -> str:
    """``index`` with each space frame where the point class keeps REC_POINT_PROB read as the point."""
    point = _const(graph, names, "point_index", np.array(point_index, dtype=np.int64))
    point_prob = _node(graph, names, "Gather", [probs, point], names("point_prob"), axis=2)
    point_floor = _const(graph, names, "point_floor", np.array(REC_POINT_PROB, dtype=np.float32))
    is_space = _node(graph, names, "Equal", [index, space_index], names("is_space"))
    point_kept = _node(graph, names, "Greater", [point_prob, point_floor], names("point_kept"))
    read_point = _node(graph, names, "And", [is_space, point_kept], names("read_point"))
    return _node(graph, names, "Where", [read_point, point, index], names("index_point"))


def rewrite_classifier(model: onnx.ModelProto) -> onnx.ModelProto:
    """Copy of a PP-OCR text-line orientation classifier with contract.CLS_INPUT in, CLS_PROBS out."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    graph = out.graph
    dims = _rename_input(out, contract.CLS_INPUT).type.tensor_type.shape.dim
    for dim, size in zip(dims[2:], (CLS_HEIGHT, CLS_WIDTH), strict=True):
        dim.Clear()
        dim.dim_value = size
    output = _single_output(out, rank=2)
    if contract.CLS_PROBS in _Names(graph).used:
        raise RewriteError(f"the graph already uses the name {contract.CLS_PROBS!r}")
    classes = _dims(output)[1]
    if classes != 2:
        raise RewriteError(f"the classifier has {classes} classes, not 2 (0 and 180 degrees)")
    _node(graph, _Names(graph), "Identity", [output.name], contract.CLS_PROBS)
    del graph.output[:]
    graph.output.append(_output_info(contract.CLS_PROBS, TensorProto.FLOAT, [_dims(output)[0], 2]))
    return out
