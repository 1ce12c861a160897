#!/usr/bin/env bash
# Install this bundle for the current user: a `scanner-app` command, a menu entry and its icon.
# Run from the bundle folder (dist/scanner-app/install.sh). Undo: install.sh --uninstall
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DATA="${XDG_DATA_HOME:-$HOME/.local/share}"
BIN="$HOME/.local/bin"
targets=("$BIN/scanner-app" "$DATA/applications/scanner-app.desktop"
         "$DATA/icons/hicolor/256x256/apps/scanner-app.png" "$DATA/icons/hicolor/scalable/apps/scanner-app.svg")
if [[ "${1:-}" == "--uninstall" ]]; then
  rm -f "${targets[@]}"
  echo "Removed scanner-app's command, menu entry and icons."
  exit 0
fi
mkdir -p "$BIN" "$DATA/applications" "$DATA/icons/hicolor/256x256/apps" "$DATA/icons/hicolor/scalable/apps"
ln -sfn "$HERE/scanner-app" "$BIN/scanner-app"
sed -e "s|^Exec=scanner-app|Exec=\"$HERE/scanner-app\"|" -e "s|^TryExec=scanner-app|TryExec=$HERE/scanner-app|" \
  "$HERE/scanner-app.desktop" > "$DATA/applications/scanner-app.desktop"
install -m 644 "$HERE/scanner-app.png" "$DATA/icons/hicolor/256x256/apps/scanner-app.png"
install -m 644 "$HERE/scanner-app.svg" "$DATA/icons/hicolor/scalable/apps/scanner-app.svg"
command -v update-desktop-database >/dev/null && update-desktop-database "$DATA/applications" || true
echo "Installed: $BIN/scanner-app and a 'Scanner App' menu entry."
