"""The Qt binding keeps Python's reference counts right (PySide6 6.12.0 on Python 3.11 does not:
every void call and signal emit drops a reference to None or True, and the app aborts with
"Fatal Python error: none_dealloc" after a few thousand of them)."""

from __future__ import annotations

import sys

import PySide6
from PySide6.QtCore import QObject, QSettings, QTimer, Signal


class _Emitter(QObject):
    changed = Signal(int)


def test_void_calls_and_emits_keep_none_and_true_alive(qapp) -> None:
    emitter, timer, settings = _Emitter(), QTimer(), QSettings()
    emitter.changed.connect(lambda _value: None)
    before = sys.getrefcount(None), sys.getrefcount(True)
    for i in range(500):
        timer.start(1000)
        timer.stop()
        emitter.changed.emit(i)
        settings.setValue("probe", i)
    lost_none = before[0] - sys.getrefcount(None)
    lost_true = before[1] - sys.getrefcount(True)
    assert lost_none < 50 and lost_true < 50, (
        f"PySide6 {PySide6.__version__} on Python {sys.version.split()[0]} leaks references "
        f"(None: -{lost_none}, True: -{lost_true} over 500 rounds); see the pin in pyproject.toml"
    )
