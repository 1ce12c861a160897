"""Which file system holds a path (Linux's mount table), and which of those are network shares.

Read by the folder watcher (native events do not work on shares: it polls there) and by the receipt
library (SQLite's locking is not safe on shares: it refuses them).
"""

from __future__ import annotations

import os
from pathlib import Path

NETWORK_FS = frozenset((
    "nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "afs", "ncpfs", "davfs", "fuse.sshfs", "fuse.rclone",
    "fuse.gvfsd-fuse", "fuse.s3fs", "glusterfs", "ceph", "lustre",
))  # fmt: skip

MOUNT_TABLE = Path("/proc/self/mounts")


def filesystem_type(path: Path, mounts: Path | None = None) -> str | None:
    """The file system type of the mount holding ``path`` (Linux), or None when unknown.

    ``mounts``: the mount table to read (default MOUNT_TABLE, read when called)."""
    try:
        table = mounts or MOUNT_TABLE
        lines = table.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    real, best, kind = os.path.realpath(path), "", None
    for line in lines:
        parts = line.split()
        if len(parts) < 3:
            continue
        point = parts[1].replace("\\040", " ")
        inside = real == point or real.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best):
            best, kind = point, parts[2]
    return kind


def is_network_path(path: Path, mounts: Path | None = None) -> str | None:
    """The network file system type holding ``path`` (``"nfs4"``), or None on a local one."""
    kind = filesystem_type(path, mounts)
    return kind if kind in NETWORK_FS else None
