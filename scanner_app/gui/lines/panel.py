"""The results panel: recognised lines in reading order, editable, filterable, synced with the viewer."""

from __future__ import annotations

from PySide6.QtCore import (
    QEvent,
    QItemSelection,
    QItemSelectionModel,
    QObject,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from scanner_app.gui.document.model import DocumentModel
from scanner_app.gui.lines.model import LINE_INDEX_ROLE, TEXT, ResultsTableModel

_EDITING_KEYS = (
    QKeySequence.StandardKey.Copy, QKeySequence.StandardKey.Cut, QKeySequence.StandardKey.Paste,
    QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo, QKeySequence.StandardKey.SelectAll,
)  # fmt: skip


def _leave_to_window(event: QEvent) -> bool:
    """A Ctrl+key the line edit would swallow (X11 binds Ctrl+E to "end of line") goes to the window."""
    assert isinstance(event, QKeyEvent)
    is_letter = Qt.Key.Key_A.value <= event.key() <= Qt.Key.Key_Z.value
    if not is_letter or not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
        return False
    if any(event.matches(key) for key in _EDITING_KEYS):
        return False
    event.ignore()  # not overridden: the shortcut map (the window's actions) gets the key
    return True


class ResultsPanel(QWidget):
    """Table of lines with a filter box and "Copy all"; hover and selection follow the DocumentModel."""

    copy_all_requested = Signal()

    def __init__(self, document: DocumentModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._syncing = False
        self.model = ResultsTableModel(document, self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterKeyColumn(TEXT)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self.proxy.setFilterFixedString)
        self.filter_edit.installEventFilter(self)  # the window's Ctrl+letter shortcuts work while typing
        self._copy_button = QPushButton(self)
        self._copy_button.clicked.connect(self.copy_all_requested)
        self.table = QTableView(self)
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.table.setMouseTracking(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(TEXT, QHeaderView.ResizeMode.Stretch)
        for column in (0, 2):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.table.entered.connect(self._on_row_entered)
        self.table.viewport().installEventFilter(self)
        self.table.selectionModel().selectionChanged.connect(self._on_view_selection_changed)
        document.hovered_changed.connect(self._on_hovered_changed)
        document.selection_changed.connect(self._on_selection_changed)
        document.page_changed.connect(self._on_page_changed)
        top = QHBoxLayout()
        top.addWidget(self.filter_edit, 1)
        top.addWidget(self._copy_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        self._retranslate()

    def _retranslate(self) -> None:
        self.filter_edit.setPlaceholderText(self.tr("Filter lines"))
        self._copy_button.setText(self.tr("Copy all"))
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 2)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self._retranslate()
        super().changeEvent(event)

    def line_row(self, line_index: int) -> int:
        """The table row showing a line (-1 when filtered out)."""
        return self.proxy.mapFromSource(self.model.index(line_index, 0)).row()

    # View -> model ------------------------------------------------------------------------------
    def _on_row_entered(self, index) -> None:
        self._document.set_hovered(int(self.proxy.data(index, LINE_INDEX_ROLE)))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.table.viewport() and event.type() == QEvent.Type.Leave:
            self._document.set_hovered(-1)
        if watched is self.filter_edit and event.type() == QEvent.Type.ShortcutOverride:
            return _leave_to_window(event)
        return False

    def _on_view_selection_changed(self, *_: object) -> None:
        if self._syncing:
            return
        rows = self.table.selectionModel().selectedRows()
        self._document.select([int(self.proxy.data(r, LINE_INDEX_ROLE)) for r in rows])

    # Model -> view ------------------------------------------------------------------------------
    def _on_hovered_changed(self, index: int) -> None:
        if index >= 0 and not self.table.underMouse():
            row = self.line_row(index)
            if row >= 0:
                self.table.scrollTo(self.proxy.index(row, 0))

    def _on_page_changed(self) -> None:
        self.table.scrollToTop()  # a new page starts at its first line

    def _on_selection_changed(self, indices: list[int]) -> None:
        selection = QItemSelection()
        for line in indices:
            row = self.line_row(line)
            if row >= 0:
                selection.select(self.proxy.index(row, 0), self.proxy.index(row, 2))
        self._syncing = True
        try:
            flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
            self.table.selectionModel().select(selection, flags)
            if indices and self.line_row(indices[0]) >= 0:
                self.table.scrollTo(self.proxy.index(self.line_row(indices[0]), 0))
        finally:
            self._syncing = False
