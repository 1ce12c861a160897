"""UI languages: which one to use (settings, else the system locale) and installing its translators."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QObject, QSettings, QTranslator

import scanner_app
from scanner_app.gui.i18n.languages import LANGUAGES

I18N_DIR = Path(scanner_app.__file__).resolve().parent.parent / "resources" / "i18n"
CATALOG = "scanner_app"
SETTING = "ui/language"


def choose_language(configured: str | None, system_locale: str) -> str:
    """The configured language when known, else the system locale's ("zh_*" -> zh_CN), else English."""
    if configured in LANGUAGES:
        return configured
    return "zh_CN" if system_locale.lower().startswith("zh") else "en"


def configured_language() -> str:
    """The language from QSettings, else from the system locale."""
    value = QSettings().value(SETTING, "")
    return choose_language(str(value) if value else None, QLocale.system().name())


def catalog_path(language: str) -> Path:
    return I18N_DIR / f"{CATALOG}_{language}.qm"


class Translations(QObject):
    """Holds the installed translators; ``install`` swaps them (Qt then sends LanguageChange)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._installed: list[QTranslator] = []
        self.language = "en"

    def install(self, language: str) -> bool:
        """Use ``language`` from now on; False when its catalogue is missing (English stays)."""
        for translator in self._installed:
            QCoreApplication.removeTranslator(translator)
        self._installed = []
        self.language = language if language in LANGUAGES else "en"
        if self.language == "en":  # English needs its catalogue only for plural forms ("1 file", "2 files")
            plurals = QTranslator(self)
            if plurals.load(str(catalog_path("en"))):
                self._installed.append(plurals)
                QCoreApplication.installTranslator(plurals)
            QLocale.setDefault(QLocale(QLocale.Language.English))
            return True
        ours = QTranslator(self)
        if not ours.load(str(catalog_path(self.language))):
            self.language = "en"
            return False
        qt_own = QTranslator(self)  # Qt's own strings (standard buttons, file dialogs)
        qt_folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        if qt_own.load(f"qtbase_{self.language}", qt_folder):
            self._installed.append(qt_own)
        self._installed.append(ours)
        for translator in self._installed:
            QCoreApplication.installTranslator(translator)
        QLocale.setDefault(QLocale(self.language))
        return True
