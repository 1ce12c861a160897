"""A clerk's review of a batch (no Qt): every receipt with its fields (people's edits applied), its
flags and its "checked" mark, the queue of fields that need a look, and the reimbursement sheet.

A receipt is numbered as in the reimbursement sheet: 0 for a page's only document, 1-based on a
page with several (as the store numbers field edits and checked marks). A field of the sheet
(``REVIEW_FIELDS``) needs a look when it has a flag (a failed check naming it, a confidence below
``LOW_CONFIDENCE``, a required field not found) and no person has set it yet; receipts marked as
checked are skipped. Fields the sheet does not carry (address, tax rate) keep their flags in the
exports but do not hold the clerk up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from pathlib import Path

from scanner_app.core.export.fields_sheet import receipt_rows
from scanner_app.core.export.reimbursement import COLUMNS, SheetRow, write_sheet
from scanner_app.core.fields.amounts import to_decimal
from scanner_app.core.fields.dates import parse_date
from scanner_app.core.fields.extract import extract_fields
from scanner_app.core.fields.model import LOW_CONFIDENCE, REQUIRED_FIELDS, InvoiceFields
from scanner_app.core.store.apply_edits import edited_page
from scanner_app.core.store.batch_store import BatchStore, PageRecord

__all__ = ["LOW_CONFIDENCE", "FileReview", "ReceiptReview", "ReviewItem", "ReviewQueue", "load_reviews",
           "write_batch_sheet"]  # fmt: skip

ReceiptKey = tuple[int, int]  # (page id, receipt)
REVIEW_FIELDS = tuple(dict.fromkeys([*REQUIRED_FIELDS, *(c for c in COLUMNS if c not in ("file", "flags"))]))


@dataclass(frozen=True)
class ReceiptReview:
    """One receipt of a batch as the clerk reviews it."""

    file_id: int
    page_id: int
    source: str
    page: int  # 1-based
    receipt: int  # 0: the page's only document; 1-based on a page with several
    fields: InvoiceFields
    edited: frozenset[str] = frozenset()  # field names a person set (stored field edits)
    checked: bool = False

    @property
    def key(self) -> ReceiptKey:
        return (self.page_id, self.receipt)

    @property
    def flags(self) -> list[str]:
        return self.fields.all_flags()

    def sheet_row(self) -> SheetRow:
        return SheetRow(self.source, self.fields, self.page, self.receipt)

    def items(self) -> list[ReviewItem]:
        """The fields of this receipt that need a look, in the order the Fields tab lists them."""
        out = []
        for name in (n for n in COLUMNS if n in REVIEW_FIELDS):
            flags = self.fields.flags(name)
            if flags and name not in self.edited:
                f = self.fields.get(name)
                out.append(ReviewItem(self.key, name, tuple(flags), f.value if f else "",
                                      f.confidence if f else 0.0))  # fmt: skip
        return out


@dataclass(frozen=True)
class ReviewItem:
    """One field to look at: which receipt, which field, why, and what was read."""

    receipt: ReceiptKey
    name: str
    flags: tuple[str, ...]
    value: str
    confidence: float


@dataclass(frozen=True)
class FileReview:
    """A file's receipts summed up for the batch table: vendor, date, total, flags, receipts, checked
    (worked out once: the table asks on every repaint and sort)."""

    receipts: tuple[ReceiptReview, ...]

    @property
    def count(self) -> int:
        return len(self.receipts)

    @cached_property
    def vendor(self) -> str:
        return "; ".join(v for v in dict.fromkeys(r.fields.value("vendor") for r in self.receipts) if v)

    @cached_property
    def date(self) -> str:
        """The earliest date read (ISO when read; a hand-typed one as typed)."""
        dates = sorted((sort_date(d), d) for d in (r.fields.value("date") for r in self.receipts) if d)
        return dates[0][1] if dates else ""

    @cached_property
    def total(self) -> Decimal | None:
        """The receipts' totals added up (None when none was read)."""
        values = [to_decimal(r.fields.value("total")) for r in self.receipts if r.fields.value("total")]
        found = [v for v in values if v is not None]
        return sum(found, Decimal(0)) if found else None

    @cached_property
    def flag_count(self) -> int:
        """The sheet's fields that need a look (``items``) on these receipts."""
        return sum(len(r.items()) for r in self.receipts)

    @cached_property
    def checked(self) -> int:
        return sum(1 for r in self.receipts if r.checked)


def sort_date(text: str) -> str:
    """A date as an ISO string that sorts in time order ("" when no date can be read from it)."""
    return parse_date(text) or "" if text else ""


def _receipts_of(record: PageRecord, source: str, edits: Mapping[str, str],
                 receipt_edits: Mapping[int, Mapping[str, str]],
                 checked: set[ReceiptKey]) -> list[ReceiptReview]:  # fmt: skip
    """The page's receipts as the sheet has them (``receipt_rows``: the CLI's rows), people's edits
    applied: ``edits`` (the page's) to its only document, ``receipt_edits`` (by receipt from 1) to
    each of several."""
    page = edited_page(record)
    fields = extract_fields(page).with_values(edits)
    rows = receipt_rows(source, record.index + 1, page, fields, receipt_edits)

    def edited(receipt: int) -> frozenset[str]:
        return frozenset(edits if receipt == 0 else receipt_edits.get(receipt, {}))

    return [ReceiptReview(record.file_id, record.id, source, row.page, row.receipt, row.fields,
                          edited(row.receipt), (record.id, row.receipt) in checked)
            for row in rows]  # fmt: skip


