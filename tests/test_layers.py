"""Layering: pure logic never imports Qt; only the Qt layer and its launcher import the Qt layer."""

from __future__ import annotations

import ast
from pathlib import Path

import scanner_app

PACKAGE = Path(scanner_app.__file__).parent
QT_FREE = ("core", "ocr", "load", "server", "steps", "baseline")
QT_LAYER = "scanner_app.gui"
MAY_IMPORT_GUI = ("gui", "commands/gui.py")


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _modules(*folders: str) -> list[Path]:
    return [path for folder in folders for path in sorted((PACKAGE / folder).rglob("*.py"))]


def test_pure_layers_never_import_qt() -> None:
    offenders = {
        str(path.relative_to(PACKAGE)): sorted(name for name in _imports(path) if name.startswith("PySide6"))
        for path in _modules(*QT_FREE)
    }
    assert len(_modules("core")) > 10  # the walk found the package
    assert {path: names for path, names in offenders.items() if names} == {}


def test_only_the_qt_layer_imports_the_qt_layer() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith(MAY_IMPORT_GUI):
            continue
        if any(name == QT_LAYER or name.startswith(QT_LAYER + ".") for name in _imports(path)):
            offenders.append(relative)
    assert offenders == []
