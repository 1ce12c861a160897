"""The main window's actions: texts (translatable), shortcuts and menus, in one table."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenuBar

from scanner_app.gui.i18n.translators import LANGUAGES

Key = QKeySequence.StandardKey
# name -> shortcut; the text of each action is set in MainActions.retranslate
SHORTCUTS: dict[str, QKeySequence | str | Key] = {
    "open": Key.Open,
    "open_folder": "Ctrl+Shift+O",
    "paste": Key.Paste,
    "camera": "Ctrl+Shift+K",
    "screen": "Ctrl+Shift+X",
    "scan_device": "Ctrl+Shift+A",  # "acquire", as TWAIN calls it
    "export": "Ctrl+E",
    "recognize_again": "F5",
    "force_ocr": "Ctrl+Shift+F",  # checkable: OCR PDF pages even when they carry a real text layer
    "previous_page": "Ctrl+PgUp",
    "next_page": "Ctrl+PgDown",
    "quit": "Ctrl+Q",
    "copy": Key.Copy,
    "review_next": "F8",  # the Batch tab's review: next field to check (as "next problem" in editors)
    "review_previous": "Shift+F8",
    "review_checked": "Ctrl+M",  # mark the selected receipt as checked
    "tab_document": "Alt+1",
    "tab_batch": "Alt+2",
    "tab_server": "Alt+3",
    "tab_stress": "Alt+4",
    "tab_fields": "Alt+5",
    "tab_library": "Alt+6",
    "shortcuts": Key.HelpContents,  # F1: the Help page with every shortcut
    "about": "Shift+F1",
}


class MainActions(QObject):
    """Creates the actions, connects them to ``slots`` (by name) and lays out the menus."""

    def __init__(self, parent: QObject, slots: dict[str, Callable[[], object]]) -> None:
        super().__init__(parent)
        self.actions: dict[str, QAction] = {}
        for name, keys in SHORTCUTS.items():
            action = QAction(parent)
            action.setShortcut(QKeySequence(keys))
            if name in slots:
                action.triggered.connect(slots[name])
            self.actions[name] = action
        self.language_group = QActionGroup(parent)
        self.language_actions: dict[str, QAction] = {}
        for code, label in LANGUAGES.items():
            action = QAction(label, parent)  # each language is named in its own language
            action.setCheckable(True)
            action.setData(code)
            self.language_group.addAction(action)
            self.language_actions[code] = action
        self.retranslate()

    def retranslate(self) -> None:
        texts = {
            "open": self.tr("&Open..."),
            "open_folder": self.tr("Open &folder as batch..."),
            "paste": self.tr("&Paste image"),
            "camera": self.tr("Capture from &camera..."),
            "screen": self.tr("Capture &screen region"),
            "scan_device": self.tr("Sc&an..."),
            "export": self.tr("&Export..."),
            "recognize_again": self.tr("&Recognise again"),
            "force_ocr": self.tr("Always &OCR PDF pages"),
            "previous_page": self.tr("Pre&vious page"),
            "next_page": self.tr("&Next page"),
            "quit": self.tr("&Quit"),
            "copy": self.tr("&Copy selected lines"),
            "review_next": self.tr("Next field to chec&k"),
            "review_previous": self.tr("Previous field to check"),
            "review_checked": self.tr("&Mark receipt as checked"),
            "tab_document": self.tr("&Document"),
            "tab_batch": self.tr("&Batch"),
            "tab_server": self.tr("&Server"),
            "tab_stress": self.tr("S&tress"),
            "tab_fields": self.tr("&Fields"),
            "tab_library": self.tr("&Library"),
            "shortcuts": self.tr("&Keyboard shortcuts"),
            "about": self.tr("&About scanner-app"),
        }
        for name, text in texts.items():
            self.actions[name].setText(text)

    def build_menus(
        self, bar: QMenuBar, view_actions: list[QAction], copy_all: QAction, history: Sequence[QAction] = ()
    ) -> None:
        """(Re)build the menu bar in the current language (``history``: Undo and Redo)."""
        bar.clear()
        a = self.actions
        file_menu = bar.addMenu(self.tr("&File"))
        file_menu.addAction(a["open"])
        self.recent_menu = file_menu.addMenu(self.tr("Open &recent"))
        for name in ("open_folder", "paste", "camera", "screen", "scan_device", None, "export",
                     "recognize_again", "force_ocr", None, "quit"):  # fmt: skip
            file_menu.addSeparator() if name is None else file_menu.addAction(a[name])
        edit_menu = bar.addMenu(self.tr("&Edit"))
        for action in history:
            edit_menu.addAction(action)
        if history:
            edit_menu.addSeparator()
        edit_menu.addAction(a["copy"])
        edit_menu.addAction(copy_all)
        edit_menu.addSeparator()
        for name in ("review_next", "review_previous", "review_checked"):
            edit_menu.addAction(a[name])
        view_menu = bar.addMenu(self.tr("&View"))
        for action in view_actions:
            view_menu.addAction(action)
        view_menu.addSeparator()
        view_menu.addAction(a["previous_page"])
        view_menu.addAction(a["next_page"])
        view_menu.addSeparator()
        for name in ("tab_document", "tab_batch", "tab_library", "tab_server", "tab_stress", "tab_fields"):
            view_menu.addAction(a[name])
        language_menu = bar.addMenu(self.tr("&Language"))
        for action in self.language_actions.values():
            language_menu.addAction(action)
        help_menu = bar.addMenu(self.tr("&Help"))
        help_menu.addAction(a["shortcuts"])
        help_menu.addAction(a["about"])