def load_reviews(store: BatchStore, file_ids: Iterable[int] | None = None) -> list[ReceiptReview]:
    """Every receipt of the store's done files (or of ``file_ids``), in the store's order (blocking)."""
    wanted = set(file_ids) if file_ids is not None else None
    edits, receipt_edits, checked = store.field_edits(), store.receipt_field_edits(), store.checked_receipts()
    out: list[ReceiptReview] = []
    for file in store.files("done"):
        if wanted is not None and file.id not in wanted:
            continue
        for record in store.pages(file):
            out += _receipts_of(record, str(file.path), edits.get(record.id, {}),
                                receipt_edits.get(record.id, {}), checked)  # fmt: skip
    return out


def by_file(reviews: Iterable[ReceiptReview]) -> dict[int, FileReview]:
    """File id -> its receipts."""
    grouped: dict[int, list[ReceiptReview]] = {}
    for review in reviews:
        grouped.setdefault(review.file_id, []).append(review)
    return {file_id: FileReview(tuple(items)) for file_id, items in grouped.items()}


def write_batch_sheet(store: BatchStore, path: Path, headers: Sequence[str] | None = None) -> Path:
    """The batch's reimbursement sheet (XLSX or CSV by suffix, the CLI's writer): a row per receipt,
    people's edits applied (blocking: reads the store, writes the file). ``headers``: the column
    names to write (the app passes them in the UI language; default the CLI's COLUMNS)."""
    return write_sheet([r.sheet_row() for r in load_reviews(store)], Path(path), headers=headers)


@dataclass
class ReviewQueue:
    """The fields that need a look, walked one at a time; ``position`` is the current one's index.

    ``update(reviews)`` replaces the receipts (after an edit or a new file) and keeps the place:
    the same item when it is still open, else the one that followed it. ``set_order(file_ids)``
    walks the files in the order given (the table as sorted on screen); files not named follow in
    the store's order.
    """

    reviews: list[ReceiptReview] = field(default_factory=list)
    items: list[ReviewItem] = field(default_factory=list)
    position: int = 0
    file_order: dict[int, int] = field(default_factory=dict)  # file id -> rank in the walk

    def set_order(self, file_ids: Iterable[int]) -> None:
        """Walk the files in this order from now on (the current item stays current)."""
        order = {file_id: rank for rank, file_id in enumerate(dict.fromkeys(file_ids))}
        if order != self.file_order:
            current = self.current
            self.file_order = order
            self.update(self.reviews)
            if current is not None:
                keys = [(i.receipt, i.name) for i in self.items]
                key = (current.receipt, current.name)
                self.position = keys.index(key) if key in keys else 0

    def update(self, reviews: Sequence[ReceiptReview]) -> None:
        current = self.current
        old = {(i.receipt, i.name): n for n, i in enumerate(self.items)}
        self.reviews = list(reviews)
        unranked = len(self.file_order)
        walk = sorted(self.reviews, key=lambda r: self.file_order.get(r.file_id, unranked))  # stable
        self.items = [item for r in walk if not r.checked for item in r.items()]
        if current is None:
            self.position = 0
            return
        keys = [(i.receipt, i.name) for i in self.items]
        key = (current.receipt, current.name)
        if key in keys:
            self.position = keys.index(key)
        else:  # it was dealt with: the first item that came after it, else the last one
            after = [n for n, k in enumerate(keys) if old.get(k, len(old)) > old[key]]
            self.position = after[0] if after else max(0, len(self.items) - 1)

    def replace_files(self, reviews: Sequence[ReceiptReview], file_ids: Iterable[int]) -> None:
        """Put these files' receipts in place of their old ones (the others stay as they are)."""
        ids = set(file_ids)
        fresh: dict[int, list[ReceiptReview]] = {}
        for r in reviews:
            fresh.setdefault(r.file_id, []).append(r)
        merged: list[ReceiptReview] = []
        placed: set[int] = set()
        for r in self.reviews:
            if r.file_id in ids:
                if r.file_id not in placed:
                    merged += fresh.get(r.file_id, [])
                    placed.add(r.file_id)
            else:
                merged.append(r)
        merged += [r for file_id, rs in fresh.items() if file_id not in placed for r in rs]
        self.update(merged)

    @property
    def current(self) -> ReviewItem | None:
        return self.items[self.position] if 0 <= self.position < len(self.items) else None

    def step(self, delta: int) -> ReviewItem | None:
        """Move to the next (+1) or previous (-1) item, wrapping around; the new current one."""
        if self.items:
            self.position = (self.position + delta) % len(self.items)
        return self.current

    def go_to_receipt(self, key: ReceiptKey) -> bool:
        """Make the first open item of that receipt the current one (False when it has none)."""
        for n, item in enumerate(self.items):
            if item.receipt == key:
                self.position = n
                return True
        return False

    def receipt(self, key: ReceiptKey) -> ReceiptReview | None:
        return next((r for r in self.reviews if r.key == key), None)

    @property
    def remaining(self) -> int:
        return len(self.items)
