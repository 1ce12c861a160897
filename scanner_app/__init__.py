"""scanner-app: receipt and invoice OCR against an NVIDIA Triton Inference Server."""

__version__ = "0.1.0"
