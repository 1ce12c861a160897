"""The single-document viewer reads a PDF page's real text layer and an e-invoice exactly, as the batch
does (no server needed), says so on screen, and OCRs the PDF page when "Always OCR PDF pages" is on
(a remembered setting; the real embedded Triton then reads the rendered page)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from reportlab.pdfgen import canvas

from scanner_app.gui.document.controller import FORCE_OCR_SETTING
from scanner_app.samples.einvoice import TRUTH, einvoice_ofd, einvoice_xml
from tests.helpers.gui_shell import RECOGNIZE_TIMEOUT_MS, main_window

LINES = ["KEDAI RUNCIT MAJU SDN BHD", "Invoice No: INV-2018/0042", "Date: 25/12/2018", "TOTAL RM 19.90"]


@pytest.fixture
def text_pdf(tmp_path: Path) -> Path:
    """A one-page PDF whose text is a real text layer (Helvetica), as an accounting system writes it."""
    path = tmp_path / "text-layer.pdf"
    c = canvas.Canvas(str(path), pagesize=(300.0, 420.0))
    c.setFont("Helvetica", 14)
    for i, text in enumerate(LINES):
        c.drawString(20, 380 - 30 * i, text)
    c.showPage()
    c.save()
    return path


def test_a_text_layer_pdf_is_read_exactly_without_a_server(qtbot, text_pdf: Path, tmp_path: Path) -> None:
    with main_window(qtbot, [], tmp_path / "session", wait_ready=False) as window:
        with qtbot.waitSignal(window.controller.recognized, timeout=30_000) as shown:
            window.open_paths([text_pdf])
        page = shown.args[0]
        assert page.source == "text-layer"
        assert [line.text for line in page.lines] == LINES
        assert window.viewer.shows_own_text
        assert "not OCR" in window.statusBar().currentMessage()
        stored = window.document.stored
        assert stored is not None and stored.store.page(stored.page_id).result.source == "text-layer"


@pytest.mark.parametrize("kind", ["xml", "ofd"])
def test_an_einvoice_is_read_exactly_even_with_ocr_forced(qtbot, tmp_path: Path, kind: str) -> None:
    path = tmp_path / f"fapiao.{kind}"
    path.write_bytes(einvoice_xml() if kind == "xml" else einvoice_ofd())
    QSettings().setValue(FORCE_OCR_SETTING, True)
    with main_window(qtbot, [], tmp_path / "session", wait_ready=False) as window:
        assert window.main_actions.actions["force_ocr"].isChecked()  # the setting is remembered
        with qtbot.waitSignal(window.controller.recognized, timeout=30_000) as shown:
            window.open_paths([path])
        page = shown.args[0]
        assert page.source == "text-layer" and window.viewer.shows_own_text
        assert dict(page.exact_fields)["total"] == TRUTH["total"]
        assert any(TRUTH["number"] in line.text for line in page.lines)


def test_force_ocr_sends_the_pdf_page_to_the_server_and_back(
    qtbot, triton, text_pdf: Path, tmp_path: Path
) -> None:
    with main_window(qtbot, [triton.grpc_url], tmp_path / "session") as window:
        with qtbot.waitSignal(window.controller.recognized, timeout=30_000) as shown:
            window.open_paths([text_pdf])
        assert shown.args[0].source == "text-layer"
        force_ocr = window.main_actions.actions["force_ocr"]
        with qtbot.waitSignal(window.controller.recognized, timeout=RECOGNIZE_TIMEOUT_MS) as shown:
            force_ocr.trigger()  # on: the page shown is OCR'd now
        page = shown.args[0]
        assert page.source == "ocr" and not window.viewer.shows_own_text
        read = " ".join(line.text for line in page.lines)
        assert "INV-2018" in read and "19.90" in read  # the server read the rendered page
        assert QSettings().value(FORCE_OCR_SETTING, type=bool) is True
        with qtbot.waitSignal(window.controller.recognized, timeout=30_000) as shown:
            force_ocr.trigger()  # off again: back to the exact text
        assert [line.text for line in shown.args[0].lines] == LINES
        assert window.viewer.shows_own_text
