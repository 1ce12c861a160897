"""Triton Python step ocr_postprocess: the code lives in scanner_app.steps.postprocess."""

from scanner_app.steps.postprocess import TritonPythonModel

__all__ = ["TritonPythonModel"]
