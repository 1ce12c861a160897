"""One file per receipt (`scan --split-receipts`): NAME.receipt-K.json and NAME.receipt-K.txt.

A page with several receipts on it (a scanner glass) gives one pair per receipt; an ordinary page
gives one pair (receipt 1), so a reader of these files needs no special case.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scanner_app.core.atomic_write import open_atomic
from scanner_app.core.export.formats import layout_text
from scanner_app.core.results import PageResult


def receipt_json(page: PageResult, index: int, fields: bool = False) -> dict[str, Any]:
    """Receipt ``index`` (from 0) of the page: its outline in page pixels, its lines, its fields."""
    entry = page.to_json()["receipts"][index]
    data: dict[str, Any] = {
        "image": page.image,
        "receipt": index + 1,
        "receipts": len(page.documents()),
        **entry,
    }
    if fields:
        from scanner_app.core.fields.extract import extract_fields  # only when fields are asked for

        data["fields"] = extract_fields(page.document_page(index)).to_json()
    return data


def write_receipt_files(folder: Path, stem: str, page: PageResult, fields: bool = False) -> list[Path]:
    """``folder/stem.receipt-K.json`` and ``.txt`` for each receipt K (from 1) on the page."""
    written = []
    for index in range(len(page.documents())):
        base = Path(folder) / f"{stem}.receipt-{index + 1}"
        data = receipt_json(page, index, fields)
        with open_atomic(base.with_name(base.name + ".json")) as handle:
            json.dump(data, handle, ensure_ascii=False, indent=1)
        with open_atomic(base.with_name(base.name + ".txt")) as handle:
            handle.write(layout_text(page.document_page(index)))
        written += [base.with_name(base.name + ".json"), base.with_name(base.name + ".txt")]
    return written
