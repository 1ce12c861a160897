"""The README as a front page, and the generated CLI reference of the documentation site (mkdocs.yml).

No server and no site build: `mkdocs build --strict` in the test command checks the site's links.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from tests.helpers.paths import REPO

README = REPO / "README.md"
CI_RUN = REPO / ".ci" / "run"
HOOK = REPO / "docs" / "hooks" / "cli_reference.py"
MAX_README_LINES = 200
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _bash_blocks(text: str) -> list[str]:
    return [block.strip() for block in re.findall(r"^```bash\n(.*?)^```", text, flags=re.M | re.S)]


def _hook() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("cli_reference", HOOK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every subcommand of the real parser, found here independently of the generator."""
    found: list[tuple[str, ...]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.append((*path, name))
                found += _commands(sub, (*path, name))
    return found


@pytest.fixture(scope="module")
def reference() -> str:
    return _hook().cli_reference_markdown()


def test_readme_is_a_front_page_of_at_most_200_lines() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines; move the detail into docs/"


def test_readme_starts_with_the_two_set_up_commands() -> None:
    blocks = _bash_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) >= 2, "the README's first two ```bash blocks are the run and the test command"
    run, test = blocks[0], blocks[1]
    for command in (run, test):
        assert "\n" not in command, f"one command on one line:\n{command}"
        assert command.startswith("python3 -m venv .venv && "), command
    assert run.endswith("scanner-app gui resources/samples/invoice.png"), run
    assert "'.[test]'" in test and "mkdocs build --strict" in test and "pytest" in test, test


def test_ci_runs_the_readmes_test_command_verbatim() -> None:
    test = _bash_blocks(README.read_text(encoding="utf-8"))[1]
    lines = [line.strip() for line in CI_RUN.read_text(encoding="utf-8").splitlines()]
    (ci,) = [line for line in lines if line.startswith("python3 -m venv")]
    assert ci == test, f".ci/run runs\n  {ci}\nbut the README's test command is\n  {test}"


def test_readme_links_and_images_point_to_files_that_exist() -> None:
    text = README.read_text(encoding="utf-8")
    targets = [target for target in LINK.findall(text) if not re.match(r"^[a-z][a-z0-9+.-]*:", target)]
    assert targets, "the README links into docs/"
    missing = []
    for target in targets:
        path = target.split("#", 1)[0]
        if path and not (README.parent / path).exists():
            missing.append(target)
    assert not missing, f"README.md links to files that do not exist: {missing}"


def test_cli_reference_lists_every_subcommand_of_the_real_parser(reference: str) -> None:
    from scanner_app.cli import build_parser

    commands = _commands(build_parser())
    assert len(commands) >= 10 and ("models", "fetch") in commands and ("device", "scan") in commands
    headings = set(re.findall(r"^#{2,4} scanner-app ?(.*)$", reference, flags=re.M))
    missing = [" ".join(path) for path in commands if " ".join(path) not in headings]
    assert not missing, f"docs/hooks/cli_reference.py leaves out: {missing}"
    assert _hook().command_paths() == [" ".join(path) for path in commands]


def test_cli_reference_shows_each_option_with_its_help(reference: str) -> None:
    scan = reference.split("## scanner-app scan\n", 1)[1].split("\n## ", 1)[0]
    assert "usage: scanner-app scan" in scan
    for option in ("--resume", "--split-receipts", "--fields", "--force-ocr", "--retry-failed"):
        assert f"`{option}" in scan, option
    assert "continue the batch already in --out" in scan  # --resume's own help text
    watch = reference.split("## scanner-app watch\n", 1)[1].split("\n## ", 1)[0]
    assert "OUT/&lt;path in DIR&gt;" in watch  # escaped, not read as an HTML tag


def test_cli_reference_follows_a_changed_parser() -> None:
    parser = argparse.ArgumentParser(prog="scanner-app")
    sub = parser.add_subparsers(dest="command")
    tool = sub.add_parser("tool", help="a command that is not there")
    tool.add_argument("--brand-new", metavar="N", default=3, help="added today (default %(default)s)")
    page = _hook().cli_reference_markdown(parser)
    assert "## scanner-app tool" in page
    assert "| `--brand-new N` | added today (default 3) | `3` |" in page


def test_building_the_reference_never_imports_qt() -> None:
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('cli_reference', {str(HOOK)!r})\n"
        "module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)\n"
        "module.cli_reference_markdown()\n"
        "assert not [m for m in sys.modules if m.startswith('PySide6')], 'PySide6 imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mkdocs_generates_the_reference_and_lists_it() -> None:
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    assert "docs/hooks/cli_reference.py" in config and "reference/cli.md" in config
    assert not (REPO / "docs" / "reference" / "cli.md").exists(), "generated at build time, never committed"
    assert _hook().PAGE == "reference/cli.md"
    assert Path(REPO / "docs" / "architecture.md").is_file()
