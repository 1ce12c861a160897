"""The searchable PDF needs no system font: it is written with every system font hidden, and its text
layer reads back exactly, Latin and Chinese (no server needed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium

LINES = [
    "Invoice INV-2024-00017", "Café crème 3.50 EUR", "发票号码 12345678", "价税合计（大写）壹佰元整",
    "Ж ☃ end",
]  # fmt: skip

# In a child process: refuse to open any font file but reportlab's own (an audit hook sees every
# open()), point fontconfig at an empty configuration, then write the PDF. The old export took
# DejaVu Sans from /usr/share/fonts (through the test-document renderer) and failed here.
CHILD = r"""
import json, os, sys
from pathlib import Path

import reportlab

BUNDLED = str(Path(reportlab.__file__).parent)
FONT_SUFFIXES = (".ttf", ".ttc", ".otf", ".pfb", ".afm", ".pcf", ".woff", ".woff2")
opened = []


def hide_system_fonts(event, args):
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.fsdecode(args[0])
        if path.lower().endswith(FONT_SUFFIXES):
            if not os.path.realpath(path).startswith(BUNDLED):
                raise PermissionError(f"system font hidden by the test: {path}")
            opened.append(path)


sys.addaudithook(hide_system_fonts)

from PIL import Image

from scanner_app.core.pdf.export import write_searchable_pdf
from scanner_app.core.results import PageResult, TextLine

lines = json.loads(sys.argv[2])
boxes = [((20.0, 20.0 + 50 * i), (600.0, 20.0 + 50 * i), (600.0, 60.0 + 50 * i), (20.0, 60.0 + 50 * i))
         for i in range(len(lines))]
result = PageResult("p.png", 640, 60 + 50 * len(lines),
                    tuple(TextLine(box, text, 0.9) for box, text in zip(boxes, lines)))
image = Image.new("RGB", (result.width, result.height), "white")
write_searchable_pdf([(image, result)], sys.argv[1])
print(json.dumps(opened))
"""


def test_pdf_written_with_system_fonts_hidden_reads_back(tmp_path: Path) -> None:
    empty = tmp_path / "fontconfig"
    empty.mkdir()
    (empty / "fonts.conf").write_text("<?xml version='1.0'?><fontconfig></fontconfig>\n", encoding="utf-8")
    env = {**os.environ, "FONTCONFIG_FILE": str(empty / "fonts.conf"), "FONTCONFIG_PATH": str(empty)}
    target = tmp_path / "hidden.pdf"
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(target), json.dumps(LINES)],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    opened = json.loads(done.stdout)
    assert [Path(p).name for p in opened] == ["Vera.ttf"]  # reportlab's own, and nothing else

    page = pdfium.PdfDocument(target)[0]
    assert page.get_textpage().get_text_range().splitlines() == LINES
    data = target.read_bytes()
    assert data.count(b"/FontFile2") == 1  # only the Vera subset is embedded
    assert b"/STSong-Light" in data  # the CJK lines reference the CID font by name


def test_pdf_search_finds_chinese_and_latin_words(tmp_path: Path) -> None:
    from PIL import Image

    from scanner_app.core.pdf.export import write_searchable_pdf
    from scanner_app.core.results import PageResult, TextLine

    box = ((10.0, 10.0), (400.0, 10.0), (400.0, 50.0), (10.0, 50.0))
    lower = tuple((x, y + 60) for x, y in box)
    lines = (TextLine(box, "合计 ¥1,234.00", 0.9), TextLine(lower, "Total", 0.9))
    result = PageResult("p.png", 420, 120, lines)
    path = write_searchable_pdf([(Image.new("RGB", (420, 120), "white"), result)], tmp_path / "s.pdf")
    textpage = pdfium.PdfDocument(path)[0].get_textpage()
    for word in ("合计", "1,234.00", "Total"):
        assert textpage.search(word).get_next() is not None, word
