"""Render the sample documents in resources/samples/ (the README's demo invoice and its truth).

Usage: python resources/make_samples.py

Installs Debian's fonts-dejavu-core (and fonts-noto-cjk, for the Chinese VAT invoices the fields
tests render) first when a font is missing and this runs as root with apt-get.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / "samples"
sys.path.insert(0, str(ROOT))

from scanner_app.samples import documents as samples  # noqa: E402
from scanner_app.samples import invoices as samples_invoices  # noqa: E402


def _apt_install(package: str) -> None:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "--no-install-recommends", package]
    if subprocess.run(install, env=env).returncode != 0:
        subprocess.run(["apt-get", "update"], env=env, check=True)
        subprocess.run(install, env=env, check=True)


def ensure_font() -> None:
    """Install fonts-dejavu-core with apt-get if DejaVu Sans is missing and we may."""
    try:
        samples.find_font()
        samples.find_font(bold=True)
        return
    except FileNotFoundError:
        if os.geteuid() != 0 or shutil.which("apt-get") is None:
            raise
    _apt_install("fonts-dejavu-core")
    samples.find_font()
    samples.find_font(bold=True)


def ensure_cjk_font() -> None:
    """Install fonts-noto-cjk with apt-get if no Simplified Chinese font is found and we may."""
    try:
        samples_invoices.find_cjk_font()
        return
    except FileNotFoundError:
        if os.geteuid() != 0 or shutil.which("apt-get") is None:
            raise
    _apt_install(samples_invoices.CJK_FONT_PACKAGE)
    samples_invoices.find_cjk_font.cache_clear()
    samples_invoices.find_cjk_font()


def main() -> None:
    ensure_font()
    ensure_cjk_font()
    OUT.mkdir(parents=True, exist_ok=True)
    doc = samples.render_invoice(seed=0)
    # Grayscale PNG: the page has no colour, and it keeps the file small.
    doc.image.convert("L").save(OUT / "invoice.png", optimize=True)
    width, height = doc.image.size
    generator = "scanner_app.samples.documents.render_invoice(seed=0)"
    head = {"generator": generator, "width": width, "height": height}
    # One line of JSON per text line, so diffs stay readable.
    rows = ",\n".join(f"  {json.dumps({'text': line.text, 'box': list(line.box)})}" for line in doc.lines)
    (OUT / "invoice.json").write_text(json.dumps(head)[:-1] + ', "lines": [\n' + rows + "\n]}\n")
    size = (OUT / "invoice.png").stat().st_size
    print(f"wrote {OUT / 'invoice.png'} ({size // 1024} KiB, {len(doc.lines)} lines) and invoice.json")


if __name__ == "__main__":
    main()
