#!/usr/bin/env bash
# Build the desktop client as a one-folder bundle in dist/scanner-app/, then smoke-test it.
#
#   python3 -m venv .venv && .venv/bin/pip install -e '.[bundle]' && packaging/desktop/build_linux.sh
#
# Python: $PYTHON, else the active virtual environment, else .venv/ of the checkout, else python3.
# --no-smoke skips the smoke test (it starts the built app offscreen for about a second).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

if [[ -n "${PYTHON:-}" ]]; then :
elif [[ -n "${VIRTUAL_ENV:-}" ]]; then PYTHON="$VIRTUAL_ENV/bin/python"
elif [[ -x .venv/bin/python ]]; then PYTHON=.venv/bin/python
else PYTHON=python3
fi
if ! "$PYTHON" -c "import PyInstaller, scanner_app.gui.app" 2>/dev/null; then
  echo "error: $PYTHON lacks PyInstaller or scanner-app. Run: $PYTHON -m pip install -e '.[bundle]'" >&2
  exit 1
fi

DIST="$ROOT/dist"
"$PYTHON" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath "$DIST" --workpath "$ROOT/build/pyinstaller" packaging/desktop/scanner-app.spec

APP="$DIST/scanner-app"
install -m 644 packaging/desktop/scanner-app.desktop "$APP/scanner-app.desktop"
install -m 644 resources/icons/scanner-app.png resources/icons/scanner-app.svg "$APP/"
install -m 755 packaging/desktop/install_linux.sh "$APP/install.sh"
echo "Built $APP ($(du -sh "$APP" | cut -f1)); run $APP/scanner-app, or $APP/install.sh for a menu entry."

if [[ "${1:-}" != "--no-smoke" ]]; then
  "$PYTHON" packaging/desktop/smoke_test.py "$APP/scanner-app"
fi
