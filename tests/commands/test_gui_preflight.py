"""`scanner-app gui` names the missing system libraries of Qt's platform plugin before Qt aborts."""

from __future__ import annotations

import shutil
import subprocess

from scanner_app.commands import gui_preflight
from scanner_app.commands.gui_preflight import install_line, missing_sonames, platform_plugin, problem

LDD = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibxcb-icccm.so.4 => not found
\tlibQt6Gui.so.6 => /x/PySide6/Qt/lib/libQt6Gui.so.6 (0x00007f)
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-icccm.so.4 => not found
\tlibweird.so.9 => not found
"""


def test_missing_libraries_are_named_with_their_debian_packages() -> None:
    assert missing_sonames(LDD) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libweird.so.9"]
    assert install_line(missing_sonames(LDD)) == (
        "sudo apt-get install -y libxcb-icccm4 libxcb-keysyms1 libweird.so.9"
    )
    assert install_line(["libxcb-cursor.so.0"], root=True) == "apt-get install -y libxcb-cursor0"


def test_the_platform_qt_will_pick() -> None:
    assert platform_plugin({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"}) == "offscreen"
    assert platform_plugin({"DISPLAY": ":0"}) == "xcb"
    assert platform_plugin({"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"}) == "wayland"
    assert platform_plugin({}) is None
    assert "xvfb-run" in (problem({}) or "")


def test_the_real_plugin_is_checked_with_the_real_linker() -> None:
    """What `ldd` says of the installed xcb plugin decides the answer, whatever this machine lacks."""
    plugin_files = gui_preflight.qt_files("xcb")
    assert any(f.name == "libqxcb.so" for f in plugin_files)
    ldd = shutil.which("ldd")
    assert ldd is not None
    missing: list[str] = []
    for path in plugin_files:
        missing += missing_sonames(subprocess.run([ldd, str(path)], capture_output=True, text=True).stdout)
    message = problem({"DISPLAY": ":99"})
    if missing:
        assert message is not None and install_line(dict.fromkeys(missing))[-30:] in message
    else:
        assert message is None
    assert problem({"QT_QPA_PLATFORM": "offscreen"}) is None  # the tests' own platform loads
