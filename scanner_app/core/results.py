"""Recognition results: dataclasses and the JSON of `scanner-app scan --json`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TextLine:
    """One recognised line: a quadrilateral in image pixels (clockwise from top-left)."""

    box: tuple[tuple[float, float], ...]
    text: str
    score: float

    def to_json(self) -> dict[str, Any]:
        return {
            "box": [[round(x, 1), round(y, 1)] for x, y in self.box],
            "text": self.text,
            "score": self.score,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TextLine:
        return cls(
            box=tuple((float(x), float(y)) for x, y in data["box"]),
            text=data["text"],
            score=float(data["score"]),
        )


@dataclass(frozen=True)
class PageResult:
    """Everything the server read on one image, in reading order."""

    image: str
    width: int
    height: int
    lines: tuple[TextLine, ...] = field(default_factory=tuple)
    elapsed_ms: float = 0.0
    # Degrees the image must turn clockwise to be upright (the server read it upright); boxes
    # stay in the pixels of the image as sent.
    orientation: int = 0

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "image": self.image,
            "width": self.width,
            "height": self.height,
            "lines": [line.to_json() for line in self.lines],
            "elapsed_ms": round(self.elapsed_ms, 2),
            "orientation": self.orientation,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PageResult:
        return cls(
            image=data["image"],
            width=int(data["width"]),
            height=int(data["height"]),
            lines=tuple(TextLine.from_json(line) for line in data["lines"]),
            elapsed_ms=float(data.get("elapsed_ms", 0.0)),
            orientation=int(data.get("orientation", 0)),
        )
