"""`scanner-app library`: the receipt library every way in adds to: search, edit, duplicates,
categories and rules, import of batch folders, accounting exports, backup.

    scanner-app library search [QUERY...] [filters] [--format table|json|csv]
    scanner-app library show ID            scanner-app library set ID... --category C --tag T ...
    scanner-app library import DIR...      scanner-app library duplicates [confirm|dismiss A B]
    scanner-app library categories [add|edit|remove ...]
    scanner-app library rules [add KIND PATTERN CATEGORY | remove ID | apply [QUERY] [filters]]
    scanner-app library export --format xero|qbo|datev|csv|xlsx|pdf --out FILE [filters]
    scanner-app library backup PATH        scanner-app library info
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from scanner_app.commands.library_args import (
    add_filter_arguments,
    add_library_arguments,
    filters_of,
    query_of,
)
from scanner_app.commands.library_output import print_flags, print_receipts
from scanner_app.commands.scan import owner_only
from scanner_app.core.errors import ScannerError
from scanner_app.core.library.accounting import WRITERS, export
from scanner_app.core.library.categories import CategoryError
from scanner_app.core.library.duplicates import DuplicateError
from scanner_app.core.library.library import Library
from scanner_app.core.library.receipts import STATUSES, EditError
from scanner_app.core.library.rules import RULE_KINDS, RuleError

FORMATS = ("table", "json", "csv")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "library", help="the receipt library: search, edit, duplicates, export", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    add_library_arguments(parser, skip=False)
    sub = parser.add_subparsers(dest="library_command", required=True, metavar="COMMAND")
    search = sub.add_parser("search", help="find receipts (full text and filters)")
    add_filter_arguments(search)
    search.add_argument("--format", choices=FORMATS, default="table")
    search.add_argument("--limit", type=int, help="at most this many, newest first")
    search.add_argument("--no-duplicates", action="store_true", help="leave confirmed duplicates out")
    show = sub.add_parser("show", help="one receipt: fields, text, where it came from")
    show.add_argument("id", type=int)
    show.add_argument("--thumbnail", type=Path, metavar="FILE", help="also write its thumbnail (JPEG) here")
    edit = sub.add_parser("set", help="a person's category, tags, status, note or field values")
    edit.add_argument("ids", nargs="+", type=int, metavar="ID")
    edit.add_argument("--category", help="file under this category ('' for none); learned for the vendor")
    edit.add_argument("--tag", action="append", default=[], help="add a tag (repeat)")
    edit.add_argument("--untag", action="append", default=[], help="remove a tag (repeat)")
    edit.add_argument("--status", choices=STATUSES)
    edit.add_argument("--note")
    edit.add_argument(
        "--field", action="append", default=[], metavar="NAME=VALUE", help="a field's value (repeat)"
    )
    imports = sub.add_parser("import", help="add existing batch folders (nothing is read twice)")
    imports.add_argument("folders", nargs="+", type=Path, metavar="DIR")
    dups = sub.add_parser("duplicates", help="flagged pairs; confirm or dismiss one")
    dups.add_argument("action", nargs="?", choices=("list", "confirm", "dismiss"), default="list")
    dups.add_argument("pair", nargs="*", type=int, metavar="ID", help="the two receipts (confirm, dismiss)")
    dups.add_argument("--all", action="store_true", help="list confirmed and dismissed pairs too")
    dups.add_argument("--format", choices=("table", "json"), default="table")
    cats = sub.add_parser("categories", help="list, add, edit or remove categories and account codes")
    cats.add_argument("action", nargs="?", choices=("list", "add", "edit", "remove"), default="list")
    cats.add_argument("name", nargs="?")
    cats.add_argument("--account", help="the account (GL) code ('' clears it)")
    cats.add_argument("--rename", metavar="NEW", help="edit: the new name")
    cats.add_argument("--format", choices=("table", "json"), default="table")
    rules = sub.add_parser("rules", help="vendor rules that file receipts under categories")
    rules.add_argument("action", nargs="?", choices=("list", "add", "remove", "apply"), default="list")
    rules.add_argument("args", nargs="*", metavar="ARG",
                       help=f"add: KIND PATTERN CATEGORY (KIND: {', '.join(RULE_KINDS)}); remove: ID; "
                       "apply: QUERY words (with the filters below)")  # fmt: skip
    rules.add_argument("--format", choices=("table", "json"), default="table")
    add_filter_arguments_only(rules)
    out = sub.add_parser(
        "export", help="hand receipts to accounting: Xero, QuickBooks, DATEV, CSV, XLSX, PDF"
    )
    add_filter_arguments(out)
    out.add_argument("--format", required=True, choices=tuple(WRITERS))
    out.add_argument("--out", required=True, type=Path, metavar="FILE")
    out.add_argument("--include-duplicates", action="store_true", help="confirmed duplicates too")
    out.add_argument("--again", action="store_true", help="receipts exported before too")
    out.add_argument("--name", help="the export's name (default FORMAT-YYYYmmdd-HHMMSS)")
    out.add_argument("--default-currency", help="for receipts with no currency")
    out.add_argument("--default-account", help="xero, datev: the account of receipts with no category code")
    out.add_argument("--claimant", help="pdf: whose expense report")
    backup = sub.add_parser("backup", help="a consistent copy of the library (fine while it is in use)")
    backup.add_argument("target", type=Path, metavar="PATH")
    sub.add_parser("info", help="where the library is, its version, receipts and size, an integrity check")


def add_filter_arguments_only(parser: argparse.ArgumentParser) -> None:
    """The filters without the QUERY positional (``rules`` takes its words through ARG)."""
    scratch = argparse.ArgumentParser(add_help=False)
    add_filter_arguments(scratch)
    for action in scratch._actions:
        if action.option_strings:
            parser._add_action(action)


def run(args: argparse.Namespace) -> int:
    try:
        library = Library(args.library)
    except (ScannerError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    with library:
        try:
            return COMMANDS[args.library_command](library, args)
        except (EditError, CategoryError, RuleError, DuplicateError, ValueError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        except ScannerError as exc:  # the file turned out damaged mid-way
            print(f"error: {exc}", file=sys.stderr)
            return 3


def _search(library: Library, args: argparse.Namespace) -> int:
    found = library.search(query_of(args), filters_of(args, not args.no_duplicates), args.limit)
    print_receipts(found, args.format)
    return 0


def _show(library: Library, args: argparse.Namespace) -> int:
    record = library.get(args.id)
    print(json.dumps(record.to_json(text=True), ensure_ascii=False, indent=1))
    if args.thumbnail:
        data = library.thumbnail(args.id)
        if data is None:
            print(
                f"receipt {args.id} has no thumbnail (its file was not readable when it was read)",
                file=sys.stderr,
            )
            return 1
        args.thumbnail.write_bytes(data)
    return 0


def _set(library: Library, args: argparse.Namespace) -> int:
    fields = []
    for item in args.field:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise EditError(f"--field {item!r} is not NAME=VALUE")
        fields.append((name.strip(), value))
    for receipt_id in args.ids:
        library.get(receipt_id)  # an unknown id fails before anything changes
    for receipt_id in args.ids:
        for name, value in fields:
            library.set_field(receipt_id, name, value)
        if args.category is not None:
            library.set_category(receipt_id, args.category or None)
        if args.tag or args.untag:
            library.set_tags(receipt_id, args.tag, args.untag)
        if args.note is not None:
            library.set_note(receipt_id, args.note)
        if args.status:
            library.set_status(receipt_id, args.status)
    print_receipts(library.receipts(args.ids), "table")
    return 0


def _import(library: Library, args: argparse.Namespace) -> int:
    summary = library.import_batches(args.folders)
    print(f"{len(summary.stores)} batches, {summary.pages} pages: {summary.receipts} receipts, "
          f"{summary.new} new to {library.path}", file=sys.stderr)  # fmt: skip
    for problem in summary.problems:
        print(f"  not imported: {problem}", file=sys.stderr)
    return 1 if summary.problems else 0


def _duplicates(library: Library, args: argparse.Namespace) -> int:
    if args.action == "list":
        states = ("open", "confirmed", "dismissed") if args.all else ("open",)
        print_flags(library.duplicates(states), args.format)
        return 0
    if len(args.pair) != 2:
        raise DuplicateError(f"duplicates {args.action} takes two receipt ids, A B")
    state = "confirmed" if args.action == "confirm" else "dismissed"
    print_flags([library.decide_duplicate(args.pair[0], args.pair[1], state)], args.format)
    return 0


def _categories(library: Library, args: argparse.Namespace) -> int:
    if args.action != "list" and not args.name:
        raise CategoryError(f"categories {args.action} takes a category NAME")
    if args.action == "add":
        library.add_category(args.name, args.account)
    elif args.action == "edit":
        library.edit_category(args.name, args.rename, args.account)
    elif args.action == "remove":
        library.remove_category(args.name)
    found = library.categories()
    if args.format == "json":
        print(json.dumps([c.to_json() for c in found], ensure_ascii=False, indent=1))
    else:
        for category in found:
            print(f"{category.name:<32} {category.account_code or ''}".rstrip())
    return 0


def _rules(library: Library, args: argparse.Namespace) -> int:
    if args.action == "add":
        if len(args.args) != 3:
            raise RuleError("rules add takes KIND PATTERN CATEGORY")
        library.add_rule(*args.args)
    elif args.action == "remove":
        if len(args.args) != 1 or not args.args[0].isdigit():
            raise RuleError("rules remove takes a rule ID (as `rules list` prints it)")
        if not library.remove_rule(int(args.args[0])):
            raise RuleError(f"no rule {args.args[0]}")
    elif args.action == "apply":
        args.query = args.args
        ids = library.search_ids(query_of(args), filters_of(args))
        print(f"{library.apply_rules(ids)} of {len(ids)} receipts changed category", file=sys.stderr)
        return 0
    found = library.rules()
    if args.format == "json":
        print(json.dumps([r.to_json() for r in found], ensure_ascii=False, indent=1))
    else:
        for rule in found:
            learned = " (learned)" if rule.learned else ""
            print(f"{rule.id:>4}  {rule.kind:<6} {rule.pattern!r:<32} -> {rule.category}{learned}")
    return 0


def _export(library: Library, args: argparse.Namespace) -> int:
    options = {"default_currency": args.default_currency, "default_account": args.default_account,
               "claimant": args.claimant}  # fmt: skip
    done = export(library, args.format, args.out, query_of(args), filters_of(args, args.include_duplicates),
                  again=args.again, name=args.name, options=options)  # fmt: skip
    summary = done.summary
    owner_only([summary.path])  # receipts: readable by their owner only, as the batch exports
    print(f"export {done.name}: {summary.written} receipts written to {summary.path}; "
          f"{len(summary.skipped)} skipped, {done.left_out_exported} exported before left out"
          + (" (--again to include them)" if done.left_out_exported else ""), file=sys.stderr)  # fmt: skip
    for skipped in summary.skipped:
        print(f"  skipped {skipped.receipt_id}: {skipped.reason}", file=sys.stderr)
    for note in summary.notes:
        print(f"  note: {note}", file=sys.stderr)
    return 0


def _backup(library: Library, args: argparse.Namespace) -> int:
    target = library.backup(args.target)
    print(f"Backed up {library.path} to {target}", file=sys.stderr)
    return 0


def _info(library: Library, args: argparse.Namespace) -> int:
    problems = library.check()
    size = sum(p.stat().st_size for p in library.path.parent.glob(library.path.name + "*") if p.is_file())
    check = "ok" if not problems else "; ".join(problems[:5])
    print(f"library:  {library.path}\nschema:   {library.db.version}\nreceipts: {library.count()}\n"
          f"size:     {size / 1e6:.1f} MB\ncheck:    {check}")  # fmt: skip
    return 0 if not problems else 3


COMMANDS = {
    "search": _search, "show": _show, "set": _set, "import": _import, "duplicates": _duplicates,
    "categories": _categories, "rules": _rules, "export": _export, "backup": _backup, "info": _info,
}  # fmt: skip
