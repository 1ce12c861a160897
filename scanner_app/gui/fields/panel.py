"""The fields panel: a page's invoice fields beside its text; click to see where a field was read,
edit values, export a reimbursement CSV/XLSX."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QModelIndex, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from scanner_app.core.fields.model import InvoiceFields
from scanner_app.core.results import PageResult
from scanner_app.gui import dialog_paths
from scanner_app.gui.background import Background
from scanner_app.gui.document.edit_history import push_field_edit
from scanner_app.gui.document.model import DocumentModel, StoredPage
from scanner_app.gui.fields.model import CONFIDENCE, FLAGS, LINES_ROLE, NAME, VALUE, FieldsTableModel


def _extract(
    page: PageResult, stored: StoredPage | None, edits: dict[str, str], receipt: int = 0
) -> InvoiceFields:
    """Fields of the page (or of its receipt ``receipt``, 1-based, already cut out as ``page``) with
    the stored and the pending field edits applied (off the GUI thread)."""
    from scanner_app.core.fields import extract_fields

    saved: dict[str, str] = {}
    if stored is not None and receipt:
        saved = stored.store.receipt_field_edits(stored.page_id).get(stored.page_id, {}).get(receipt, {})
    elif stored is not None:
        saved = stored.store.field_edits(stored.page_id).get(stored.page_id, {})
    return extract_fields(page).with_values({**saved, **edits})


def _write(rows: list, path: Path) -> Path:
    from scanner_app.core.export.reimbursement import write_sheet
    from scanner_app.gui.i18n.core_text import sheet_headers

    return write_sheet(rows, path, headers=sheet_headers())  # headers in the UI language


class FieldsPanel(QWidget):
    """Fields of the DocumentModel's page, recomputed when the page or a line changes."""

    fields_changed = Signal()  # new fields shown (after a page change, a line edit or a field edit)
    exported = Signal(object)  # Path written
    export_failed = Signal(str)

    def __init__(self, document: DocumentModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._document = document
        # Field edits of the page shown not known to be stored yet, by receipt (0: the page).
        self._edits: dict[int, dict[str, str]] = {}
        self._background = Background(self)
        self.model = FieldsTableModel(self)
        self.model.value_edited.connect(self.edit_field)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(VALUE, QHeaderView.ResizeMode.Stretch)  # the value gets the room
        header.setSectionResizeMode(CONFIDENCE, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(FLAGS, QHeaderView.ResizeMode.Interactive)
        header.setMinimumSectionSize(24)
        self.table.clicked.connect(self._on_row_clicked)
        self.summary = QLabel(self)
        self.receipt_box = QComboBox(self)  # which receipt of a glass page (shown with several)
        self.receipt_box.hide()
        self.receipt_box.currentIndexChanged.connect(lambda _index: self._recompute())
        self.export_button = QPushButton(self)
        self.export_button.clicked.connect(self.choose_export)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.receipt_box)
        top.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        document.page_changed.connect(self._on_page_changed)
        document.line_edited.connect(self._on_line_edited)
        self._retranslate()
        self._on_page_changed()

    @property
    def fields(self) -> InvoiceFields:
        return self.model.fields

    def _retranslate(self) -> None:
        self.export_button.setText(self.tr("Export sheet..."))
        self.export_button.setToolTip(self.tr("Write a reimbursement sheet (CSV or XLSX) with these fields"))
        self._show_summary()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self._retranslate()
        super().changeEvent(event)

    # Fields ------------------------------------------------------------------------------------
    def _on_page_changed(self) -> None:
        self._edits = {}
        page = self._document.page
        count = len(page.receipts) if page else 0
        self.receipt_box.blockSignals(True)
        self.receipt_box.clear()
        self.receipt_box.addItems([self.tr("Receipt {0} of {1}").format(i + 1, count) for i in range(count)])
        self.receipt_box.blockSignals(False)
        self.receipt_box.setVisible(count > 1)
        self._recompute()

    def choose_receipt(self, index: int) -> None:
        """Show receipt ``index`` (0-based) of a page with several: the document clicked in the viewer."""
        page = self._document.page
        if page is not None and len(page.receipts) > 1 and 0 <= index < self.receipt_box.count():
            self.receipt_box.setCurrentIndex(index)

    def _receipt(self) -> int | None:
        """The receipt chosen on a page with several, else None (the page is one document)."""
        page = self._document.page
        return self.receipt_box.currentIndex() if page is not None and len(page.receipts) > 1 else None

    def _on_line_edited(self, _index: int, _text: str) -> None:
        self._recompute()

    def _recompute(self) -> None:
        page, stored = self._document.page, self._document.stored
        if page is None:
            self._background.drop("fields")
            self._show(InvoiceFields())
            return
        receipt = self._receipt()
        number = 0 if receipt is None else receipt + 1  # as the store and the sheet count receipts
        edits = dict(self._edits.get(number, {}))
        if receipt is not None:  # one receipt's fields, with its own hand edits
            page = page.document_page(receipt)

        def done(fields: InvoiceFields | None, error: BaseException | None) -> None:
            if error is not None:
                self.summary.setText(self.tr("Fields could not be read: {0}").format(error))
                return
            self._show(fields or InvoiceFields())

        self._background.run(lambda: _extract(page, stored, edits, number), done, slot="fields")

    def _show(self, fields: InvoiceFields) -> None:
        self.model.set_fields(fields)
        self.table.resizeColumnToContents(NAME)
        # The flags column stays narrow (its sentences are elided, whole in the tooltip).
        self.table.setColumnWidth(FLAGS, self.fontMetrics().horizontalAdvance("M" * 8))
        self._show_summary()
        self.fields_changed.emit()

    def _show_summary(self) -> None:
        fields = self.model.fields
        if self._document.page is None:
            self.summary.setText(self.tr("No page"))
            return
        flagged = self.model.flagged_count()
        text = self.tr("{0}, {1} to check").format(self.tr("%n field(s)", "", len(fields.fields)), flagged)
        self.summary.setText(text + (f" ({fields.template})" if fields.template else ""))

    def edit_field(self, name: str, value: str) -> None:
        """Set a field by hand: stored with the page (reopening and exports show it), checks re-run;
        undoable (the document's undo stack, with the line edits)."""
        old = self.model.fields.value(name)
        receipt = self._receipt()
        number = 0 if receipt is None else receipt + 1
        if old != value:
            apply = lambda text: self._set_field(name, text, number)  # noqa: E731
            push_field_edit(self._document.undo_stack, apply, self.model.label(name), old, value)

    def _set_field(self, name: str, value: str, receipt: int = 0) -> None:
        """``receipt``: 0 for the page, 1-based for the receipt chosen when the edit was made."""
        self._edits.setdefault(receipt, {})[name] = value
        shown = self._receipt()
        if (0 if shown is None else shown + 1) == receipt:
            self._show(self.model.fields.with_value(name, value))
        else:  # undone or redone while another receipt is shown
            self._recompute()
        self._document.edit_field(name, value, receipt)

    def _on_row_clicked(self, index: QModelIndex) -> None:
        lines = index.siblingAtColumn(NAME).data(LINES_ROLE) or ()
        receipt, page = self._receipt(), self._document.page
        if receipt is not None and page is not None:  # the receipt's line numbers -> the page's
            own = page.receipts[receipt].lines
            lines = [own[i] for i in lines if 0 <= i < len(own)]
        self._document.select(list(lines))

    def select_field(self, name: str) -> None:
        """Select a field's row, as a click does (its lines are selected in the document)."""
        row = self.model.row_of(name)
        index = self.model.index(row, NAME)
        self.table.selectRow(row)
        self._on_row_clicked(index)

    # Export ------------------------------------------------------------------------------------
    def choose_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export reimbursement sheet"), str(self.export_start()),
            self.tr("CSV (*.csv);;Excel workbook (*.xlsx)"),
        )  # fmt: skip
        if path:
            self.export_to(Path(path))

    def export_start(self) -> Path:
        """Where the save dialog starts: a sheet named after the document, in the document's folder."""
        source = self._document.source
        name = f"{source.stem}-fields.csv" if source is not None else "reimbursement.csv"
        return dialog_paths.start_folder(source) / name

    def export_to(self, path: Path) -> None:
        """Write the sheet for the page shown (off the GUI thread); ``exported`` or ``export_failed``."""
        from scanner_app.core.export.reimbursement import SheetRow

        source = self._document.source
        name = str(source) if source else self._document.name or "page"
        rows = [SheetRow(name, self.model.fields)]

        def done(written: Path | None, error: BaseException | None) -> None:
            if error is not None:
                self.export_failed.emit(self.tr("Could not write {0}: {1}").format(path, error))
            else:
                self.exported.emit(written)

        self._background.run(lambda: _write(rows, path), done)
