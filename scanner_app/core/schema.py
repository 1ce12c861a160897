"""The JSON Schema (draft 2020-12) of one page as `scanner-app scan` writes it."""

from __future__ import annotations

from typing import Any

_POINT = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}

PAGE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://scanner-app.invalid/schemas/page.json",
    "title": "scanner-app page result",
    "type": "object",
    "required": ["image", "width", "height", "lines", "elapsed_ms"],
    "properties": {
        "image": {"type": "string", "description": "the source file (with #pN for a page of a PDF or TIFF)"},
        "width": {"type": "integer", "minimum": 1},
        "height": {"type": "integer", "minimum": 1},
        "elapsed_ms": {"type": "number", "minimum": 0},
        "page": {"type": "integer", "minimum": 1, "description": "1-based page number in multi-page files"},
        "orientation": {
            "enum": [0, 90, 180, 270],
            "description": "degrees the image must turn clockwise to be upright (it was read upright)",
        },
        "source": {
            "enum": ["ocr", "text-layer"],
            "description": "where the lines come from: OCR, or a PDF page's own text layer (exact)",
        },
        "receipts": {
            "type": "array",
            "description": "the documents on the page (one for an ordinary page), lines in reading order",
            "items": {
                "type": "object",
                "required": ["box", "lines"],
                "properties": {
                    "box": {"type": "array", "items": _POINT, "minItems": 4, "maxItems": 4},
                    "lines": {"type": "array", "items": {"type": "object"}},
                    "fields": {"type": "object"},
                },
            },
        },
        "lines": {
            "type": "array",
            "description": "recognised lines in reading order",
            "items": {
                "type": "object",
                "required": ["box", "text", "score"],
                "properties": {
                    "box": {
                        "type": "array",
                        "description": "corners in image pixels, clockwise from top-left",
                        "items": _POINT,
                        "minItems": 4,
                        "maxItems": 4,
                    },
                    "text": {"type": "string"},
                    "score": {"type": "number", "minimum": 0, "maximum": 1},
                },
            },
        },
    },
}
