"""Recognition results: dataclasses and the JSON of `scanner-app scan --json`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scanner_app.contract import MARK_DOCUMENT
from scanner_app.core.page.receipt_frame import frame_transform


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
class Receipt:
    """One document found on a page (a receipt on a scanner bed): its outline and its lines."""

    box: tuple[tuple[float, float], ...]  # 4 points clockwise from top-left, page pixels
    lines: tuple[int, ...]  # indices into PageResult.lines, in the document's reading order


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
    # The documents on the page; empty means one document, the whole page (see documents()).
    receipts: tuple[Receipt, ...] = ()
    # Where the lines come from: "ocr" (the server), or "text-layer" (a PDF page's own text, exact).
    source: str = "ocr"
    # Payloads of the QR codes decoded on the page image (a fapiao's QR: fields.vat_qr).
    codes: tuple[str, ...] = ()
    # Field values read exactly from an e-invoice's own data (OFD / XML: core.einvoice.pages), by field name.
    exact_fields: tuple[tuple[str, str], ...] = ()
    # Notes in another ink than the print (a clerk's pen marks: ocr.line_ink), kept apart from the
    # document's lines: not in its text, fields or reading order; shown and kept in the JSON.
    marks: tuple[TextLine, ...] = ()

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)

    @property
    def upright_size(self) -> tuple[int, int]:
        """(width, height) of the page turned upright."""
        return (self.height, self.width) if self.orientation in (90, 270) else (self.width, self.height)

    def upright_box(self, box: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
        """A box of this page (pixels as sent) in the pixels of the page turned upright."""
        w, h = self.width, self.height
        turn = {
            90: lambda x, y: (h - y, x),
            180: lambda x, y: (w - x, h - y),
            270: lambda x, y: (y, w - x),
        }.get(self.orientation)
        return box if turn is None else tuple(turn(x, y) for x, y in box)

    def rescaled(self, scale: float) -> PageResult:
        """The result with every box (lines, receipts) multiplied by ``scale``."""
        if scale == 1.0:
            return self

        def box(points: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
            return tuple((x * scale, y * scale) for x, y in points)

        lines = tuple(TextLine(box(line.box), line.text, line.score) for line in self.lines)
        marks = tuple(TextLine(box(mark.box), mark.text, mark.score) for mark in self.marks)
        receipts = tuple(Receipt(box(r.box), r.lines) for r in self.receipts)
        return replace(self, lines=lines, receipts=receipts, marks=marks)

    def documents(self) -> tuple[Receipt, ...]:
        """The page's documents: those the server found, else the whole page as one."""
        if self.receipts:
            return self.receipts
        w, h = float(self.width), float(self.height)
        whole = ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h))
        return (Receipt(whole, tuple(range(len(self.lines)))),)

    def document_page(self, index: int) -> PageResult:
        """A page holding only document ``index``'s lines (for per-receipt fields and exports).

        On a page with several documents it is that document in its own upright frame (boxes turned
        by its tilt, from its outline's corner; the page's size is the outline's), as if scanned
        alone; an ordinary page keeps its own pixels.
        """
        receipt = self.documents()[index]
        lines = tuple(self.lines[i] for i in receipt.lines if 0 <= i < len(self.lines))
        if len(self.receipts) > 1:
            to_frame, (w, h) = frame_transform(self.upright_box(receipt.box))
            lines = tuple(
                TextLine(tuple(to_frame(x, y) for x, y in self.upright_box(ln.box)), ln.text, ln.score)
                for ln in lines
            )
            return PageResult(self.image, round(w), round(h), lines, self.elapsed_ms, 0, source=self.source)
        return PageResult(
            self.image, self.width, self.height, lines, self.elapsed_ms, self.orientation, source=self.source
        )

    def upright_lines(self) -> tuple[TextLine, ...]:
        """The lines with their boxes in the upright page's pixels (for layout and PDFs)."""
        if not self.orientation:
            return self.lines
        return tuple(TextLine(self.upright_box(line.box), line.text, line.score) for line in self.lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "image": self.image,
            "width": self.width,
            "height": self.height,
            "lines": [line.to_json() for line in self.lines],
            "elapsed_ms": round(self.elapsed_ms, 2),
            "orientation": self.orientation,
            "source": self.source,
            **({"codes": list(self.codes)} if self.codes else {}),
            **({"exact_fields": dict(self.exact_fields)} if self.exact_fields else {}),
            **({"marks": [mark.to_json() for mark in self.marks]} if self.marks else {}),
            "receipts": [
                {
                    "box": [[round(x, 1), round(y, 1)] for x, y in receipt.box],
                    "lines": [self.lines[i].to_json() for i in receipt.lines if 0 <= i < len(self.lines)],
                }
                for receipt in self.documents()
            ],
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
            receipts=_receipts_from_json(data.get("receipts") or []),
            source=_source_of(data),
            codes=tuple(str(c) for c in data.get("codes") or ()),
            exact_fields=tuple((str(k), str(v)) for k, v in (data.get("exact_fields") or {}).items()),
            marks=tuple(TextLine.from_json(mark) for mark in data.get("marks") or ()),
        )


def page_from_owned(
    name: str,
    size: tuple[int, int],
    lines: Sequence[TextLine],
    owners: Sequence[int],
    outlines: Sequence[tuple[tuple[float, float], ...]],
    elapsed_ms: float = 0.0,
    orientation: int = 0,
) -> PageResult:
    """The page from the pipeline's lines and each line's document (LINE_DOCUMENTS; empty: all on
    one), with the documents' outlines: lines of document MARK_DOCUMENT become the page's marks."""
    owned = list(owners) if len(owners) == len(lines) else [0] * len(lines)
    printed = [i for i, d in enumerate(owned) if d != MARK_DOCUMENT]
    marks = tuple(lines[i] for i, d in enumerate(owned) if d == MARK_DOCUMENT)
    receipts: tuple[Receipt, ...] = ()
    if len(outlines) > 1:  # one document is the whole page: the default
        receipts = tuple(
            Receipt(tuple(box), tuple(k for k, i in enumerate(printed) if owned[i] == d))
            for d, box in enumerate(outlines)
        )
    width, height = size
    page_lines = tuple(lines[i] for i in printed)
    return PageResult(name, width, height, page_lines, elapsed_ms, orientation, receipts, marks=marks)


SOURCES = ("ocr", "text-layer")


def _source_of(data: dict[str, Any]) -> str:
    """The page's "source"; a JSONL export record calls it "page_source" ("source" is the file there)."""
    for key in ("page_source", "source"):
        if data.get(key) in SOURCES:
            return str(data[key])
    return "ocr"


def _receipts_from_json(entries: list[dict[str, Any]]) -> tuple[Receipt, ...]:
    """Receipts of a page's JSON; their lines are consecutive runs of the page's lines."""
    if len(entries) < 2:
        return ()  # one document: the whole page (the default)
    receipts, start = [], 0
    for entry in entries:
        count = len(entry.get("lines", []))
        box = tuple((float(x), float(y)) for x, y in entry["box"])
        receipts.append(Receipt(box, tuple(range(start, start + count))))
        start += count
    return tuple(receipts)
