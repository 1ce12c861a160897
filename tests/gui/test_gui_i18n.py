"""English and Simplified Chinese UI: the language chosen, the catalogue loaded, a live switch."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gui_shell_helpers import main_window
from PySide6.QtCore import QSettings, Qt

from scanner_app.gui.i18n import SETTING, Translations, catalog_path, choose_language


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
