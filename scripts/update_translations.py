"""Refresh the UI translations: lupdate over every module of scanner_app/gui, then lrelease.

    python scripts/update_translations.py            # update .ts files, compile .qm files
    python scripts/update_translations.py --check    # exit 1 when a string has no translation

New strings appear in resources/i18n/scanner_app_<lang>.ts as unfinished; translate them there
(Qt Linguist: pyside6-linguist), then run this again to compile the .qm the app loads.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "scanner_app" / "gui"
I18N = ROOT / "resources" / "i18n"
LANGUAGES = ("zh_CN",)
PLURALS_ONLY = ("en",)  # the source language: a catalogue of plural forms only ("1 file", "2 files")


def tool(name: str) -> str:
    """A PySide6 tool next to this Python (the venv's bin), else on PATH."""
    local = Path(sys.executable).parent / name
    found = str(local) if local.exists() else shutil.which(name)
    if not found:
        raise SystemExit(f"{name} not found: install PySide6 (pip install PySide6-Essentials)")
    return found


def unfinished(ts: Path) -> list[str]:
    """Source texts in a .ts file that have no finished translation."""
    root = ET.parse(ts).getroot()
    missing = []
    for message in root.iter("message"):
        translation = message.find("translation")
        kind = None if translation is None else translation.get("type")
        if kind in ("vanished", "obsolete"):
            continue
        if translation is None or kind == "unfinished" or not (translation.text or ""):
            missing.append(message.findtext("source") or "")
    return missing


def main(argv: list[str] | None = None) -> int:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--check", action="store_true", help="only report strings without a translation")
    args = parser.parse_args(argv)
    files = sorted(str(p.relative_to(ROOT)) for p in SOURCES.rglob("*.py"))
    status = 0
    for language in LANGUAGES + PLURALS_ONLY:
        ts = I18N / f"scanner_app_{language}.ts"
        if not args.check:
            I18N.mkdir(parents=True, exist_ok=True)
            ts_arg = str(ts.relative_to(ROOT))
            only = ["-pluralonly"] if language in PLURALS_ONLY else []
            lupdate = [tool("pyside6-lupdate"), *files, "-no-obsolete", *only, "-ts", ts_arg]
            subprocess.run(lupdate, cwd=ROOT, check=True)
            subprocess.run([tool("pyside6-lrelease"), str(ts), "-qm", str(ts.with_suffix(".qm"))], check=True)
        missing = unfinished(ts)
        if missing:
            print(f"{ts.name}: {len(missing)} strings without a translation", file=sys.stderr)
            for text in missing[:20]:
                print(f"  {text!r}", file=sys.stderr)
            status = 1
    return status if args.check else 0


if __name__ == "__main__":
    sys.exit(main())
