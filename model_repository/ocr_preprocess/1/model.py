"""Triton Python step ocr_preprocess: the code lives in scanner_app.steps.preprocess."""

from scanner_app.steps.preprocess import TritonPythonModel

__all__ = ["TritonPythonModel"]
