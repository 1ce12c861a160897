"""MkDocs hook: the CLI reference page (reference/cli.md), generated from the real argparse parser.

At build time ``on_files`` adds ``reference/cli.md`` as a generated file, written from
``scanner_app.cli.build_parser()``: every subcommand and sub-subcommand, its usage and each option
with its help text. Nothing is committed, so a changed option changes the page. Building the parser
does not import PySide6 (the ``gui`` command imports Qt only when it runs).

``cli_reference_markdown()`` and ``command_paths()`` are plain functions (tests/test_docs.py calls them).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from typing import Any

PAGE = "reference/cli.md"
WIDTH = 100  # usage lines are wrapped at this width, whatever the terminal


def _subparsers(parser: argparse.ArgumentParser) -> Iterator[tuple[str, str, argparse.ArgumentParser]]:
    """(name, one-line help, parser) of each direct subcommand of ``parser``, in the parser's order."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, sub in action.choices.items():
                yield name, helps.get(name, ""), sub


def _walk(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], str, argparse.ArgumentParser]]:
    for name, summary, sub in _subparsers(parser):
        yield (*path, name), summary, sub
        yield from _walk(sub, (*path, name))


def command_paths(parser: argparse.ArgumentParser | None = None) -> list[str]:
    """Every subcommand the parser has, as typed: ``scan``, ``models fetch``, ..."""
    return [" ".join(path) for path, _, _ in _walk(parser or _parser())]


def _parser() -> argparse.ArgumentParser:
    from scanner_app.cli import build_parser

    return build_parser()


def _formatter(parser: argparse.ArgumentParser) -> argparse.HelpFormatter:
    return argparse.HelpFormatter(prog=parser.prog, width=WIDTH)


def _usage(parser: argparse.ArgumentParser) -> str:
    formatter = _formatter(parser)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    return formatter.format_help().strip()


def _prose(text: str, table: bool = False) -> str:
    """Help text as Markdown: code spans kept, and outside them ``<``, ``>``, ``&``, ``\\``, ``*``, ``_``,
    braces and brackets (and in a table ``|``) escaped, so that ``OUT/<path in DIR>`` is not read as an
    HTML tag, ``results.*`` or ``{vendor}_{date}_{total}`` as emphasis, nor ``{total}`` as attributes."""
    parts = re.split(r"(``.+?``|`[^`]+`)", text)
    for index in range(0, len(parts), 2):
        part = parts[index].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        part = re.sub(r"([\\*_{}\[\]])", r"\\\1", part)
        parts[index] = part.replace("|", "\\|") if table else part
    return "".join(parts)


def _cell(text: str) -> str:
    return _prose(" ".join(text.split()), table=True)


def _code(text: str) -> str:
    return f"`{text}`" if "`" not in text else f"`` {text} ``"


def _default(action: argparse.Action) -> str:
    value: Any = action.default
    if value in (None, False, [], argparse.SUPPRESS) or isinstance(action, argparse._StoreTrueAction):
        return ""
    return _code(str(value))


def _group_table(parser: argparse.ArgumentParser, actions: list[argparse.Action]) -> list[str]:
    formatter = _formatter(parser)
    rows = ["| argument | what it does | default |", "|---|---|---|"]
    for action in actions:
        text = formatter._expand_help(action) if action.help else ""
        if action.required and action.option_strings:
            text = f"required; {text}" if text else "required"
        invocation = formatter._format_action_invocation(action)
        rows.append(f"| {_code(invocation)} | {_cell(text)} | {_default(action)} |")
    return rows


def _section(path: tuple[str, ...], summary: str, parser: argparse.ArgumentParser) -> list[str]:
    level = "#" * min(len(path) + 1, 4)
    lines = [f"{level} scanner-app {' '.join(path)}" if path else "## scanner-app", ""]
    if summary:
        lines += [summary[0].upper() + summary[1:] + ".", ""]
    if parser.description:
        lines += [_prose(parser.description.strip()), ""]
    lines += ["```text", _usage(parser), "```", ""]
    subcommands = list(_subparsers(parser))
    if subcommands:
        lines += ["| subcommand | what it does |", "|---|---|"]
        lines += [f"| {_code(' '.join((*path, name)))} | {_cell(text)} |" for name, text, _ in subcommands]
        lines.append("")
    for group in parser._action_groups:
        actions = [
            action
            for action in group._group_actions
            if not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction))
            and action.help != argparse.SUPPRESS
        ]
        if not actions:
            continue
        title = group.title or "options"
        lines += [f"**{title[0].upper() + title[1:]}**", ""]
        if group.description:
            lines += [_cell(group.description), ""]
        lines += [*_group_table(parser, actions), ""]
    return lines


def cli_reference_markdown(parser: argparse.ArgumentParser | None = None) -> str:
    """The whole page, from ``parser`` (default: the app's own, ``scanner_app.cli.build_parser()``)."""
    parser = parser or _parser()
    lines = [
        "# Command-line reference",
        "",
        "Generated from the argparse parsers (`scanner_app/cli.py`, `scanner_app/commands/*.py`) each time",
        "the site is built (`docs/hooks/cli_reference.py`), so it always matches `scanner-app ... --help`.",
        "What the commands do, with examples, is in the user guide and the server pages.",
        "",
        *_section((), "", parser),
    ]
    for path, summary, sub in _walk(parser):
        lines += _section(path, summary, sub)
    return "\n".join(lines).rstrip() + "\n"


# MkDocs hook events -------------------------------------------------------------------------------
def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    files.append(File.generated(config, PAGE, content=cli_reference_markdown()))
    return files


def on_serve(server: Any, config: Any, builder: Any) -> Any:
    from pathlib import Path

    package = Path(__file__).resolve().parents[2] / "scanner_app"
    server.watch(str(package / "cli.py"))
    server.watch(str(package / "commands"))
    return server
