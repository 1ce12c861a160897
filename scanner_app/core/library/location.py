"""Where the library lives: the user's data folder by default, never on a network share."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from scanner_app.core.mounts import is_network_path

LIBRARY_ENV = "SCANNER_APP_LIBRARY"  # a library file to use instead of the default (tests, scripts)
LIBRARY_NAME = "library.sqlite"
APP_FOLDER = "scanner-app"


class LibraryLocationError(OSError):
    """The library cannot live there (a network share); the message says where and why."""


def data_folder() -> Path:
    """The user's data folder for the app: XDG_DATA_HOME (or ~/.local/share) on Linux and the BSDs,
    ~/Library/Application Support on macOS, %LOCALAPPDATA% (else %APPDATA%) on Windows."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.environ.get("APPDATA")
        return Path(base) / APP_FOLDER if base else Path.home() / "AppData" / "Local" / APP_FOLDER
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / APP_FOLDER
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / APP_FOLDER


def default_library_path() -> Path:
    """$SCANNER_APP_LIBRARY when set, else ``library.sqlite`` in the user's data folder."""
    chosen = os.environ.get(LIBRARY_ENV)
    return Path(chosen).expanduser() if chosen else data_folder() / LIBRARY_NAME


def refuse_network_share(path: Path) -> None:
    """Raise LibraryLocationError when ``path`` lies on a network file system (from the mount table).

    SQLite's locks, and WAL's shared memory, do not work across machines on NFS, SMB/CIFS or sshfs:
    two writers there can corrupt the file. The library must be on a local disk.
    """
    kind = is_network_path(path)
    if kind:
        raise LibraryLocationError(
            f"{path}: the library cannot live on a network file system ({kind}): SQLite cannot lock "
            "it safely there. Choose a folder on a local disk with --library PATH "
            "(and back it up to the share with `scanner-app library backup`)."
        )
