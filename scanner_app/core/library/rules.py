"""Vendor rules: which category a receipt goes under, by its vendor (exact, any of some words, a
regular expression, fuzzy) or by words in its text; and the rules the library learns from people.

Explicit rules are tried first, in the order they were added; then the learned ones (a person filed a
receipt of vendor V under C: the next receipt of V goes under C). A category a person chose is never
changed by a rule.
"""

from __future__ import annotations

import re
import sqlite3
import time
import unicodedata
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal, get_args

RuleKind = Literal["exact", "words", "regex", "fuzzy", "text"]
RULE_KINDS: tuple[RuleKind, ...] = get_args(RuleKind)
FUZZY_RATIO = 0.85  # SequenceMatcher ratio of the normalised vendor names


@dataclass(frozen=True)
class Rule:
    id: int
    kind: RuleKind
    pattern: str
    category: str
    learned: bool

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "kind": self.kind, "pattern": self.pattern, "category": self.category,
                "learned": self.learned}  # fmt: skip

    def matches(self, vendor: str, text: str) -> bool:
        if self.kind == "text":
            return _any_word(self.pattern, text)
        if not vendor:
            return False
        if self.kind == "regex":
            return re.search(self.pattern, vendor, re.IGNORECASE) is not None
        if self.kind == "words":
            return _any_word(self.pattern, vendor)
        ours, theirs = normalise(vendor), normalise(self.pattern)
        if self.kind == "exact":
            return ours == theirs
        return SequenceMatcher(None, ours, theirs).ratio() >= FUZZY_RATIO


class RuleError(ValueError):
    """A rule that cannot be made (unknown kind, bad regular expression, empty pattern)."""


def normalise(text: str) -> str:
    """Casefolded, accents and punctuation dropped, spaces collapsed (``"Café  Nero, Ltd."`` ->
    ``cafe nero ltd``)."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", plain).split())


def _any_word(words: str, text: str) -> bool:
    """Any of ``words`` (space-separated) in ``text`` as a whole word; CJK words as substrings."""
    haystack = f" {normalise(text)} "
    for word in normalise(words).split():
        if any("\u3400" <= c <= "\u9fff" for c in word):
            if word in haystack:
                return True
        elif f" {word} " in haystack:
            return True
    return False


def validate(kind: str, pattern: str) -> RuleKind:
    if kind not in RULE_KINDS:
        raise RuleError(f"unknown rule kind {kind!r}; choose from {', '.join(RULE_KINDS)}")
    if not pattern.strip():
        raise RuleError("a rule needs a pattern")
    if kind == "regex":
        try:
            re.compile(pattern)
        except re.error as exc:
            raise RuleError(f"bad regular expression {pattern!r}: {exc}") from None
    return kind


def all_rules(db: sqlite3.Connection, learned: bool | None = None) -> list[Rule]:
    """Rules in the order they are tried: explicit ones by id, then learned ones by id."""
    where = "" if learned is None else f"WHERE r.learned = {int(learned)}"
    rows = db.execute(
        "SELECT r.id, r.kind, r.pattern, c.name, r.learned FROM rules r"
        " JOIN categories c ON c.id = r.category_id"
        f" {where} ORDER BY r.learned, r.id"
    )
    return [Rule(r[0], r[1], r[2], r[3], bool(r[4])) for r in rows]


def add_rule(db: sqlite3.Connection, kind: str, pattern: str, category_id: int) -> int:
    checked = validate(kind, pattern)
    cur = db.execute(
        "INSERT INTO rules (kind, pattern, category_id, learned, created_at) VALUES (?, ?, ?, 0, ?)"
        " ON CONFLICT (kind, pattern, learned) DO UPDATE SET category_id = excluded.category_id RETURNING id",
        (checked, pattern.strip(), category_id, time.time()),
    )
    return int(cur.fetchone()[0])


def remove_rule(db: sqlite3.Connection, rule_id: int) -> bool:
    return db.execute("DELETE FROM rules WHERE id = ?", (rule_id,)).rowcount > 0


def learn(db: sqlite3.Connection, vendor: str, category_id: int | None) -> None:
    """A person filed a receipt of ``vendor`` under ``category_id`` (None: took its category away)."""
    key = normalise(vendor)
    if not key:
        return
    if category_id is None:
        db.execute("DELETE FROM rules WHERE learned = 1 AND kind = 'fuzzy' AND pattern = ?", (key,))
        return
    db.execute(
        "INSERT INTO rules (kind, pattern, category_id, learned, created_at) VALUES ('fuzzy', ?, ?, 1, ?)"
        " ON CONFLICT (kind, pattern, learned) DO UPDATE SET category_id = excluded.category_id,"
        " created_at = excluded.created_at",
        (key, category_id, time.time()),
    )


def category_for(db: sqlite3.Connection, vendor: str, text: str) -> tuple[int, str] | None:
    """(category id, 'rule' or 'learned') of the first rule that matches, or None."""
    rows = db.execute("SELECT id, kind, pattern, category_id, learned FROM rules ORDER BY learned, id")
    for rule_id, kind, pattern, category_id, learned in rows:
        if Rule(rule_id, kind, pattern, "", bool(learned)).matches(vendor, text):
            return int(category_id), "learned" if learned else "rule"
    return None
