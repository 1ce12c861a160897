"""Keyword and pattern sets as data: language files and vendor templates under resources/fields/.

Where rules come from, later ones adding to earlier ones (see resources/fields/README.md):
1. ``resources/fields/`` of the project (``*.json`` language sets, ``vendors/*.json`` templates);
2. each folder in ``$SCANNER_APP_FIELD_RULES`` (``os.pathsep``-separated), same layout;
3. ``~/.config/scanner-app/fields/`` when it exists, same layout.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import scanner_app
from scanner_app.core.fields.dates import MONTHS
from scanner_app.core.fields.text import Keyword, norm

ENV_VAR = "SCANNER_APP_FIELD_RULES"
DATE_ORDERS = ("DMY", "MDY")


class RulesError(ValueError):
    """A rules file that cannot be used; the message names the file and the cause."""


@dataclass(frozen=True)
class VendorTemplate:
    """Rules for one known vendor's documents: applied when any ``match`` pattern is on the page."""

    name: str
    match: tuple[re.Pattern[str], ...]
    fields: dict[str, str] = field(default_factory=dict)  # fixed values ("vendor", "currency")
    patterns: dict[str, tuple[re.Pattern[str], ...]] = field(default_factory=dict)  # group "value"
    keywords: dict[str, tuple[Keyword, ...]] = field(default_factory=dict)
    date_order: str | None = None
    source: str = ""

    def matches(self, page_text: str) -> bool:
        return any(p.search(page_text) for p in self.match)


@dataclass(frozen=True)
class Rules:
    """Everything the extractor reads: keywords by category, patterns, date order, currencies."""

    keywords: dict[str, tuple[Keyword, ...]] = field(default_factory=dict)
    patterns: dict[str, tuple[re.Pattern[str], ...]] = field(default_factory=dict)
    currencies: dict[str, str] = field(default_factory=dict)  # symbol or word -> ISO 4217
    months: dict[str, int] = field(default_factory=lambda: dict(MONTHS))
    date_order: str = "DMY"
    templates: tuple[VendorTemplate, ...] = ()
    sources: tuple[str, ...] = ()

    def words(self, category: str) -> tuple[Keyword, ...]:
        return self.keywords.get(category, ())

    def pattern_list(self, name: str) -> tuple[re.Pattern[str], ...]:
        return self.patterns.get(name, ())

    def template_for(self, page_text: str) -> VendorTemplate | None:
        """The first vendor template whose match patterns occur in the page's text."""
        return next((t for t in self.templates if t.matches(page_text)), None)

    def with_template(self, template: VendorTemplate) -> Rules:
        """These rules with a template's keywords (first, so they win ties) and date order."""
        keywords = dict(self.keywords)
        for cat, words in template.keywords.items():
            keywords[cat] = words + keywords.get(cat, ())
        return dataclasses.replace(self, keywords=keywords, date_order=template.date_order or self.date_order)


def builtin_dir() -> Path:
    """resources/fields in the project checkout (the package's parent folder)."""
    return Path(scanner_app.__file__).resolve().parent.parent / "resources" / "fields"


def rule_dirs() -> list[Path]:
    """The folders rules are read from, in order (missing ones are left out)."""
    dirs = [builtin_dir()]
    dirs += [Path(p) for p in os.environ.get(ENV_VAR, "").split(os.pathsep) if p]
    dirs.append(Path.home() / ".config" / "scanner-app" / "fields")
    return [d for d in dirs if d.is_dir()]


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RulesError(f"{path}: cannot read rules: {exc}") from exc
    if not isinstance(data, dict):
        raise RulesError(f"{path}: expected a JSON object at the top level")
    return data


def _keywords(raw: Any, where: str) -> dict[str, tuple[Keyword, ...]]:
    if not isinstance(raw, dict):
        raise RulesError(f"{where}: 'keywords' must be an object of category -> list")
    out = {}
    for cat, items in raw.items():
        if not isinstance(items, list):
            raise RulesError(f"{where}: keywords.{cat} must be a list")
        words = []
        for item in items:
            if isinstance(item, str) and item.strip():
                words.append(Keyword(item))
            elif isinstance(item, list) and len(item) == 2 and isinstance(item[0], str):
                words.append(Keyword(item[0], float(item[1])))
            else:
                raise RulesError(f"{where}: keywords.{cat}: bad entry {item!r} (a string or [text, weight])")
        out[cat] = tuple(words)
    return out


