"""The accounting export of chosen receipts (a person's selection in the app), beside ``accounting.export``
(which exports what a search finds): the same writers, the same rules (a receipt goes out once unless
``again``; confirmed duplicates stay out unless ``include_duplicates``), the same marks."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scanner_app.core.library.accounting import (
    OPTIONS,
    WRITERS,
    LibraryExport,
    _mark,
    accounting_receipt,
    report_image,
)

if TYPE_CHECKING:
    from scanner_app.core.library.library import Library


def export_selected(
    library: Library,
    fmt: str,
    out: Path,
    ids: Sequence[int],
    *,
    again: bool = False,
    include_duplicates: bool = False,
    name: str | None = None,
    options: dict[str, Any] | None = None,
) -> LibraryExport:
    """Write the receipts ``ids`` (oldest first) as ``fmt`` to ``out``; mark those written exported."""
    if fmt not in WRITERS:
        raise ValueError(f"unknown export format {fmt!r}; choose from {', '.join(WRITERS)}")
    records = sorted(library.receipts(ids), key=lambda r: r.id)
    if not include_duplicates:
        records = [r for r in records if r.status != "duplicate"]
    fresh = [r for r in records if again or not r.exports]
    chosen = [accounting_receipt(r, report_image(library, r) if fmt == "pdf" else None) for r in fresh]
    kwargs = {k: v for k, v in (options or {}).items() if k in OPTIONS[fmt] and v is not None}
    summary = WRITERS[fmt](chosen, Path(out), **kwargs)
    label = name or f"{fmt}-{time.strftime('%Y%m%d-%H%M%S')}"
    skipped = {s.receipt_id for s in summary.skipped}
    _mark(library, label, fmt, Path(out), [r.id for r in fresh if r.id not in skipped])
    return LibraryExport(label, summary, len(records), len(records) - len(fresh))
