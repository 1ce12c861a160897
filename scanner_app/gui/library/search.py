"""A search as the Library tab holds it, and what one fetch brings back (no Qt: runs off the GUI thread).

``SearchState`` is the search box and its filters as typed (text; saved searches keep it as JSON);
``filters()`` turns it into the library's ``Filters`` or raises ``SearchError`` naming the field.
``fetch`` runs the search and reads the rows, the open duplicate flags and the categories in one go.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields
from decimal import Decimal, InvalidOperation
from typing import Any

from scanner_app.core.library.duplicates import DuplicateFlag
from scanner_app.core.library.library import Library
from scanner_app.core.library.listing import ReceiptSummary, summaries
from scanner_app.core.library.search import Filters

ROW_LIMIT = 20_000  # rows fetched at most; the status line says when more were found


class SearchError(ValueError):
    """A filter that cannot be read (``name``: the field); the message says what is wrong."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name


@dataclass(frozen=True)
class SearchState:
    """The words and the filters as typed; empty means any."""

    query: str = ""
    vendor: str = ""
    date_from: str = ""  # YYYY-MM-DD
    date_to: str = ""
    amount_min: str = ""
    amount_max: str = ""
    currency: str = ""
    category: str = ""
    tag: str = ""
    status: str = ""
    way_in: str = ""
    duplicates_only: bool = False  # only the receipts flagged as duplicates, not decided yet

    def filters(self) -> Filters:
        return Filters(
            vendor=self.vendor.strip() or None,
            date_from=_date("date_from", self.date_from),
            date_to=_date("date_to", self.date_to),
            amount_min=_amount("amount_min", self.amount_min),
            amount_max=_amount("amount_max", self.amount_max),
            currency=self.currency.strip().upper() or None,
            category=self.category or None,
            tag=self.tag.strip() or None,
            status=self.status or None,
            way_in=self.way_in or None,
        )

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> SearchState:
        """A saved search; unknown keys (a newer version's) are ignored, missing ones are empty."""
        data = json.loads(text)
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for name, value in (data if isinstance(data, dict) else {}).items():
            if name in known:
                values[name] = bool(value) if name == "duplicates_only" else str(value)
        return cls(**values)


def _date(name: str, text: str) -> datetime.date | None:
    text = text.strip()
    if not text:
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise SearchError(name, f"{text!r} is not a date (YYYY-MM-DD)") from None


def _amount(name: str, text: str) -> Decimal | None:
    text = text.strip().replace(",", "")
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise SearchError(name, f"{text!r} is not an amount") from None
    if not value.is_finite():
        raise SearchError(name, f"{text!r} is not an amount")
    return value


@dataclass(frozen=True)
class LibraryRow:
    """One receipt as the table shows it."""

    id: int
    date: str  # ISO, or "" when none was read
    vendor: str
    total: Decimal | None
    currency: str
    category: str
    status: str
    way_in: str
    source: str  # the file's path
    page: int  # from 1
    pages: int
    document: int | None
    batch: str | None  # the batch store the page was saved in
    tags: tuple[str, ...] = ()
    note: str = ""
    exports: tuple[str, ...] = ()

    @property
    def total_text(self) -> str:
        return str(self.total) if self.total is not None else ""


def row_of(receipt: ReceiptSummary) -> LibraryRow:
    try:
        total = Decimal(receipt.total) if receipt.total else None
    except InvalidOperation:
        total = None
    return LibraryRow(
        id=receipt.id, date=receipt.date, vendor=receipt.vendor, total=total, currency=receipt.currency,
        category=receipt.category or "", status=receipt.status, way_in=receipt.way_in,
        source=receipt.source_path, page=receipt.page, pages=receipt.pages, document=receipt.document,
        batch=receipt.batch, tags=receipt.tags, note=receipt.note, exports=receipt.exports,
    )  # fmt: skip


@dataclass(frozen=True)
class Fetched:
    """One search's answer: the rows found (newest first), the open duplicate flags by the later
    receipt's id, the receipts those flags repeat, the categories, and the library's size."""

    state: SearchState
    rows: tuple[LibraryRow, ...]
    flags: dict[int, DuplicateFlag] = field(default_factory=dict)
    originals: dict[int, LibraryRow] = field(default_factory=dict)
    categories: tuple[str, ...] = ()
    total: int = 0  # receipts in the library
    limited: bool = False  # more were found than ROW_LIMIT


def fetch(library: Library, state: SearchState, limit: int = ROW_LIMIT) -> Fetched:
    """Run ``state``'s search (SearchError when a filter cannot be read)."""
    filters = state.filters()
    flags = {f.receipt_id: f for f in library.duplicates(("open",))}
    ids = library.search_ids(state.query, filters, None if state.duplicates_only else limit + 1)
    if state.duplicates_only:
        ids = [i for i in ids if i in flags]
    limited = len(ids) > limit
    rows = tuple(row_of(r) for r in summaries(library, ids[:limit]))
    originals = {r.id: row_of(r) for r in summaries(library, sorted({f.original_id for f in flags.values()}))}
    categories = tuple(c.name for c in library.categories())
    return Fetched(state, rows, flags, originals, categories, library.count(), limited)


@dataclass(frozen=True)
class EditDone:
    """A bulk edit's outcome: how many receipts changed, and the first errors (one line each)."""

    changed: int
    errors: tuple[str, ...] = ()


def edit_each(library: Library, ids: Sequence[int], edit: Callable[[Library, int], object]) -> EditDone:
    """``edit(library, id)`` for every receipt (each its own transaction); errors are kept, not raised."""
    changed, errors = 0, list[str]()
    for receipt_id in ids:
        try:
            edit(library, receipt_id)
            changed += 1
        except (ValueError, LookupError) as exc:  # EditError, CategoryError: the receipt is left as it was
            if len(errors) < 5:
                errors.append(f"#{receipt_id}: {exc}")
    return EditDone(changed, tuple(errors))
