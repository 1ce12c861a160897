"""Where each input file's own outputs go: the input folder tree mirrored, a flat folder, or a name
template filled from the receipt's fields (vendor, date, total...). No Qt.

``OUT/2026/March/receipt.pdf.txt`` for ``IN/2026/March/receipt.pdf`` (tree, the default);
``OUT/receipt.pdf.txt`` (flat); ``OUT/2026/March/ACME_2026-03-15_12.50.pdf.txt`` with the template
``{vendor}_{date}_{total}``. Names that would collide get ``_2``, ``_3``... in the order files are named.
"""

from __future__ import annotations

import os
import re
import string
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from scanner_app.core.export.formats import DocumentResult, PageExtra, PageImages, export
from scanner_app.core.results import PageResult

LAYOUTS = ("tree", "flat")
# Placeholders a template may use; the field ones come from the first page's invoice fields.
FILE_KEYS = ("name", "stem", "ext")
FIELD_KEYS = ("vendor", "date", "total", "currency", "number")
TEMPLATE_KEYS = FILE_KEYS + FIELD_KEYS
MISSING = "unknown"
# Bytes per path part: file systems allow 255, and an export adds ".jpg.json", "_2" and, while it is
# written, atomic_path's ".NAME.XXXXXXXX.tmp".
_MAX_PART_BYTES = 180
# Control characters, what Windows forbids, and surrogates that no file system encoding can write
# (a name read with undecodable bytes keeps them as U+DC80-U+DCFF, which os.fsencode writes back).
_UNSAFE = re.compile('[\x00-\x1f<>:"/\\\\|?*\ud800-\udc7f\udd00-\udfff]+')

FieldValues = Callable[[PageResult], dict[str, str]]


def check_template(template: str) -> None:
    """Raise ValueError naming the problem when ``template`` is not a usable name template."""
    try:
        keys = [key for _, key, spec, _ in string.Formatter().parse(template) if key is not None]
    except ValueError as exc:
        raise ValueError(f"name template {template!r}: {exc}") from None
    unknown = sorted({k for k in keys if k not in TEMPLATE_KEYS})
    if unknown:
        raise ValueError(f"name template {template!r}: unknown placeholder(s) {unknown}; "
                         f"choose from {list(TEMPLATE_KEYS)}")  # fmt: skip
    if not keys:
        raise ValueError(f"name template {template!r} has no placeholder: every file would get the same name")


def _safe_part(text: str) -> str:
    part = _UNSAFE.sub("_", text).strip(" .")
    while len(os.fsencode(part)) > _MAX_PART_BYTES:  # whole characters off the end
        part = part[:-1]
    return part or "_"


def invoice_values(page: PageResult) -> dict[str, str]:
    """The template's field values read from one page (imported lazily: only templates need them)."""
    from scanner_app.core.fields.extract import extract_fields

    fields = extract_fields(page)
    return {key: fields.value(key) for key in FIELD_KEYS}


@dataclass(frozen=True)
class OutputLayout:
    """``tree`` mirrors paths relative to ``root`` (None: the common folder of the files named);
    ``flat`` puts every file in one folder; ``template`` renames the file part."""

    mode: str = "tree"
    template: str | None = None
    root: Path | None = None

    def __post_init__(self) -> None:
        if self.mode not in LAYOUTS:
            raise ValueError(f"unknown layout {self.mode!r}; choose from {list(LAYOUTS)}")
        if self.template is not None:
            check_template(self.template)


class Namer:
    """Gives each source a relative output name (without the export's extension), once; the same
    source keeps its name, a different source never takes a name already given."""

    def __init__(
        self,
        layout: OutputLayout,
        sources: Sequence[str] = (),
        values: FieldValues = invoice_values,
        keep_suffix: bool = True,
    ) -> None:
        """``keep_suffix=False``: ``receipt`` rather than ``receipt.jpg`` when there is no template."""
        self.layout, self._values, self._keep_suffix = layout, values, keep_suffix
        root = layout.root
        if root is None and sources:
            root = Path(os.path.commonpath([str(Path(s).absolute().parent) for s in sources]))
        self._root = root.absolute() if root is not None else None
        self._names: dict[str, PurePosixPath] = {}
        self._used: set[PurePosixPath] = set()

    def name(self, source: str, first_page: PageResult | None = None) -> PurePosixPath:
        """The relative name for ``source`` (``2026/March/receipt.pdf``); fields from ``first_page``."""
        if source in self._names:
            return self._names[source]
        path = Path(source).absolute()
        folder = PurePosixPath()
        if self.layout.mode == "tree" and self._root is not None and path.is_relative_to(self._root):
            folder = PurePosixPath(*[_safe_part(p) for p in path.parent.relative_to(self._root).parts])
        stem = path.name if self._keep_suffix else path.stem
        if self.layout.template is not None:
            values = dict.fromkeys(FIELD_KEYS, "")
            if first_page is not None:
                values.update(self._values(first_page))
            values = {k: (v.strip() or MISSING) for k, v in values.items()}
            values.update(name=path.name, stem=path.stem, ext=path.suffix.lstrip("."))
            stem = self.layout.template.format(**values)
        candidate, n = folder / _safe_part(stem), 1
        while candidate in self._used:
            n += 1
            candidate = folder / f"{_safe_part(stem)}_{n}"
        self._used.add(candidate)
        self._names[source] = candidate
        return candidate


def write_document(
    doc: DocumentResult,
    out_dir: Path,
    name: PurePosixPath,
    formats: Iterable[str],
    page_images: PageImages | None = None,
    page_extra: PageExtra | None = None,
) -> list[Path]:
    """One file's own exports: ``out_dir/<name>.txt``, ``.json``, ``.jsonl``, ``.csv`` (its lines),
    ``.pdf`` (searchable; needs ``page_images``). Failed files get no output of their own."""
    if not doc.pages:
        return []
    target = out_dir / Path(*name.parts)
    written: list[Path] = []
    for fmt in dict.fromkeys(f.lower() for f in formats):
        stem = f"{target.name}.{fmt}"
        if fmt == "pdf" and page_images is None:
            continue  # no page images: no searchable PDF
        if fmt == "csv":  # export() writes <stem>_lines.csv and <stem>_files.csv; one file wants one sheet
            from scanner_app.core.export.formats import write_csv_lines

            written.append(write_csv_lines([doc], target.with_name(stem)))
        elif fmt == "pdf" and page_images is not None:
            from scanner_app.core.pdf.export import write_searchable_pdf  # reportlab only when needed

            pairs = list(zip(page_images(doc.source), doc.pages, strict=True))
            written.append(write_searchable_pdf(pairs, target.with_name(stem)))
        else:
            written += export([doc], target.parent, [fmt], stem=target.name, page_extra=page_extra)
    return written
