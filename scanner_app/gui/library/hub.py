"""The app's receipt library: which file, opened off the GUI thread, and the page sinks of the ways in.

The file: ``--library PATH`` from the command line, else the setting ``library/path`` (the Library
tab's "Library file..."), else the default (``core.library.location``). ``LibraryHub.sink(way_in)``
is the page sink a way in hands its batch store: one object per way in for the app's lifetime, which
passes each page to the library open at the time (it waits on its saving thread while one is being
opened) and then tells the GUI thread, by ``receipts_added``, that receipts came in.
"""

from __future__ import annotations

import functools
import logging
import threading
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, Signal

from scanner_app.core.library.library import Library
from scanner_app.core.library.location import default_library_path
from scanner_app.core.library.sink import LibrarySink
from scanner_app.core.results import PageResult
from scanner_app.core.store.records import FileRecord
from scanner_app.gui.background import Background
from scanner_app.gui.i18n.core_text import translated

log = logging.getLogger(__name__)

SETTING = "library/path"
OPEN_WAIT_S = 120.0  # a page saved while the library opens waits this long for it


def chosen_path(command_line: Path | None = None) -> Path:
    """The library file: the command line's, else the setting's, else the default."""
    if command_line:
        return Path(command_line).expanduser().absolute()
    setting = str(QSettings().value(SETTING, "") or "")
    return Path(setting).expanduser().absolute() if setting else default_library_path().absolute()


@dataclass(frozen=True)
class _Added:
    way_in: str
    receipts: int  # added or updated
    problem: str | None  # why a page could not be added, if it could not


class _Current:
    """The library open now, shared with the saving threads (every method thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ready = threading.Event()  # set while no open is in progress
        self._ready.set()
        self.library: Library | None = None
        self._sinks: dict[str, LibrarySink] = {}
        self.closed = False

    def opening(self) -> None:
        self._ready.clear()

    def swap(self, library: Library | None) -> Library | None:
        """``library`` is the current one now (None: none could be opened); the previous one."""
        with self._lock:
            old, self.library, self._sinks = self.library, library, {}
        self._ready.set()
        return old

    def sink(self, way_in: str) -> LibrarySink | None:
        if not self._ready.wait(OPEN_WAIT_S):
            return None
        with self._lock:
            if self.closed or self.library is None:
                return None
            if way_in not in self._sinks:
                self._sinks[way_in] = self.library.sink(way_in)
            return self._sinks[way_in]


class WayInSink:
    """A core.store PageSink for one way in: hands each page to the current library."""

    def __init__(self, current: _Current, way_in: str, post) -> None:
        self._current, self.way_in, self._post = current, way_in, post

    def page_saved(self, batch: Path, file: FileRecord, index: int, result: PageResult) -> None:
        sink = self._current.sink(self.way_in)
        if sink is None:
            return
        added, problems = sink.added, len(sink.problems)
        sink.page_saved(batch, file, index, result)  # never raises: a failed page is in sink.problems
        problem = sink.problems[-1] if len(sink.problems) > problems else None
        self._post(_Added(self.way_in, sink.added - added, problem))


class LibraryHub(QObject):
    """The library open in the app; ``open(path)`` switches to another file."""

    opened = Signal(object)  # the Library now open
    failed = Signal(str)  # the library could not be opened, or a page could not be added to it
    receipts_added = Signal(int)  # receipts added or updated by the app's own ways in

    def __init__(self, command_line: Path | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._current = _Current()
        self._background = Background(self, threads=1)  # opens and closes, in order
        self._post = self._background.relay(self._on_added)
        self._sinks: dict[str, WayInSink] = {}
        self.path = chosen_path(command_line)
        self.open(self.path)

    @property
    def library(self) -> Library | None:
        """The library open now (its methods are thread-safe; call them off the GUI thread)."""
        return self._current.library

    def sink(self, way_in: str) -> WayInSink:
        """The page sink for ``way_in`` ("viewer", "camera", "clipboard", "batch", "scanner", "watch")."""
        if way_in not in self._sinks:
            self._sinks[way_in] = WayInSink(self._current, way_in, self._post)
        return self._sinks[way_in]

    def open(self, path: Path) -> None:
        """Use the library file ``path`` from now on (created when new); ``opened`` or ``failed`` follows."""
        self.path = Path(path).expanduser().absolute()
        self._current.opening()
        self._background.run(functools.partial(_open, self._current, self.path), self._on_opened, slot="open")

    def choose(self, path: Path) -> None:
        """A person chose this file: remembered in the settings, and opened."""
        QSettings().setValue(SETTING, str(Path(path).expanduser().absolute()))
        self.open(path)

    def shutdown(self, msecs: int = 10_000) -> None:
        """Close the library (after the ways in have stopped saving pages)."""
        self._background.close()
        self._background.wait(msecs)
        self._current.closed = True
        library = self._current.swap(None)
        if library is not None:
            library.close()

    def _on_opened(self, library: Library | None, error: BaseException | None) -> None:
        if library is None:
            text = self.tr("The library {0} cannot be opened: {1}")
            self.failed.emit(text.format(self.path, translated(str(error))))
            return
        self.opened.emit(library)

    def _on_added(self, items: list[_Added]) -> None:
        for item in items:
            if item.problem:
                log.warning("not in the library: %s", item.problem)
                self.failed.emit(self.tr("Not added to the library: {0}").format(translated(item.problem)))
        self.receipts_added.emit(sum(item.receipts for item in items))


def _open(current: _Current, path: Path) -> Library:
    """On the hub's thread: open ``path`` and make it the current library at once (the ways in stop
    waiting), then close the previous one (a page being added to it then is logged, not lost: it is
    in its batch store). None can be opened: no library is current."""
    try:
        library = Library(path)
    except BaseException:
        _close(current.swap(None))
        raise
    _close(current.swap(library))
    return library


def _close(library: Library | None) -> None:
    if library is not None:
        library.close()
