"""Receipts for the accounting tests: three currencies, a refund, one without a total, hostile text."""

from __future__ import annotations

import dataclasses
import datetime
import io
from decimal import Decimal
from typing import Any

from PIL import Image, ImageDraw

from scanner_app.core.accounting.records import AccountingReceipt

HOSTILE_VENDOR = 'Bäckerei "Müller"; Inh.\nSchmidt\r\n& Co'  # ; quotes line breaks
CJK_VENDOR = "星巴克咖啡 Starbucks 😀"  # Chinese and an emoji


def jpeg(width: int = 240, height: int = 480) -> bytes:
    image = Image.new("RGB", (width, height), "white")
    ImageDraw.Draw(image).rectangle((10, 10, width - 10, height - 10), outline="black", width=4)
    buffer = io.BytesIO()
    image.save(buffer, "JPEG")
    return buffer.getvalue()


def receipt(id: int, **changes: Any) -> AccountingReceipt:
    """A EUR meal of 10.00 on 2026-03-<id> unless ``changes`` say otherwise."""
    base = AccountingReceipt(
        id=id, source_path=f"/scans/receipt_{id}.jpg", page=1, vendor=f"Vendor {id}",
        date=datetime.date(2026, 3, id), total=Decimal("10.00"), currency="EUR", tax=None, tax_rate=None,
        net=None, number=f"R-{id}", category="Meals", account_code="4650", description="", note="",
        image_jpeg=None,
    )  # fmt: skip
    return dataclasses.replace(base, **changes)


def sample() -> list[AccountingReceipt]:
    """Eight receipts: EUR, MYR, CNY; a refund; no total; no number; hostile and CJK vendors."""
    return [
        receipt(
            1,
            vendor=HOSTILE_VENDOR,
            total=Decimal("119.00"),
            tax=Decimal("19.00"),
            tax_rate=Decimal("19"),
            net=Decimal("100.00"),
            image_jpeg=jpeg(),
            description="Brot; Kuchen\n2x",
        ),
        receipt(
            2,
            vendor=CJK_VENDOR,
            total=Decimal("45.50"),
            currency="CNY",
            category="Travel",
            account_code="4670",
            description="拿铁 x2 ☕",
        ),
        receipt(3, total=None),
        receipt(
            4,
            vendor="Refund GmbH",
            total=Decimal("-21.40"),
            tax=Decimal("1.40"),
            tax_rate=Decimal("7"),
            category="Office",
            account_code="4930",
        ),
        receipt(
            5,
            vendor="Kedai Kopi",
            total=Decimal("31.80"),
            currency="MYR",
            tax=Decimal("1.80"),
            tax_rate=Decimal("6"),
            number=None,
            image_jpeg=b"not a jpeg",
        ),
        receipt(
            6,
            vendor="Hotel Adlon",
            total=Decimal("250.00"),
            category="Travel",
            account_code="4670",
            tax=Decimal("16.36"),
            tax_rate=Decimal("7"),
        ),
        receipt(7, total=Decimal("12.00"), currency="MYR", category="Travel", account_code="4670"),
        receipt(8, total=Decimal("8.20"), number="R-1"),  # the number of receipt 1 again
    ]
