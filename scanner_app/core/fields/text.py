"""Text normalisation and keyword matching shared by the field extractors."""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

_SPACES = re.compile(r"\s+")


def norm(text: str) -> str:
    """NFKC (full-width to ASCII forms), upper case, single spaces, stripped."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip().upper()


def clean_value(text: str) -> str:
    """A value as shown to people: NFKC, single spaces, stripped of separators at both ends."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip(" :：;,|-_=")


def is_cjk(ch: str) -> bool:
    return "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"


def cjk_share(text: str) -> float:
    """Share of CJK ideographs among the letters of ``text``."""
    letters = [c for c in text if c.isalpha()]
    return sum(map(is_cjk, letters)) / len(letters) if letters else 0.0


@dataclass(frozen=True)
class Keyword:
    """A keyword or phrase with a weight; matches case-insensitively, spaces optional, on word
    boundaries for Latin text (``sub total`` matches ``SUBTOTAL`` and ``Sub Total``)."""

    text: str
    weight: float = 1.0

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        return _compile(norm(self.text))

    def search(self, normalised: str) -> re.Match[str] | None:
        """Find the keyword in text already passed through ``norm``."""
        return self.pattern.search(normalised)


@functools.lru_cache(maxsize=4096)
def _compile(key: str) -> re.Pattern[str]:
    parts = [c for part in key.split(" ") for c in (list(part) if is_cjk(part[:1]) else [part])]
    body = r"\s*".join(re.escape(part) for part in parts)
    head = r"(?<![A-Z0-9])" if key[:1].isascii() and key[:1].isalnum() else ""
    tail = r"(?![A-Z])" if key[-1:].isascii() and key[-1:].isalpha() else ""
    return re.compile(head + body + tail)


def best_keyword(normalised: str, keywords: tuple[Keyword, ...]) -> tuple[Keyword, re.Match[str]] | None:
    """The heaviest keyword found in the text (the longest among equal weights), with its match."""
    best = None
    for kw in keywords:
        m = kw.search(normalised)
        if m and (best is None or (kw.weight, len(kw.text)) > (best[0].weight, len(best[0].text))):
            best = (kw, m)
    return best


def any_keyword(normalised: str, keywords: tuple[Keyword, ...]) -> bool:
    return any(kw.search(normalised) for kw in keywords)
