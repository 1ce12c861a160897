"""Triton Python step textline_orientation: the code lives in scanner_app.steps.onnx_runner."""

from scanner_app.steps.onnx_runner import TritonPythonModel

__all__ = ["TritonPythonModel"]
