"""The Library tab: every receipt read, searched as one types, edited in bulk, duplicates decided,
exported for accounting; a receipt opens in the viewer through ``open_requested``.

All library work runs off the GUI thread on this panel's Background; a search's stale answers are
dropped (one slot). New receipts appear as they are read: the hub says so for the app's own ways in,
and a cheap check of the file's data version (every POLL_MS while the tab is shown) sees other
processes' writes (a ``scanner-app watch`` beside the app).
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QPushButton, QSplitter, QVBoxLayout, QWidget

from scanner_app.core.library.accounting import LibraryExport, export
from scanner_app.core.library.duplicates import DuplicateFlag
from scanner_app.core.library.library import Library
from scanner_app.core.library.selection_export import export_selected
from scanner_app.gui.background import Background
from scanner_app.gui.i18n.core_text import translated
from scanner_app.gui.library.duplicate_panel import DuplicatePanel
from scanner_app.gui.library.edit_bar import EditBar
from scanner_app.gui.library.export_dialog import ExportDialog, ExportRequest
from scanner_app.gui.library.hub import LibraryHub
from scanner_app.gui.library.search import (
    EditDone,
    Fetched,
    LibraryRow,
    SearchError,
    SearchState,
    edit_each,
    fetch,
)
from scanner_app.gui.library.search_bar import SearchBar
from scanner_app.gui.library.table_model import LibraryTableModel
from scanner_app.gui.library.table_view import ROW_HEIGHT, LibraryTableView
from scanner_app.gui.library.thumbnails import ThumbnailCache

REFRESH_MS = 500  # new receipts arriving: at most one search per this long
POLL_MS = 3000  # how often the shown tab checks the file for other processes' writes
PAIR_SIDE = 200  # px: the side-by-side pictures of a flagged pair


class LibraryPanel(QWidget):
    """The Library tab over a LibraryHub."""

    open_requested = Signal(object, int, object)  # source Path, page index, batch store file (Path | None)
    refreshed = Signal(object)  # Fetched: the table shows it
    edited = Signal(object)  # EditDone
    decided = Signal(object)  # DuplicateFlag as it is now
    exported = Signal(object)  # LibraryExport, or an error message
    message = Signal(str)  # for the status bar

    def __init__(self, hub: LibraryHub, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.hub = hub
        self._library: Library | None = None
        self._state = SearchState()
        self._fetched: Fetched | None = None
        self._searching = self._dirty = False
        self._data_version: int | None = None
        self._background = Background(self, threads=2)
        self.thumbnails = ThumbnailCache(ROW_HEIGHT - 8, parent=self)
        self.pair_thumbnails = ThumbnailCache(PAIR_SIDE, capacity=40, parent=self)
        self.model = LibraryTableModel(self.thumbnails, self)
        self._build()
        self._refresh_timer = QTimer(self, singleShot=True, interval=REFRESH_MS)
        self._refresh_timer.timeout.connect(self.refresh)
        self._poll_timer = QTimer(self, interval=POLL_MS)
        self._poll_timer.timeout.connect(self._poll)
        self._poll_timer.start()
        hub.opened.connect(self._on_opened)
        hub.failed.connect(self._on_hub_failed)
        hub.receipts_added.connect(self._on_receipts_added)
        if hub.library is not None:
            self._on_opened(hub.library)

    # Layout -------------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.library_button = QPushButton(self.tr("Library file..."), self)
        self.library_button.clicked.connect(self._choose_library)
        self.path_label = QLabel(self)
        self.path_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.open_button = QPushButton(self.tr("Open in viewer"), self)
        self.open_button.clicked.connect(self.open_current)
        self.export_button = QPushButton(self.tr("Export..."), self)
        self.export_button.clicked.connect(self._ask_export)
        top.addWidget(self.library_button)
        top.addWidget(self.path_label, 1)
        top.addWidget(self.open_button)
        top.addWidget(self.export_button)
        layout.addLayout(top)
        self.search_bar = SearchBar(self)
        self.search_bar.changed.connect(self.search)
        self.search_bar.filters.set_labels(self.model.statuses, self.model.ways_in)
        layout.addWidget(self.search_bar)
        self.edit_bar = EditBar(self)
        self.edit_bar.statuses = self.model.statuses
        self.edit_bar.edit_requested.connect(self.edit_selected)
        layout.addWidget(self.edit_bar)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.table = LibraryTableView(self.model, self)
        self.table.receipt_activated.connect(self._open_row)
        self.table.selectionModel().selectionChanged.connect(self._on_selection_changed)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_changed)
        self.duplicate_panel = DuplicatePanel(self.pair_thumbnails, self)
        self.duplicate_panel.reasons = self.model.reasons
        self.duplicate_panel.decided.connect(self.decide)
        splitter.addWidget(self.table)
        splitter.addWidget(self.duplicate_panel)
        splitter.setStretchFactor(0, 5)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)  # the pair, shown later, gets its room (not width 0)
        layout.addWidget(splitter, 1)
        self.status_label = QLabel(self.tr("Opening the library..."), self)
        self.status_label.setWordWrap(True)
        layout.addWidget(self.status_label)
        self._show_path()

    # Public API ---------------------------------------------------------------------------------
    @property
    def fetched(self) -> Fetched | None:
        """What the table shows (the last search's answer)."""
        return self._fetched

    def search(self, state: SearchState) -> None:
        self._state = state
        self.refresh()

    def refresh(self) -> None:
        """Run the current search again (off the GUI thread); ``refreshed`` follows."""
        library = self._library
        if library is None:
            return
        if not self.isVisible():
            self._dirty = True  # searched when the tab is shown
            return
        self._refresh_timer.stop()
        self._searching, self._dirty = True, False
        state, started = self._state, time.monotonic()
        done = lambda fetched, error: self._on_fetched(fetched, error, time.monotonic() - started)  # noqa: E731
        self._background.run(lambda: fetch(library, state), done, slot="search")

    def selected_ids(self) -> list[int]:
        return self.table.selected_ids()

    def edit_selected(self, kind: str, value: object) -> None:
        """Edit every selected receipt: "category" (a name, "" for none), "add_tags" / "remove_tags"
        (a list of tags), "status"; ``edited`` follows."""
        library, ids = self._library, self.selected_ids()
        if library is None or not ids:
            return
        tags = [str(t) for t in value] if isinstance(value, list | tuple) else []
        edits = {
            "category": lambda lib, i: lib.set_category(i, str(value) or None),
            "add_tags": lambda lib, i: lib.set_tags(i, add=tags),
            "remove_tags": lambda lib, i: lib.set_tags(i, remove=tags),
            "status": lambda lib, i: lib.set_status(i, str(value)),
        }  # fmt: skip
        edit = edits[kind]
        self.status_label.setText(self.tr("Changing %n receipt(s)...", "", len(ids)))
        self._background.run(lambda: edit_each(library, ids, edit), self._on_edited)

    def decide(self, receipt_id: int, original_id: int, state: str) -> None:
        """Confirm ("confirmed") or dismiss ("dismissed") a flagged pair; ``decided`` follows."""
        library = self._library
        if library is not None:
            run = lambda: library.decide_duplicate(receipt_id, original_id, state)  # noqa: E731
            self._background.run(run, self._on_decided)

    def export(self, request: ExportRequest) -> None:
        """The library's accounting export of the receipts found or selected; ``exported`` follows."""
        library, state = self._library, self._state
        if library is None:
            return
        ids = self.selected_ids() if request.selection else [row.id for row in self.model.rows]
        options = {"default_currency": request.currency or None}
        by_ids = request.selection or state.duplicates_only

        def run() -> LibraryExport:
            if by_ids:
                return export_selected(library, request.fmt, request.path, ids, again=request.again,
                                       options=options)  # fmt: skip
            filters = replace(state.filters(), include_duplicates=False)
            return export(library, request.fmt, request.path, state.query, filters, again=request.again,
                          options=options)  # fmt: skip

        self.export_button.setEnabled(False)
        self.status_label.setText(self.tr("Exporting to {0}...").format(request.path))
        self._background.run(run, self._on_exported)

    def open_current(self) -> None:
        row = self.table.current_row()
        if row is not None:
            self._open_row(row)

    def shutdown(self, msecs: int = 10_000) -> None:
        """Stop the timers and wait for the library work in flight (before the hub closes the library)."""
        self._poll_timer.stop()
        self._refresh_timer.stop()
        for background in (self._background, self.thumbnails, self.pair_thumbnails):
            background.close()
        for background in (self._background, self.thumbnails, self.pair_thumbnails):
            background.wait(msecs)

    # Events -------------------------------------------------------------------------------------
    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._dirty:
            self.refresh()

    def _on_opened(self, library: Library) -> None:
        self._library, self._data_version = library, None
        for cache in (self.thumbnails, self.pair_thumbnails):
            cache.set_library(library)
        self._show_path()
        self.refresh()

    def _on_hub_failed(self, text: str) -> None:
        self.status_label.setText(text)
        self.message.emit(text)

    def _on_receipts_added(self, count: int) -> None:
        if self._searching:
            self._dirty = True  # searched again when this answer is in
        elif not self._refresh_timer.isActive():
            self._refresh_timer.start()

    def _poll(self) -> None:
        library = self._library
        if library is None or not self.isVisible():
            return
        version = lambda: int(library.db.query("PRAGMA data_version")[0][0])  # noqa: E731
        self._background.run(version, self._on_version, slot="poll")

    def _on_version(self, version: int | None, error: BaseException | None) -> None:
        if version is None or error is not None:
            return
        changed = self._data_version is not None and version != self._data_version
        self._data_version = version
        if changed:
            self._on_receipts_added(0)

    def _on_fetched(self, fetched: Fetched | None, error: BaseException | None, took_s: float) -> None:
        self._searching = False
        # receipts arriving: a search at most every REFRESH_MS, and never more than a third of the time
        self._refresh_timer.setInterval(max(REFRESH_MS, round(2000 * took_s)))
        if isinstance(error, SearchError):
            self.search_bar.filters.mark_error(error.name, str(error))
            self.status_label.setText(self.tr("Not searched: {0}").format(translated(str(error))))
        elif error is not None or fetched is None:
            self.status_label.setText(self.tr("The search failed: {0}").format(translated(str(error))))
        else:
            self.search_bar.filters.mark_error(None)
            self._show(fetched)
        if self._dirty:
            self._refresh_timer.start()

    def _show(self, fetched: Fetched) -> None:
        selected, current = self.selected_ids(), self.table.current_row()
        self._fetched = fetched
        self.model.set_rows(fetched.rows, fetched.flags)
        self.table.select_ids(selected, current.id if current is not None else None)
        self.search_bar.filters.set_categories(fetched.categories)
        self.edit_bar.set_categories(fetched.categories)
        self._on_selection_changed()
        self._on_current_changed()
        parts = [
            self.tr("%n receipt(s) found of {0} in the library", "", len(fetched.rows)).format(fetched.total)
        ]
        if fetched.limited:
            parts.append(self.tr("the first {0} shown").format(len(fetched.rows)))
        if fetched.flags:
            parts.append(self.tr("%n possible duplicate(s) to decide", "", len(fetched.flags)))
        self.status_label.setText("; ".join(parts))
        self.refreshed.emit(fetched)

    def _on_selection_changed(self, *_: object) -> None:
        self.edit_bar.set_selected(len(self.table.selectionModel().selectedRows()))

    def _on_current_changed(self, *_: object) -> None:
        row = self.table.current_row()
        flag: DuplicateFlag | None = self.model.flag(row.id) if row is not None else None
        originals = self._fetched.originals if self._fetched is not None else {}
        self.open_button.setEnabled(row is not None)
        self.duplicate_panel.show_pair(flag, row, originals.get(flag.original_id) if flag else None)

    def _on_edited(self, done: EditDone | None, error: BaseException | None) -> None:
        if error is not None or done is None:
            self.status_label.setText(self.tr("The edit failed: {0}").format(translated(str(error))))
            return
        text = self.tr("Changed %n receipt(s)", "", done.changed)
        if done.errors:
            text += "; " + "; ".join(translated(e) for e in done.errors)
        self.message.emit(text)
        self.edited.emit(done)
        self.refresh()

    def _on_decided(self, flag: DuplicateFlag | None, error: BaseException | None) -> None:
        if error is not None or flag is None:
            self.status_label.setText(self.tr("Not decided: {0}").format(translated(str(error))))
            return
        self.decided.emit(flag)
        self.refresh()

    def _on_exported(self, done: LibraryExport | None, error: BaseException | None) -> None:
        self.export_button.setEnabled(True)
        if error is not None or done is None:
            text = self.tr("Export failed: {0}").format(translated(str(error)))
            self.status_label.setText(text)
            self.exported.emit(text)
            return
        summary = done.summary
        parts = [self.tr("Wrote %n receipt(s) to {0}", "", summary.written).format(summary.path)]
        if summary.skipped:
            reasons = ", ".join(f"#{s.receipt_id}: {translated(s.reason)}" for s in summary.skipped[:5])
            parts.append(self.tr("%n left out ({0})", "", len(summary.skipped)).format(reasons))
        if done.left_out_exported:
            parts.append(self.tr("%n exported before, not again", "", done.left_out_exported))
        text = "; ".join(parts)
        self.status_label.setText(text)
        self.message.emit(text)
        self.exported.emit(done)
        self.refresh()

    # Asking -------------------------------------------------------------------------------------
    def _open_row(self, row: LibraryRow) -> None:
        self.open_requested.emit(
            Path(row.source), max(0, row.page - 1), Path(row.batch) if row.batch else None
        )

    def _ask_export(self) -> None:
        found = len(self.model.rows)
        request = ExportDialog.ask(found, len(self.selected_ids()), self)
        if request is not None:
            self.export(request)

    def _choose_library(self) -> None:
        chosen, _ = QFileDialog.getSaveFileName(
            self, self.tr("Library file (a new name starts a new library)"), str(self.hub.path),
            self.tr("Receipt libraries (*.sqlite);;All files (*)"),
            options=QFileDialog.Option.DontConfirmOverwrite,
        )  # fmt: skip
        if chosen:
            self.status_label.setText(self.tr("Opening the library {0}...").format(chosen))
            self.hub.choose(Path(chosen))
            self._show_path()

    def _show_path(self) -> None:
        self.path_label.setText(self.tr("Library: {0}").format(self.hub.path))
