"""What a step's error tells a client: the cause, never a source path or a traceback (pure)."""

from __future__ import annotations

import re

# A path with a source or library suffix, with an optional ":line" or "(line)".
_SOURCE_PATH = re.compile(r"(?:[A-Za-z]:)?(?:/[\w.+-]+)+\.(?:py|pyc|cc|cpp|cxx|c|h|hpp|so)\b(?:[:(]\d+\)?)?")
_TRACEBACK = re.compile(r"\n?\s*(?:At:|Traceback \(most recent call last\):).*", re.DOTALL)


def client_message(text: str, limit: int = 500) -> str:
    """`text` without tracebacks and source paths, at most `limit` characters."""
    cleaned = _SOURCE_PATH.sub("<source>", _TRACEBACK.sub("", text)).strip()
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 3] + "..."
