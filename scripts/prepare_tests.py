"""Prepare a machine for the test suite: system packages, python-sane, the rendered test documents.

Usage: .venv/bin/python scripts/prepare_tests.py   (the README's test command runs it)

- Debian packages the tests use, installed with apt-get when missing and this runs as root:
  SANE's `test` backend, a real virtual scanner (libsane1, sane-utils), libsane-dev (python-sane
  builds against it), Qt's offscreen libraries, and jemalloc (the embedded server preloads it,
  scanner_app/server/allocator.py). Without root it names what is missing.
- python-sane into this interpreter's environment (it is a source package on PyPI).
- resources/make_samples.py: the sample invoice and the fonts the test documents need.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# package -> a file that shows it is installed (glob)
DEBIAN = {
    "libsane1": "/usr/lib/*/sane/libsane-test.so.1",
    "sane-utils": "/usr/bin/scanimage",
    "libsane-dev": "/usr/include/sane/sane.h",
    "libegl1": "/usr/lib/*/libEGL.so.1",
    "libgl1": "/usr/lib/*/libGL.so.1",
    "libfontconfig1": "/usr/lib/*/libfontconfig.so.1",
    "libxkbcommon0": "/usr/lib/*/libxkbcommon.so.0",
    "libglib2.0-0": "/usr/lib/*/libglib-2.0.so.0",
    "libdbus-1-3": "/usr/lib/*/libdbus-1.so.3",
    "libjemalloc2": "/usr/lib/*/libjemalloc.so.2",
}


def missing_debian_packages() -> list[str]:
    return [package for package, marker in DEBIAN.items() if not glob.glob(marker)]


def ensure_debian_packages() -> None:
    missing = missing_debian_packages()
    if not missing:
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise SystemExit(
            "The tests need these Debian/Ubuntu packages: " + " ".join(missing) + "\n"
            "Install them and run again:  sudo apt-get install -y " + " ".join(missing)
        )
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    print(f"apt-get install {' '.join(missing)}", flush=True)
    subprocess.run(["apt-get", "update", "-qq"], env=env, check=True)
    install = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing]
    subprocess.run(install, env=env, check=True)


def ensure_python_sane() -> None:
    if importlib.util.find_spec("sane") is not None:
        return
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "python-sane>=2.9"], check=True)


def main() -> None:
    ensure_debian_packages()
    ensure_python_sane()
    subprocess.run([sys.executable, str(ROOT / "resources" / "make_samples.py")], check=True)


if __name__ == "__main__":
    main()
