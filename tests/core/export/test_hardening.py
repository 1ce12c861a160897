"""Issue 17, point 5 on the app's side: the viewer's export (gui/document/export_job.py) of a source whose
file name is not valid UTF-8, read by the real server; the PDF is made from the real file."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from scanner_app.core.batch.runner import run_batch
from scanner_app.core.client.triton import OcrClient
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore
from scanner_app.gui.document.export_job import export_document
from scanner_app.server.embedded import EmbeddedServer
from tests.helpers.paths import SROIE_IMAGES

RECEIPTS = SROIE_IMAGES


def test_viewer_export_reads_a_source_whose_name_is_not_utf8(triton: EmbeddedServer, tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    source = Path(os.fsdecode(os.fsencode(inputs) + b"/re\xe7u-latin1.jpg"))  # Python keeps the bytes
    shutil.copy(sorted(RECEIPTS.glob("*.jpg"))[0], source)
    out = tmp_path / "out"
    with OcrClient(triton.grpc_url) as client:
        summary = run_batch([inputs], out, client.recognize, jobs=1)
    assert [p.name for p in summary.ok] == [source.name]
    with BatchStore(out / STORE_NAME) as store:
        written = export_document(store, source, tmp_path / "export", ["pdf", "json"])
    pdf = next(p for p in written if p.suffix == ".pdf")
    document = pdfium.PdfDocument(pdf)
    assert len(document) == 1
    assert document[0].get_textpage().get_text_range().strip()  # the text layer of the real page
    assert "re\ufffdu-latin1.jpg" in next(p for p in written if p.suffix == ".json").read_text("utf-8")


def test_viewer_export_of_a_file_never_read_names_it(tmp_path: Path) -> None:
    source = Path(os.fsdecode(os.fsencode(tmp_path) + b"/re\xe7u.jpg"))
    with BatchStore(tmp_path / STORE_NAME) as store, pytest.raises(ValueError, match=r"re\ufffdu\.jpg"):
        export_document(store, source, tmp_path / "export", ["pdf"])
