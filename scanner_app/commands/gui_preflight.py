"""Before Qt starts: the system libraries its platform plugin needs, named with the apt-get line.

Qt aborts (core dump) when its xcb plugin cannot load, and names only `libxcb-cursor0`, while on a
minimal Debian/Ubuntu what is missing is often `libxcb-icccm4` and `libxcb-keysyms1`. So
`scanner-app gui` asks the dynamic linker first (`ldd` on the plugin and the Qt libraries it
loads) and prints the exact install line. No Qt is imported here.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

# soname -> Debian/Ubuntu package (the same names on both).
DEBIAN_PACKAGES = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-xinput.so.0": "libxcb-xinput0",
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libOpenGL.so.0": "libopengl0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libSM.so.6": "libsm6",
    "libICE.so.6": "libice6",
    "libwayland-client.so.0": "libwayland-client0",
    "libwayland-cursor.so.0": "libwayland-cursor0",
}
_NOT_FOUND = re.compile(r"^\s*(\S+)\s*=>\s*not found", re.MULTILINE)


def missing_sonames(ldd_output: str) -> list[str]:
    """The libraries `ldd` could not resolve, in order, once each."""
    return list(dict.fromkeys(_NOT_FOUND.findall(ldd_output)))


def install_line(
    sonames: Iterable[str], packages: Mapping[str, str] = DEBIAN_PACKAGES, *, root: bool = False
) -> str:
    """`[sudo ]apt-get install -y ...` for the known libraries; unknown ones are named as they are."""
    names = list(dict.fromkeys(packages.get(s, s) for s in sonames))
    return ("" if root else "sudo ") + "apt-get install -y " + " ".join(names)


def platform_plugin(environ: Mapping[str, str]) -> str | None:
    """The platform plugin Qt will load on Linux: 'xcb', 'wayland', another, or None without a display."""
    chosen = environ.get("QT_QPA_PLATFORM", "").split(":")[0].split(";")[0].strip()
    if chosen:
        return chosen
    if environ.get("WAYLAND_DISPLAY") and environ.get("XDG_SESSION_TYPE") == "wayland":
        return "wayland"
    if environ.get("DISPLAY"):
        return "xcb"
    if environ.get("WAYLAND_DISPLAY"):
        return "wayland"
    return None


def qt_files(plugin: str) -> list[Path]:
    """The plugin and the Qt libraries it loads, inside the installed PySide6."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or spec.origin is None:
        return []
    qt = Path(spec.origin).parent / "Qt"
    files = [qt / "plugins" / "platforms" / f"libq{plugin}.so", qt / "lib" / "libQt6Gui.so.6"]
    if plugin == "xcb":
        files.append(qt / "lib" / "libQt6XcbQpa.so.6")
    if plugin == "wayland":
        files.append(qt / "lib" / "libQt6WaylandClient.so.6")
    return [f for f in files if f.is_file()]


def problem(environ: Mapping[str, str] | None = None, *, install: bool = False) -> str | None:
    """A message for people when Qt's platform cannot start here; None when it should.

    With `install`, running as root with apt-get, the missing packages are installed first (what a
    fresh Debian/Ubuntu needs for the README's run command to open the window).
    """
    if not sys.platform.startswith("linux"):
        return None
    environ = os.environ if environ is None else environ
    plugin = platform_plugin(environ)
    if plugin is None:
        return (
            "scanner-app gui needs a display: none is set (no DISPLAY or WAYLAND_DISPLAY). Run it in a "
            "desktop session, or under a virtual one: xvfb-run -a scanner-app gui ..."
        )
    ldd = shutil.which("ldd")
    files = qt_files(plugin)
    if ldd is None or not files:
        return None
    missing = _missing(ldd, files)
    if missing and install and os.geteuid() == 0 and shutil.which("apt-get"):
        packages = install_line(missing, root=True).split()[3:]
        print(f"Installing what Qt's {plugin} plugin needs: {' '.join(packages)}", file=sys.stderr)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], env=env, check=False)
        subprocess.run(["apt-get", "install", "-y", "-qq", *packages], env=env, check=False)
        missing = _missing(ldd, files)
    if not missing:
        return None
    return (
        f"Qt's {plugin} platform plugin cannot load: this system lacks {', '.join(missing)}.\n"
        f"Install them, then start again:\n  {install_line(missing, root=os.geteuid() == 0)}"
    )


def _missing(ldd: str, files: Iterable[Path]) -> list[str]:
    missing: list[str] = []
    for path in files:
        done = subprocess.run([ldd, str(path)], capture_output=True, text=True, timeout=30, check=False)
        missing += missing_sonames(done.stdout)
    return list(dict.fromkeys(missing))
