"""English and Simplified Chinese UI: the language chosen, the catalogue loaded, a live switch."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt

from scanner_app.gui.i18n.translators import SETTING, Translations, catalog_path, choose_language
from tests.helpers.gui_shell import main_window


def test_language_follows_settings_then_the_system_locale() -> None:
    assert choose_language("zh_CN", "en_US") == "zh_CN"
    assert choose_language("en", "zh_CN") == "en"
    assert choose_language(None, "zh_TW") == "zh_CN"
    assert choose_language("", "de_DE") == "en"
    assert choose_language("klingon", "en_GB") == "en"


@pytest.fixture
def translations(qapp) -> Iterator[Translations]:
    holder = Translations()
    try:
        yield holder
    finally:
        holder.install("en")  # later tests see English again


def _menu_titles(window) -> list[str]:
    return [action.text() for action in window.menuBar().actions()]


def test_the_chinese_ui_loads_and_switches_live(qtbot, translations, tmp_path: Path) -> None:
    assert catalog_path("zh_CN").is_file(), "run scripts/update_translations.py"
    assert translations.install("zh_CN")
    with main_window(qtbot, ["127.0.0.1:9"], tmp_path / "session", wait_ready=False) as window:
        window.translations = translations
        assert _menu_titles(window)[0] == "文件(&F)"
        assert window.tabs.tabText(0) == "文档"
        header = window.results.model.headerData(1, Qt.Orientation.Horizontal)
        assert header == "文本"
        assert window.viewer.view_actions["zoom_in"].text() == "放大"
        english = window.main_actions.language_actions["en"]
        english.trigger()
        assert QSettings().value(SETTING) == "en"
        qtbot.waitUntil(lambda: _menu_titles(window)[0] == "&File")
        assert window.tabs.tabText(0) == "Document"
        assert window.viewer.view_actions["zoom_in"].text() == "Zoom in"
        assert window.results.filter_edit.placeholderText() == "Filter lines"
        window.main_actions.language_actions["zh_CN"].trigger()
        qtbot.waitUntil(lambda: _menu_titles(window)[0] == "文件(&F)")
        assert QSettings().value(SETTING) == "zh_CN"


def test_a_missing_catalogue_keeps_english(translations) -> None:
    assert translations.install("fr") is True and translations.language == "en"


def test_qt_own_dialog_buttons_are_chinese(qtbot, translations) -> None:
    """Qt's own strings (standard buttons, file dialogs) come from Qt's qtbase_zh_CN catalogue."""
    from PySide6.QtWidgets import QDialogButtonBox

    assert translations.install("zh_CN")
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel | QDialogButtonBox.StandardButton.Open)
    qtbot.addWidget(box)
    buttons = (QDialogButtonBox.StandardButton.Cancel, QDialogButtonBox.StandardButton.Open)
    texts = {box.button(b).text().replace("&", "") for b in buttons}
    assert texts == {"取消(C)", "打开(O)"} or texts == {"取消", "打开"}


# The core's English messages in the UI language (gui.i18n.core_text) -----------------------------------
CORE_ZH = {
    "empty file (0 bytes)": "空文件（0 字节）",
    "not an image or PDF (the content looks like text)": "不是图像或 PDF（内容看起来是文本）",
    "page {0} of {1}: ": "第 {0} 页（共 {1} 页）：",
    "server {0} is unavailable ({1})": "服务器 {0} 不可用（{1}）",
    "connection refused": "连接被拒绝",
    " (after {0} attempts)": "（尝试 {0} 次后）",
    "ready": "就绪",
    "File": "文件",
    "Total": "合计",
}


@pytest.fixture
def core_catalogue(qapp, tmp_path: Path) -> Iterator[None]:
    """A CoreText catalogue compiled here with the real lrelease (the app's zh_CN one gets these
    strings when the translations are merged; this keeps the test independent of that step)."""
    import subprocess
    import sys
    from xml.sax.saxutils import escape

    from PySide6.QtCore import QCoreApplication, QTranslator

    messages = "".join(
        f"<message><source>{escape(s)}</source><translation>{escape(t)}</translation></message>"
        for s, t in CORE_ZH.items()
    )
    ts = tmp_path / "core_zh_CN.ts"
    ts.write_text(f'<?xml version="1.0" encoding="utf-8"?><!DOCTYPE TS><TS version="2.1" language="zh_CN">'
                  f"<context><name>CoreText</name>{messages}</context></TS>", encoding="utf-8")  # fmt: skip
    qm = tmp_path / "core_zh_CN.qm"
    subprocess.run([str(Path(sys.executable).parent / "pyside6-lrelease"), str(ts), "-qm", str(qm)],
                   check=True, capture_output=True)  # fmt: skip
    translator = QTranslator()
    assert translator.load(str(qm))
    QCoreApplication.installTranslator(translator)
    yield
    QCoreApplication.removeTranslator(translator)


def test_core_failure_causes_and_grpc_errors_in_chinese(core_catalogue) -> None:
    from scanner_app.gui.i18n.core_text import sheet_headers, status_name, translated, with_original

    assert translated("/scans/empty.jpg: empty file (0 bytes)") == "/scans/empty.jpg: 空文件（0 字节）"
    assert translated("notes.png: not an image or PDF (content looks like text)") == (
        "notes.png: 不是图像或 PDF（内容看起来是文本）")  # fmt: skip
    page = translated("page 2 of 3: a.pdf: empty file (0 bytes)")
    assert page == "第 2 页（共 3 页）：a.pdf: 空文件（0 字节）"
    grpc = (
        "server 127.0.0.1:1 is unavailable: failed to connect to all addresses; last error: UNKNOWN: "
        "ipv4:127.0.0.1:1: Failed to connect to remote host: Connection refused (after 3 attempts)"
    )
    assert translated(grpc) == "服务器 127.0.0.1:1 不可用（连接被拒绝）（尝试 3 次后）"
    assert with_original(grpc).splitlines() == [translated(grpc), grpc]  # the English detail, for support
    assert translated("something the core never says") == "something the core never says"
    assert status_name("ready") == "就绪"
    headers = sheet_headers()
    assert headers[0] == "文件" and "合计" in headers


def test_english_ui_keeps_the_core_words_in_full(qapp) -> None:
    from scanner_app.gui.i18n.core_text import sheet_headers, status_name, translated

    grpc = "server 127.0.0.1:1 is unavailable: failed to connect to all addresses; Connection refused"
    assert translated(grpc) == grpc
    assert status_name("ready") == "ready"
    assert sheet_headers()[:3] == ("file", "vendor", "date")  # the CLI's names


def test_sheet_headers_parameter_of_the_writer(tmp_path: Path, core_catalogue) -> None:
    from openpyxl import load_workbook

    from scanner_app.core.export.reimbursement import COLUMNS, SheetRow, write_sheet
    from scanner_app.core.fields.model import InvoiceFields
    from scanner_app.gui.i18n.core_text import sheet_headers

    rows = [SheetRow("a.png", InvoiceFields())]
    book = load_workbook(write_sheet(rows, tmp_path / "zh.xlsx", headers=sheet_headers()))
    assert [c.value for c in book.active[1]][:1] == ["文件"]
    book = load_workbook(write_sheet(rows, tmp_path / "en.xlsx"))  # the default stays the CLI's names
    assert tuple(c.value for c in book.active[1]) == COLUMNS
    csv_text = write_sheet(rows, tmp_path / "zh.csv", headers=sheet_headers()).read_text(encoding="utf-8-sig")
    assert csv_text.splitlines()[0].split(",")[0] == "文件"
    with pytest.raises(ValueError):
        write_sheet(rows, tmp_path / "bad.csv", headers=("only one",))


def test_a_failed_batch_row_shows_its_cause_in_chinese(
    qtbot, translations, core_catalogue, tmp_path: Path
) -> None:
    """A real batch (no server needed: the file fails on reading) in the Chinese UI."""
    assert translations.install("zh_CN")
    folder = tmp_path / "receipts"
    folder.mkdir()
    (folder / "empty.jpg").write_bytes(b"")
    with main_window(qtbot, ["127.0.0.1:9"], tmp_path / "session", wait_ready=False) as window:
        panel = window.batch_panel
        window.open_paths([folder])
        qtbot.waitUntil(lambda: panel.totals.failed == 1, timeout=30_000)
        model = panel.table.model()
        cells = [(r, c) for r in range(model.rowCount()) for c in range(model.columnCount())]
        texts = [model.index(r, c).data() for r, c in cells]
        assert any(str(t).endswith("：空文件（0 字节）") for t in texts), texts  # no path: the row names it
        assert not any("empty file" in str(t) for t in texts)
