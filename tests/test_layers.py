"""Layering: pure logic never imports Qt; only the Qt layer and its launcher import the Qt layer; the
import-linter contracts hold, and break when they should."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import scanner_app

PACKAGE = Path(scanner_app.__file__).parent
QT_FREE = ("core", "ocr", "load", "server", "steps", "baseline", "samples")
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


# The same rules, and no import cycles, as import-linter contracts ([tool.importlinter] in pyproject.toml).
ROOT = PACKAGE.parent
LINT_IMPORTS = [str(Path(sys.executable).with_name("lint-imports")), "--no-cache", "--no-logo"]
# A package named like ours that breaks each contract once: core imports Qt and the Qt layer (a lower
# layer importing a higher one), the OCR math imports core, core.a and core.b import each other, the
# watched folder imports the camera, the receipt library the client, the Batch tab imports the camera
# dialog, the document the viewer.
LAYERS = ("cli", "commands", "gui", "load", "baseline", "samples", "core", "server", "steps", "ocr")
FEATURES = (
    "core/watch", "core/devices", "core/camera", "core/client", "core/library",
    "gui/camera", "gui/capture", "gui/dashboard", "gui/library",
    "gui/server", "gui/review", "gui/viewer", "gui/lines", "gui/window",
)
BROKEN = {
    "__init__.py": "",
    "contract.py": "",
    **{f"{package}/__init__.py": "" for package in (*LAYERS, *FEATURES)},
    "ocr/math.py": "from scanner_app import contract\nimport scanner_app.core.a\n",  # the first is allowed
    "core/a.py": "import PySide6\nimport scanner_app.core.b\n",
    "core/b.py": "from scanner_app.core import a\nfrom scanner_app import gui\n",
    "core/watch/folder.py": "import scanner_app.core.camera\n",
    "core/library/ingest.py": "import scanner_app.core.client\n",
    "gui/batch/__init__.py": "from scanner_app.gui.camera import dialog\n",
    "gui/camera/dialog.py": "",
    "gui/document/__init__.py": "import scanner_app.gui.viewer\n",
}


def _lint_imports(cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(LINT_IMPORTS, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_import_contracts_are_kept() -> None:
    done = _lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "8 kept, 0 broken" in done.stdout


def test_import_contracts_catch_each_kind_of_break(tmp_path: Path) -> None:
    for name, text in BROKEN.items():
        (tmp_path / "scanner_app" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "scanner_app" / name).write_text(text, encoding="utf-8")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    done = _lint_imports(tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 1, done.stdout + done.stderr
    assert "0 kept, 8 broken" in done.stdout, done.stdout
    for chain in ("scanner_app.core.a -> PySide6", "scanner_app.core.b -> scanner_app.gui",
                  "scanner_app.ocr.math -> scanner_app.core.a", "No cycles are allowed in scanner_app.core",
                  "scanner_app.core.watch.folder -> scanner_app.core.camera",
                  "scanner_app.core.library.ingest -> scanner_app.core.client",
                  "scanner_app.gui.batch -> scanner_app.gui.camera.dialog",
                  "scanner_app.gui.document -> scanner_app.gui.viewer"):
        assert chain in done.stdout, chain
