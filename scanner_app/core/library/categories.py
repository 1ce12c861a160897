"""Categories a receipt is filed under, each with an optional account (GL) code; a default list.

The codes of the default list follow a common small-business chart of accounts (Xero's demo
chart): change them to your own with ``scanner-app library categories edit``.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

DEFAULT_CATEGORIES: tuple[tuple[str, str], ...] = (
    ("Advertising", "400"),
    ("Bank fees", "404"),
    ("Cleaning", "408"),
    ("Consulting & accounting", "412"),
    ("Meals & entertainment", "420"),
    ("Freight & courier", "425"),
    ("General expenses", "429"),
    ("Insurance", "433"),
    ("Utilities", "445"),
    ("Motor vehicle & fuel", "449"),
    ("Office expenses", "453"),
    ("Printing & stationery", "461"),
    ("Rent", "469"),
    ("Repairs & maintenance", "473"),
    ("Subscriptions", "485"),
    ("Telephone & internet", "489"),
    ("Travel", "493"),
)


@dataclass(frozen=True)
class Category:
    id: int
    name: str
    account_code: str | None

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "account_code": self.account_code}


class CategoryError(ValueError):
    """A category that does not exist, or a name already taken."""


def seed_defaults(db: sqlite3.Connection) -> None:
    """The default categories, in a new library (inside the caller's transaction)."""
    db.executemany("INSERT OR IGNORE INTO categories (name, account_code) VALUES (?, ?)", DEFAULT_CATEGORIES)


def all_categories(db: sqlite3.Connection) -> list[Category]:
    rows = db.execute("SELECT id, name, account_code FROM categories ORDER BY name COLLATE NOCASE")
    return [Category(*tuple(r)) for r in rows]


def find(db: sqlite3.Connection, name: str) -> Category:
    """The category of that name (case-insensitive); CategoryError naming the known ones otherwise."""
    row = db.execute(
        "SELECT id, name, account_code FROM categories WHERE name = ?", (name.strip(),)
    ).fetchone()
    if row is None:
        known = ", ".join(c.name for c in all_categories(db))
        raise CategoryError(f"no category {name!r} (known: {known}); add it with `library categories add`")
    return Category(*tuple(row))


def add(db: sqlite3.Connection, name: str, account_code: str | None = None) -> Category:
    name = name.strip()
    if not name:
        raise CategoryError("a category needs a name")
    try:
        cur = db.execute(
            "INSERT INTO categories (name, account_code) VALUES (?, ?)", (name, account_code or None)
        )
    except sqlite3.IntegrityError:
        raise CategoryError(f"a category {name!r} exists already") from None
    return Category(int(cur.lastrowid or 0), name, account_code or None)


def edit(
    db: sqlite3.Connection, name: str, new_name: str | None = None, account_code: str | None = None
) -> Category:
    """Rename a category and/or set its account code ("" clears it)."""
    old = find(db, name)
    renamed = new_name.strip() if new_name else old.name
    code = old.account_code if account_code is None else (account_code or None)
    try:
        db.execute("UPDATE categories SET name = ?, account_code = ? WHERE id = ?", (renamed, code, old.id))
    except sqlite3.IntegrityError:
        raise CategoryError(f"a category {renamed!r} exists already") from None
    return Category(old.id, renamed, code)


def remove(db: sqlite3.Connection, name: str) -> tuple[Category, list[int]]:
    """Delete a category (its rules go with it; its receipts lose it); the receipts it was on."""
    old = find(db, name)
    ids = [r[0] for r in db.execute("SELECT id FROM receipts WHERE category_id = ?", (old.id,))]
    db.execute("UPDATE receipts SET category_source = NULL WHERE category_id = ?", (old.id,))
    db.execute("DELETE FROM categories WHERE id = ?", (old.id,))
    return old, ids
