"""Is a file that a copier is still writing complete yet? Cheap structural checks on its last bytes.

A scan-to-folder copier writes a file over seconds, sometimes pausing longer than any size/mtime
settle time. Formats with an end marker tell us when the last byte has landed; a reader that waits
for the marker never reads a half-written file. The checks read at most a few KiB and never decode.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

_TAIL = 2048  # PDF writers may put a few hundred bytes of junk after %%EOF; 1024 is the usual reader limit


def looks_complete(path: Path) -> bool | None:
    """True when the file's format says it is whole, False when it says it is not (yet), None when the
    format has no end marker we can check (TIFF, unknown): the caller relies on size and time alone.

    Raises OSError when the file cannot be read.
    """
    with open(path, "rb") as f:
        head = f.read(16)
        size = os.fstat(f.fileno()).st_size
        f.seek(max(0, size - _TAIL))
        tail = f.read()
    if not head:
        return False
    if head.startswith(b"\xff\xd8\xff"):  # JPEG: ends with EOI (some writers pad with zeros or newlines)
        return tail.rstrip(b"\x00\r\n ").endswith(b"\xff\xd9")
    if head.startswith(b"\x89PNG\r\n\x1a\n"):  # PNG: the IEND chunk (length 0, type, CRC) is last
        return tail[-12:] == b"\x00\x00\x00\x00IEND\xaeB`\x82"
    if head.startswith(b"GIF8"):
        return tail.rstrip(b"\x00").endswith(b"\x3b")
    if head.startswith(b"BM") and len(head) >= 6:  # BMP: the header states the file size
        return struct.unpack("<I", head[2:6])[0] <= size
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":  # RIFF: chunk size + 8 is the file size
        return struct.unpack("<I", head[4:8])[0] + 8 <= size
    if b"%PDF-" in head or (path.suffix.lower() == ".pdf"):
        return b"%%EOF" in tail
    return None
