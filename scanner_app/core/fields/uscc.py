"""China's 18-character unified social credit code (统一社会信用代码, GB 32100-2015) check digit."""

from __future__ import annotations

CHARSET = "0123456789ABCDEFGHJKLMNPQRTUWXY"  # 31 characters: no I, O, S, V, Z
WEIGHTS = (1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28)
LENGTH = 18


def check_char(first17: str) -> str:
    """The 18th character for the first 17 (ValueError on characters outside the code's charset)."""
    if len(first17) != LENGTH - 1:
        raise ValueError(f"need {LENGTH - 1} characters, got {len(first17)}")
    try:
        total = sum(CHARSET.index(c) * w for c, w in zip(first17.upper(), WEIGHTS, strict=True))
    except ValueError:
        raise ValueError(f"{first17!r} has characters outside {CHARSET}") from None
    return CHARSET[(31 - total % 31) % 31]


def is_valid_uscc(code: str) -> bool:
    """True when ``code`` is 18 characters of the charset and its last one is the check character."""
    code = code.strip().upper()
    if len(code) != LENGTH or any(c not in CHARSET for c in code):
        return False
    return check_char(code[:-1]) == code[-1]


def looks_like_tax_id(text: str) -> bool:
    """15-20 characters of digits and capitals: the shape of a USCC or an older taxpayer number."""
    t = text.strip().upper()
    return 15 <= len(t) <= 20 and t.isalnum() and t.isascii() and sum(c.isdigit() for c in t) >= 8
