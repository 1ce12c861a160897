"""The Batch tab: a queue table, overall progress, pause / resume / cancel, export, and the review.

The run itself is a BatchJob on a Background thread (scanner_app.gui.batch.worker); its events
arrive here in lists (those queued since the last wake-up), folded into a RowBook; the changed rows
are repainted once per list. Each file's receipts (vendor, date, total, what to check, checked marks)
come from a ReviewSession (scanner_app.gui.review.session) that reads them off the GUI thread as
files finish; the review row above the table walks what needs a look (F8 / Shift+F8, Enter), joined
to the table by BatchReviewRows (scanner_app.gui.batch.review_rows). The table itself:
scanner_app.gui.batch.table_view; where batch folders go: scanner_app.gui.batch.folders.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from scanner_app.core.batch.events import BatchFinished, FileDone
from scanner_app.core.batch.export import export_store
from scanner_app.core.store.batch_store import BatchStore, PageSink
from scanner_app.gui.background import Background
from scanner_app.gui.batch.export_bar import ExportBar, parse_formats
from scanner_app.gui.batch.folders import batches_root, new_batch_folder
from scanner_app.gui.batch.review_rows import BatchReviewRows
from scanner_app.gui.batch.rows import RowBook, RunTotals
from scanner_app.gui.batch.table_model import BatchTableModel
from scanner_app.gui.batch.table_view import BatchTableView
from scanner_app.gui.batch.watch_bar import WatchBar
from scanner_app.gui.batch.worker import BatchJob, Prepared, PrepareFailed, Preparing
from scanner_app.gui.connection.link import ConnectionStatus, ServerConnection
from scanner_app.gui.i18n.core_text import translated
from scanner_app.gui.review.bar import ReviewBar
from scanner_app.gui.review.session import ReviewSession
from scanner_app.gui.units import rate_text

__all__ = ["DEFAULT_JOBS", "BatchPanel", "batches_root", "new_batch_folder"]

DEFAULT_JOBS = 4


class BatchPanel(QWidget):
    """``start_batch(paths)``; ``open_requested(path, page)`` on a double-clicked row,
    ``batch_finished(BatchSummary)`` and ``export_finished(list[Path] | str)``."""

    open_requested = Signal(object, int)  # (path, page_index)
    batch_finished = Signal(object)  # BatchSummary
    export_finished = Signal(object)  # list[Path] written, or an error message

    def __init__(
        self,
        connection: ServerConnection,
        parent: QWidget | None = None,
        sinks: Callable[[str], PageSink | None] | None = None,
    ) -> None:
        """``sinks(way_in)``: the page sink of a way in ("batch", "scanner", "watch"): the receipt library."""
        super().__init__(parent)
        self._connection = connection
        self._sinks = sinks
        self._job: BatchJob | None = None
        self._store: BatchStore | None = None
        self._stores: list[BatchStore] = []
        self._folder: Path | None = None
        self._waiting: tuple[list[Path], Path | None, str] | None = None  # held until the server is up
        self._book = RowBook()
        self.model = BatchTableModel(self._book, self)
        self.review = ReviewSession(self)
        self._background = Background(self)  # exports
        self._runs = Background(self, threads=1)  # the batch run
        self._build()
        self._review_rows = BatchReviewRows(self.review, self.review_bar, self._book, self.model, self.table)
        self.table.selectionModel().currentRowChanged.connect(
            lambda *_: self._review_rows.show_checked_state()
        )
        self.export_bar.export_requested.connect(self.export_to)
        self.export_bar.sheet_requested.connect(self.export_sheet)
        self.review.changed.connect(self._review_rows.on_changed)
        self.review.failed.connect(self._on_review_failed)
        self.review.sheet_written.connect(self._on_sheet_written)
        self.review_bar.step_requested.connect(self.review_step)
        self.review_bar.accept_requested.connect(self.review_accept)
        self.review_bar.correct_requested.connect(self.review_correct)
        self.review_bar.checked_requested.connect(self.toggle_checked)
        connection.state_changed.connect(self._on_connection_changed)
        self._update_controls()

    # Layout -------------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        controls = QHBoxLayout()
        self.add_folder_button = self._button(self.tr("Add folder..."), self._choose_folder, controls)
        self.add_files_button = self._button(self.tr("Add files..."), self._choose_files, controls)
        self.pause_button = self._button(self.tr("Pause"), self.pause, controls)
        self.resume_button = self._button(self.tr("Resume"), self.resume, controls)
        self.cancel_button = self._button(self.tr("Cancel"), self.cancel, controls)
        self.continue_button = self._button(self.tr("Continue"), self.continue_batch, controls)
        self.continue_button.setToolTip(self.tr("Run the files this batch still has queued"))
        controls.addStretch(1)
        self.store_folder_button = self._button(
            self.tr("Batch folder..."), self._choose_batches_root, controls
        )
        self.store_folder_button.setToolTip(self.tr("Where new batches keep their results: {0}").format(
            batches_root()))  # fmt: skip
        controls.addWidget(QLabel(self.tr("Requests in flight:")))
        self.jobs_spin = QSpinBox(self)
        self.jobs_spin.setRange(1, 64)
        self.jobs_spin.setValue(int(str(QSettings().value("batch/jobs", DEFAULT_JOBS) or DEFAULT_JOBS)))
        self.jobs_spin.valueChanged.connect(lambda n: QSettings().setValue("batch/jobs", n))
        controls.addWidget(self.jobs_spin)
        layout.addLayout(controls)
        self.review_bar = ReviewBar(self)
        self.review_bar.show_queue(self.review.queue, False)
        layout.addWidget(self.review_bar)

        self.table = BatchTableView(self.model, self)
        self.proxy = self.table.proxy  # the order shown (a header clicked)
        self.table.file_activated.connect(lambda path: self.open_requested.emit(path, 0))
        layout.addWidget(self.table, 1)

        self.progress = QProgressBar(self)
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        layout.addWidget(self.progress)
        self.status_label = QLabel(self.tr("No batch yet: add a folder or files."), self)
        self.status_label.setWordWrap(True)
        layout.addWidget(self.status_label)
        self.export_bar = ExportBar(self)
        layout.addWidget(self.export_bar)
        self.watch_bar = WatchBar(self._connection, self, self._sink("watch"))  # scan-to-folder
        layout.addWidget(self.watch_bar)

    def _button(self, text: str, slot, layout: QHBoxLayout) -> QPushButton:
        button = QPushButton(text, self)
        button.clicked.connect(lambda: slot())
        layout.addWidget(button)
        return button

    # Public API ---------------------------------------------------------------------------------
    def store(self) -> BatchStore | None:
        """The current batch's store (edits and exports); None before the first batch is prepared."""
        return self._store

    @property
    def running(self) -> bool:
        """True from start_batch until the run's last event was shown."""
        return self._job is not None

    @property
    def totals(self) -> RunTotals:
        return self._book.totals

    @property
    def folder(self) -> Path | None:
        """The current batch's folder (its store and nothing else)."""
        return self._folder

    def start_batch(self, paths: Sequence[Path], folder: Path | None = None, way_in: str = "batch") -> None:
        """Start a new batch of files and folders (recursive) in ``folder`` (default: a new folder);
        ``way_in`` ("batch", "scanner"): how its files came, for the receipt library."""
        if self._job is not None or self._waiting is not None:
            self.status_label.setText(self.tr("A batch is running: cancel it before starting another."))
            return
        if self._connection.state.status == ConnectionStatus.STARTING:
            self._waiting = (list(paths), folder, way_in)  # started by _on_connection_changed
            self.status_label.setText(self.tr("Waiting for the server to be ready; the batch starts then."))
            self._update_controls()
            return
        self._folder = Path(folder) if folder is not None else new_batch_folder(batches_root())
        self._store = None
        recognize = self._connection.batch_recognizer().recognize
        self._start_job(BatchJob(self._runs, self._on_events, self._folder, recognize, list(paths),
                                 jobs=self.jobs_spin.value(), sink=self._sink(way_in)))  # fmt: skip
        self.status_label.setText(self.tr("Reading the files under {0}...").format(
            ", ".join(str(p) for p in paths[:3])))  # fmt: skip

    @property
    def waiting(self) -> bool:
        """A batch is held until the connection has settled (the embedded server starting)."""
        return self._waiting is not None

    def _on_connection_changed(self, state: object) -> None:
        if self._waiting is not None and self._connection.state.status != ConnectionStatus.STARTING:
            (paths, folder, way_in), self._waiting = self._waiting, None
            self.start_batch(paths, folder, way_in)

    def continue_batch(self) -> None:
        """Run the current batch's queued files again (after a cancel or a lost server)."""
        if self._job is not None or self._store is None or self._folder is None:
            return
        recognize = self._connection.batch_recognizer().recognize
        self._start_job(BatchJob(self._runs, self._on_events, self._folder, recognize, store=self._store,
                                 jobs=self.jobs_spin.value()))  # fmt: skip

    def pause(self) -> None:
        if self._job is not None:
            self._job.pause()
            self.status_label.setText(self.tr("Paused: the pages in flight finish, no new page is sent."))
        self._update_controls()

    def resume(self) -> None:
        if self._job is not None:
            self._job.resume()
        self._update_controls()

    def cancel(self) -> None:
        """Stop after the pages in flight; unfinished files stay queued (Continue runs them)."""
        if self._waiting is not None:
            self._waiting = None
            self.status_label.setText(self.tr("Cancelled before it started."))
        if self._job is not None:
            self._job.cancel()
            self.status_label.setText(self.tr("Cancelling: waiting for the pages in flight..."))
        self._update_controls()

    def export_to(self, folder: Path, formats: Sequence[str] | None = None) -> None:
        """Export the current batch's results into ``folder`` (off the GUI thread)."""
        store = self._store
        chosen = tuple(formats) if formats else parse_formats(self.export_bar.formats())
        if store is None:
            self.export_bar.result.setText(self.tr("Nothing to export yet."))
            return
        self.export_bar.button.setEnabled(False)
        self.export_bar.result.setText(self.tr("Exporting to {0}...").format(folder))
        self._background.run(lambda: export_store(store, Path(folder), chosen), self._on_exported)

    def shutdown(self, timeout_s: float = 30.0) -> None:
        """Cancel a running batch, wait for its pages in flight (up to ``timeout_s``), close the stores.

        Call on app exit, before ServerConnection.shutdown(); what was recognised is already saved.
        """
        self.watch_bar.shutdown(timeout_s)
        job, self._job = self._job, None
        if job is not None:
            job.cancel()
        if self._runs.wait(round(timeout_s * 1000)) and self.review.wait(round(timeout_s * 1000)):
            for store in self._stores:
                store.close()
            self._stores, self._store = [], None

    # Review -------------------------------------------------------------------------------------
    def review_step(self, delta: int = 1) -> None:
        """Go to the next (+1) or previous (-1) field to check, in the table's order as sorted on
        screen: its row selected, its value ready."""
        self._review_rows.step(delta)

    def review_accept(self) -> None:
        """The current field is right as read (Enter): stored, it leaves the queue."""
        self.review.accept()

    def review_correct(self, value: str) -> None:
        """The current field reads ``value`` (typed, then Enter): stored as a field edit."""
        self.review.correct(value)

    def toggle_checked(self) -> None:
        """Mark the selected file's receipts as checked, or clear the mark (Ctrl+M, the Checked button).

        On a page with several receipts, the one under review is marked when its file is selected."""
        self._review_rows.toggle_checked()

    def export_sheet(self, path: Path) -> None:
        """The batch's reimbursement sheet (XLSX or CSV by suffix), a row per receipt, edits applied."""
        self.export_bar.result.setText(self.tr("Writing {0}...").format(path))
        self.review.write_sheet(Path(path))

    def showEvent(self, event) -> None:
        """Back on the tab: read the receipts again (the Fields tab may have edited one meanwhile)."""
        super().showEvent(event)
        if self.review.loaded:
            self.review.refresh([row.file_id for row in self._book.rows if row.state == "done"])

    def _on_review_failed(self, message: str) -> None:
        self.export_bar.result.setText(message)

    def _on_sheet_written(self, path: Path) -> None:
        self.export_bar.result.setText(self.tr("Wrote {0}").format(path))
        self.export_finished.emit([Path(path)])

    # Internals ----------------------------------------------------------------------------------
    def _sink(self, way_in: str) -> PageSink | None:
        return self._sinks(way_in) if self._sinks is not None else None

    def _start_job(self, job: BatchJob) -> None:
        self._job = job
        job.start()
        self._update_controls()

    def _choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Choose a folder to read"))
        if folder:
            self.start_batch([Path(folder)])

    def _choose_batches_root(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Keep new batches in"), str(batches_root()))
        if folder:
            QSettings().setValue("batch/folder", folder)
            self.store_folder_button.setToolTip(self.tr("Where new batches keep their results: {0}").format(
                folder))  # fmt: skip

    def _choose_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, self.tr("Choose files to read"))
        if files:
            self.start_batch([Path(f) for f in files])

    def _on_events(self, events: list[object]) -> None:
        if self._job is None:
            return  # shut down
        changed: set[int] = set()
        finished: BatchFinished | PrepareFailed | None = None
        done_files: list[int] = []
        for event in events:
            if isinstance(event, Prepared):
                self._on_prepared(event)
                changed.clear()
            elif isinstance(event, Preparing):
                self.status_label.setText(
                    self.tr("Adding files: {0} of {1}...").format(event.added, event.found)
                )
            elif isinstance(event, PrepareFailed):
                self.status_label.setText(event.message)
                finished = finished or event
            else:
                index = self._book.apply(event)
                if index is not None:
                    changed.add(index)
                if isinstance(event, FileDone):
                    done_files.append(event.file_id)
                if isinstance(event, BatchFinished):
                    finished = event
        self.model.rows_changed(changed)
        self.review.refresh(done_files)  # their receipts' fields, off the GUI thread
        self._show_totals()
        if finished is not None:  # BatchFinished / PrepareFailed are a job's last events
            self._finish(finished)

    def _on_prepared(self, event: Prepared) -> None:
        if event.store is not self._store:
            self._stores.append(event.store)
        self._store = event.store
        self._book.load(event.records, event.known)
        self._book.totals.skipped = event.skipped
        self.model.reload()
        self.review.load(event.store)  # receipts of files done before (a continued batch)

    def _finish(self, finished: object) -> None:
        self._job = None
        self._book.requeue_unfinished()
        self.model.rows_changed(range(len(self._book.rows)))
        self._show_totals()
        self._update_controls()
        if isinstance(finished, BatchFinished):
            self.batch_finished.emit(finished.summary)

    def _show_totals(self) -> None:
        t = self._book.totals
        finished = t.done + t.failed
        self.progress.setRange(0, max(1, t.total))
        self.progress.setValue(finished)
        text = self.tr("{0} of {1}, {2} failed; {3}, {4}; {5}").format(
            finished, self.tr("%n file(s)", "", t.total), t.failed, self.tr("%n page(s)", "", t.pages_sent),
            self.tr("%n line(s)", "", t.lines), rate_text(t.images_per_s))  # fmt: skip
        if t.skipped:
            text += self.tr("; {0} skipped").format(len(t.skipped))
            self.status_label.setToolTip("\n".join(f"{p}: {why}" for p, why in t.skipped))
        if t.summary is not None:
            text = self.tr("Finished: ") + text
            if t.stopped:
                text += self.tr(". Stopped early: {0}").format(t.stopped)
        elif t.waiting is not None:
            text += self.tr(". Server unavailable, retrying in {0:.0f} s (waiting {1:.0f} s): {2}").format(
                t.waiting.retry_in, t.waiting.waited, translated(t.waiting.cause))  # fmt: skip
        elif self._job is not None and self._job.paused:
            text += self.tr(". Paused.")
        if self._job is not None or t.total:
            self.status_label.setText(text)

    def _update_controls(self) -> None:
        job = self._job
        paused = job is not None and job.paused
        self.pause_button.setEnabled(job is not None and not paused)
        self.resume_button.setEnabled(paused)
        self.cancel_button.setEnabled(job is not None or self._waiting is not None)
        pending = self._store is not None and any(r.state == "queued" for r in self._book.rows)
        self.continue_button.setEnabled(job is None and pending)
        self.add_folder_button.setEnabled(job is None)
        self.add_files_button.setEnabled(job is None)

    def _on_exported(self, written: list[Path] | None, error: BaseException | None) -> None:
        self.export_bar.button.setEnabled(True)
        if error is not None:
            message = self.tr("Export failed: {0}").format(error)
            self.export_bar.result.setText(message)
            self.export_finished.emit(message)
            return
        written = written or []
        names = ", ".join(p.name for p in written[:6])
        self.export_bar.result.setText(self.tr("Wrote %n file(s): {0}", "", len(written)).format(names))
        self.export_finished.emit(written)
