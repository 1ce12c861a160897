""""Watch a folder" on the Batch tab: a row that starts and stops a core FolderWatcher and shows what
it reads. The watcher runs on its own threads (scanner_app.core.watch.watcher); starting and stopping it
(listing the folder, waiting for pages in flight) go through Background; its events come back
through a Background relay, a list at a time, and are folded into WatchCounts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QPushButton, QWidget

from scanner_app.core.batch.events import FileFailed, ServerWaiting
from scanner_app.core.store.sink import PageSink
from scanner_app.core.watch.events import FileExported, FileSkipped, WatchNotice, WatchStarted
from scanner_app.core.watch.watcher import FolderWatcher, WatchOptions
from scanner_app.gui.background import Background
from scanner_app.gui.connection.link import ServerConnection


@dataclass
class WatchCounts:
    """What the watcher did since it started (GUI thread only)."""

    read: int = 0
    failed: int = 0
    skipped: int = 0
    known: int = 0
    how: str = ""
    last: str = ""

    def apply(self, event: object) -> None:
        if isinstance(event, WatchStarted):
            self.known, self.how = event.known, event.observer
        elif isinstance(event, FileExported):
            self.read += 1
            self.last = event.path.name
        elif isinstance(event, FileFailed):
            self.failed += 1
            self.last = event.cause
        elif isinstance(event, FileSkipped):
            self.skipped += 1
        elif isinstance(event, WatchNotice | ServerWaiting):
            self.last = event.message if isinstance(event, WatchNotice) else event.cause


class WatchBar(QWidget):
    """``watch(folder, out)`` / ``stop()``; ``watching_changed(bool)``; ``file_read(Path)`` per file."""

    watching_changed = Signal(bool)
    file_read = Signal(object)  # Path of a file whose exports are written

    def __init__(
        self, connection: ServerConnection, parent: QWidget | None = None, sink: PageSink | None = None
    ) -> None:
        """``sink``: told of each page the watcher saves (the receipt library)."""
        super().__init__(parent)
        self._connection = connection
        self._sink = sink
        self._watcher: FolderWatcher | None = None
        self._background = Background(self, threads=1)  # start and stop, in order
        self._post = self._background.relay(self._on_events)
        self.counts = WatchCounts()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.watch_button = QPushButton(self.tr("Watch a folder..."), self)
        self.watch_button.setToolTip(self.tr("Read every image or PDF that appears in a folder, once "
                                             "(a copier's scan-to-folder)"))  # fmt: skip
        self.watch_button.clicked.connect(self._choose)
        self.stop_button = QPushButton(self.tr("Stop watching"), self)
        self.stop_button.clicked.connect(self.stop)
        self.status = QLabel(self.tr("Not watching a folder."), self)
        self.status.setWordWrap(True)
        row.addWidget(self.watch_button)
        row.addWidget(self.stop_button)
        row.addWidget(self.status, 1)
        self._update_controls()

    @property
    def watching(self) -> bool:
        return self._watcher is not None

    def watch(self, folder: Path, out: Path) -> None:
        """Start watching ``folder`` into ``out`` (its store and per-file exports)."""
        if self._watcher is not None:
            return
        jobs = int(str(QSettings().value("batch/jobs", 4) or 4))  # the Batch tab's "Requests in flight"
        options = WatchOptions(formats=("txt", "json"), jobs=jobs)
        recognize = self._connection.batch_recognizer().recognize
        try:
            watcher = FolderWatcher(folder, out, recognize, options, self._post, sink=self._sink)
        except (OSError, ValueError) as exc:
            self.status.setText(self.tr("Cannot watch {0}: {1}").format(folder, exc))
            return
        self._watcher, self.counts = watcher, WatchCounts()
        self.status.setText(self.tr("Starting to watch {0}...").format(folder))
        self._background.run(watcher.start, self._on_started)
        self._update_controls()
        self.watching_changed.emit(True)

    def stop(self) -> None:
        """Stop watching; pages in flight finish and are saved (off the GUI thread)."""
        watcher, self._watcher = self._watcher, None
        if watcher is None:
            return
        self.status.setText(self.tr("Stopping: waiting for the pages in flight..."))
        self._background.run(watcher.stop, lambda _r, _e: self._on_stopped(watcher))
        self._update_controls()
        self.watching_changed.emit(False)

    def shutdown(self, timeout_s: float = 30.0) -> None:
        """On app exit: stop the watcher and wait for it (up to ``timeout_s``)."""
        self.stop()
        self._background.wait(round(timeout_s * 1000))

    def _choose(self) -> None:
        settings = QSettings()
        folder = QFileDialog.getExistingDirectory(self, self.tr("Folder to watch"),
                                                  str(settings.value("watch/folder", "") or ""))  # fmt: skip
        if not folder:
            return
        out = QFileDialog.getExistingDirectory(self, self.tr("Where the results go"),
                                               str(settings.value("watch/out", "") or ""))  # fmt: skip
        if not out:
            return
        settings.setValue("watch/folder", folder)
        settings.setValue("watch/out", out)
        self.watch(Path(folder), Path(out))

    def _on_started(self, _result: object, error: BaseException | None) -> None:
        if error is not None:
            self.status.setText(self.tr("Cannot watch: {0}").format(error))
            watcher, self._watcher = self._watcher, None
            if watcher is not None:
                self._background.run(watcher.stop, lambda _r, _e: None)
            self._update_controls()
            self.watching_changed.emit(False)

    def _on_stopped(self, watcher: FolderWatcher) -> None:
        c = self.counts
        self.status.setText(self.tr("Stopped watching {0}: {1} read, {2} failed.").format(
            watcher.folder, c.read, c.failed))  # fmt: skip
        self._update_controls()

    def _on_events(self, events: list[object]) -> None:
        for event in events:
            self.counts.apply(event)
            if isinstance(event, FileExported):
                self.file_read.emit(event.path)
        if self._watcher is None:
            return
        c = self.counts
        text = self.tr("Watching {0} ({1}): {2} read, {3} failed, {4} read before").format(
            self._watcher.folder, c.how, c.read, c.failed, c.known)  # fmt: skip
        if c.skipped:
            text += self.tr(", {0} skipped").format(c.skipped)
        self.status.setText(text + (f". {c.last}" if c.last else "."))

    def _update_controls(self) -> None:
        self.watch_button.setEnabled(self._watcher is None)
        self.stop_button.setEnabled(self._watcher is not None)
