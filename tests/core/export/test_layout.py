"""Batch exports (`scan --out`) mirror the input folder tree; the flat layout and name templates stay
available. The store holds real image files with page results written here (the layout under test
does not depend on what the server read; the server paths are tested in test_watch.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scanner_app.cli import build_parser
from scanner_app.commands.layout_args import layout_of
from scanner_app.core.batch.export import export_store
from scanner_app.core.export.layout import OutputLayout
from scanner_app.core.results import PageResult, TextLine
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore
from scanner_app.samples.documents import encode, render_text_lines


def _line(text: str, y: float) -> TextLine:
    return TextLine(((10.0, y), (380.0, y), (380.0, y + 20), (10.0, y + 20)), text, 0.98)


@pytest.fixture
def store(tmp_path: Path):
    inbox = tmp_path / "in"
    files = {
        inbox / "2026" / "March" / "receipt.png": ("CORNER SHOP", "Date: 15/03/2026", "TOTAL 12.50"),
        inbox / "2026" / "April" / "receipt.png": ("CORNER SHOP", "Date: 15/03/2026", "TOTAL 12.50"),
        inbox / "taxi.png": ("CITY TAXI", "Date: 02/04/2026", "TOTAL 23.40"),
    }
    with BatchStore(tmp_path / "out" / STORE_NAME) as store:
        for i, (path, texts) in enumerate(files.items()):
            path.parent.mkdir(parents=True, exist_ok=True)
            image = render_text_lines([*texts, f"copy {i}"]).image
            path.write_bytes(encode(image))
            (record,) = store.add_files([path])
            lines = tuple(_line(t, 20.0 + 30 * n) for n, t in enumerate(texts))
            store.save_page(record, 0, PageResult(path.name, image.width, image.height, lines, 5.0))
            store.mark_done(record, 1)
        yield store


def test_per_file_pdfs_mirror_the_input_tree_by_default(store: BatchStore, tmp_path: Path) -> None:
    out = tmp_path / "out"
    written = export_store(store, out, ["pdf", "txt"], layout=OutputLayout("tree"))
    pdfs = {p.relative_to(out).as_posix() for p in written if p.suffix == ".pdf"}
    assert pdfs == {"pdf/2026/March/receipt.pdf", "pdf/2026/April/receipt.pdf", "pdf/taxi.pdf"}
    assert (out / "results.txt").exists()


def test_the_flat_layout_keeps_the_old_names(store: BatchStore, tmp_path: Path) -> None:
    out = tmp_path / "flat"
    written = export_store(store, out, ["pdf"], layout=OutputLayout("flat"))
    assert sorted(p.relative_to(out).as_posix() for p in written) == [
        "pdf/receipt.pdf", "pdf/receipt_2.pdf", "pdf/taxi.pdf"
    ]  # fmt: skip


def test_a_template_names_pdfs_from_the_fields_with_fields_on(store: BatchStore, tmp_path: Path) -> None:
    out = tmp_path / "named"
    written = export_store(store, out, ["pdf", "json"], fields=True,
                           layout=OutputLayout("flat", "{date}_{total}"))  # fmt: skip
    names = sorted(p.relative_to(out).as_posix() for p in written if p.suffix == ".pdf")
    assert names == ["pdf/2026-03-15_12.50.pdf", "pdf/2026-03-15_12.50_2.pdf", "pdf/2026-04-02_23.40.pdf"]
    assert '"fields"' in (out / "results.json").read_text(encoding="utf-8")


def test_scan_and_watch_take_the_layout_options() -> None:
    parser = build_parser()
    args = parser.parse_args(["scan", "in", "--layout", "flat", "--name", "{vendor}_{total}"])
    assert layout_of(args) == OutputLayout("flat", "{vendor}_{total}")
    assert layout_of(parser.parse_args(["watch", "in", "--out", "o"])) == OutputLayout("tree")
    with pytest.raises(SystemExit):
        parser.parse_args(["watch", "in", "--out", "o", "--name", "{colour}"])
