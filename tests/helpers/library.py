"""Receipts for the library tests: rendered till receipts written as image files, with the reading a
perfect reader gives (scanner_app.samples), and pages built from them as a way in hands them over."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

from PIL import Image

from scanner_app.core.library.ingest import PageIn
from scanner_app.core.results import PageResult, TextLine
from scanner_app.samples.documents import RenderedDoc, distinct_receipts, encode
from scanner_app.samples.invoices import perfect_page


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_receipts(folder: Path, n: int, seed: int = 0) -> list[tuple[Path, PageResult, RenderedDoc]]:
    """``n`` distinct receipts as PNG files in ``folder``, each with its perfect reading."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i, doc in enumerate(distinct_receipts(n, seed)):
        path = folder / f"receipt-{seed}-{i}.png"
        path.write_bytes(encode(doc.image))
        out.append((path, perfect_page(doc, path.name), doc))
    return out


def page_in(
    path: Path, result: PageResult, way_in: str = "scan", index: int = 0, batch: str | None = None
) -> PageIn:
    return PageIn(path, sha256(path), index, result, way_in, batch)


def turned(path: Path, result: PageResult, out: Path) -> tuple[Path, PageResult]:
    """The receipt turned 90 degrees clockwise (as a phone held sideways): the image as sent, and the
    reading a server gives of it, boxes in the turned image's pixels, orientation 270 (turn it back)."""
    image = Image.open(path).transpose(Image.Transpose.ROTATE_270)  # 90 clockwise
    image.save(out)
    h = result.height

    def turn(box: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
        return tuple((h - y, x) for x, y in box)

    lines = tuple(TextLine(turn(ln.box), ln.text, ln.score) for ln in result.lines)
    return out, replace(
        result, image=out.name, width=image.width, height=image.height, lines=lines, orientation=270
    )


def rescaled(
    path: Path, result: PageResult, out: Path, scale: float, quality: int = 70
) -> tuple[Path, PageResult]:
    """The receipt at another resolution, recompressed as JPEG (another DPI, another scanner)."""
    image = Image.open(path).convert("RGB")
    image = image.resize((round(image.width * scale), round(image.height * scale)), Image.Resampling.LANCZOS)
    image.save(out, "JPEG", quality=quality)
    return out, replace(result.rescaled(scale), image=out.name, width=image.width, height=image.height)


def misread(result: PageResult, every: int = 5) -> PageResult:
    """The reading with a character misread on every ``every``-th line (another image, another OCR)."""
    swap = str.maketrans({"o": "0", "l": "1", "e": "c", "S": "5"})
    lines = tuple(
        TextLine(ln.box, ln.text.translate(swap) if i % every == 0 else ln.text, ln.score)
        for i, ln in enumerate(result.lines)
    )
    return replace(result, lines=lines)


def text_page(folder: Path, name: str, texts: list[str]) -> tuple[Path, PageResult]:
    """A file of its own (bytes unique to ``name``) and a reading of ``texts``, one line each."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(f"not an image: {name}".encode())
    lines = tuple(
        TextLine(
            ((20.0, 40.0 * i + 10), (400.0, 40.0 * i + 10), (400.0, 40.0 * i + 40), (20.0, 40.0 * i + 40)),
            t,
            0.99,
        )
        for i, t in enumerate(texts)
    )
    return path, PageResult(name, 640, 40 * len(texts) + 60, lines)
