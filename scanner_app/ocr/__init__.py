"""The OCR math of the PP-OCR pipeline: plain numpy and OpenCV, shared by the Triton Python
models, the serial baseline server and the tests."""

from scanner_app.ocr.params import DetParams, RecParams

__all__ = ["DetParams", "RecParams"]