def _patterns(raw: Any, where: str) -> dict[str, tuple[re.Pattern[str], ...]]:
    if not isinstance(raw, dict):
        raise RulesError(f"{where}: 'patterns' must be an object of name -> list of regexes")
    out = {}
    for name, items in raw.items():
        items = [items] if isinstance(items, str) else items
        try:
            out[name] = tuple(re.compile(p, re.IGNORECASE) for p in items)
        except (re.error, TypeError) as exc:
            raise RulesError(f"{where}: patterns.{name}: {exc}") from exc
    return out


def _date_order(raw: Any, where: str) -> str | None:
    if raw is None:
        return None
    if str(raw).upper() not in DATE_ORDERS:
        raise RulesError(f"{where}: date_order must be one of {DATE_ORDERS}, not {raw!r}")
    return str(raw).upper()


def load_template(path: Path) -> VendorTemplate:
    """One vendor template file (schema in resources/fields/README.md)."""
    data = _read(path)
    match = data.get("match")
    if not match or not isinstance(match, list):
        raise RulesError(f"{path}: a vendor template needs 'match': a non-empty list of regexes")
    try:
        compiled = tuple(re.compile(p, re.IGNORECASE) for p in match)
    except re.error as exc:
        raise RulesError(f"{path}: match: {exc}") from exc
    fields = data.get("fields", {})
    if not isinstance(fields, dict) or not all(isinstance(v, str) for v in fields.values()):
        raise RulesError(f"{path}: 'fields' must map field names to strings")
    return VendorTemplate(
        name=str(data.get("name") or path.stem),
        match=compiled,
        fields=dict(fields),
        patterns=_patterns(data.get("patterns", {}), str(path)),
        keywords=_keywords(data.get("keywords", {}), str(path)),
        date_order=_date_order(data.get("date_order"), str(path)),
        source=str(path),
    )


def load_rules(dirs: Sequence[Path] | None = None) -> Rules:
    """Merge every language file and vendor template found in ``dirs`` (default: ``rule_dirs()``)."""
    folders = list(dirs) if dirs is not None else rule_dirs()
    keywords: dict[str, tuple[Keyword, ...]] = {}
    patterns: dict[str, tuple[re.Pattern[str], ...]] = {}
    currencies: dict[str, str] = {}
    months = dict(MONTHS)
    date_order = None
    templates: list[VendorTemplate] = []
    sources: list[str] = []
    for folder in folders:
        for path in sorted(Path(folder).glob("*.json")):
            data = _read(path)
            for cat, words in _keywords(data.get("keywords", {}), str(path)).items():
                keywords[cat] = keywords.get(cat, ()) + words
            for name, pats in _patterns(data.get("patterns", {}), str(path)).items():
                patterns[name] = patterns.get(name, ()) + pats
            currencies.update({norm(k): str(v) for k, v in data.get("currencies", {}).items()})
            months.update({norm(k): int(v) for k, v in data.get("months", {}).items()})
            date_order = date_order or _date_order(data.get("date_order"), str(path))
            sources.append(str(path))
        templates += [load_template(p) for p in sorted(Path(folder).glob("vendors/*.json"))]
    return Rules(keywords, patterns, currencies, months, date_order or "DMY", tuple(templates),
                 tuple(sources + [t.source for t in templates]))  # fmt: skip


@functools.lru_cache(maxsize=1)
def _default(key: tuple[tuple[str, float], ...]) -> Rules:
    rules = load_rules([Path(p) for p, _ in key])
    if not rules.keywords:
        raise RulesError(
            f"no field rules found (looked in {builtin_dir()}, ${ENV_VAR}, ~/.config/scanner-app/fields): "
            "install from a checkout (pip install -e .) or point $SCANNER_APP_FIELD_RULES at resources/fields"
        )
    return rules


def default_rules() -> Rules:
    """``load_rules()`` for the default folders, read again when a file in them changed."""
    key = []
    for folder in rule_dirs():
        files: Iterable[Path] = [*folder.glob("*.json"), *folder.glob("vendors/*.json")]
        stamp = max((p.stat().st_mtime for p in files), default=0.0)
        key.append((str(folder), stamp))
    return _default(tuple(key))
