"""A font with Simplified Chinese glyphs on this machine (Debian's fonts-noto-cjk, else WenQuanYi,
else fontconfig's choice): for rendered Chinese invoices and drawn e-invoice pages."""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

from PIL import ImageFont

CJK_FONT_PACKAGE = "fonts-noto-cjk"
CJK_FONT_PATHS = (
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"),
    Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
    Path("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"),
)


@functools.lru_cache(maxsize=1)
def find_cjk_font() -> tuple[Path, int]:
    """A font with Simplified Chinese glyphs and its face index: Noto Sans CJK SC (fonts-noto-cjk),
    else WenQuanYi, else whatever ``fc-list :lang=zh-cn`` offers."""
    candidates = [p for p in CJK_FONT_PATHS if p.is_file()]
    if not candidates:
        try:
            out = subprocess.run(
                ["fc-list", ":lang=zh-cn", "file"], capture_output=True, text=True, timeout=20
            )
            candidates = [Path(line.split(":")[0]) for line in out.stdout.splitlines() if line.strip()]
        except (OSError, subprocess.SubprocessError):
            candidates = []
    for path in candidates:
        for index in range(10):
            try:
                name = " ".join(filter(None, ImageFont.truetype(str(path), 20, index=index).getname()))
            except OSError:
                break
            if "SC" in name.split() or "CJK" not in name:
                return path, index
    raise FileNotFoundError(
        f"no CJK font found: run `apt-get install -y {CJK_FONT_PACKAGE}` "
        "(or `python resources/make_samples.py`, which installs it when run as root)"
    )
