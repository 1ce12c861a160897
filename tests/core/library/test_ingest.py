"""Pages into receipts, as they are read: one entry per document on a glass page, one per multi-page
file, by every way in through a batch store's sink; read again, the same entry, a person's edits kept."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from scanner_app.core.library.crop import hamming
from scanner_app.core.library.library import Library
from scanner_app.core.results import PageResult, Receipt, TextLine
from scanner_app.core.store.batch_store import STORE_NAME, BatchStore
from scanner_app.samples.glass import lay_on_glass
from tests.helpers.library import page_in, sha256, write_receipts


def _to_page(
    outline: list[tuple[float, float]], size: tuple[int, int], point: tuple[float, float]
) -> tuple[float, float]:
    """A point of the receipt alone on the glass page: along the outline's top and left edges."""
    (x0, y0), (x1, y1), _, (x3, y3) = outline
    u, v = point[0] / size[0], point[1] / size[1]
    return (x0 + u * (x1 - x0) + v * (x3 - x0), y0 + u * (y1 - y0) + v * (y3 - y0))


def _glass(tmp_path: Path, n: int = 3) -> tuple[Path, PageResult, list[str]]:
    """``n`` receipts on a scanner glass, and the reading a server gives: each document's outline and
    lines."""
    receipts = write_receipts(tmp_path / "alone", n, seed=3)
    glass = lay_on_glass([doc.image for _, _, doc in receipts], seed=1)
    lines: list[TextLine] = []
    documents = []
    for (_, result, _), outline in zip(receipts, glass.outlines, strict=True):
        start = len(lines)
        size = (result.width, result.height)
        lines += [
            TextLine(tuple(_to_page(outline, size, p) for p in ln.box), ln.text, 1.0) for ln in result.lines
        ]
        documents.append(Receipt(tuple(outline), tuple(range(start, len(lines)))))
    path = tmp_path / "glass.png"
    glass.image.save(path)
    width, height = glass.image.size
    vendors = [result.lines[0].text for _, result, _ in receipts]
    return path, PageResult(path.name, width, height, tuple(lines), receipts=tuple(documents)), vendors


def test_a_glass_page_of_three_receipts_is_three_entries_each_with_its_crop(
    tmp_path: Path, library: Library
) -> None:
    path, result, vendors = _glass(tmp_path)
    ids = library.ingest(page_in(path, result, "device"))
    assert len(ids) == 3
    records = library.receipts(ids)
    assert [r.value("vendor") for r in records] == vendors
    assert [r.document for r in records] == [1, 2, 3] and {r.page for r in records} == {1}
    with Library(tmp_path / "alone.sqlite") as alone:  # each receipt scanned alone
        singles = [
            alone.get(alone.ingest(page_in(p, r))[0]) for p, r, _ in write_receipts(tmp_path / "a", 3, 3)
        ]
        single_thumbs = [Image.open(io.BytesIO(alone.thumbnail(r.id) or b"")) for r in singles]
    for record, single, single_thumb in zip(records, singles, single_thumbs, strict=True):
        thumb = Image.open(io.BytesIO(library.thumbnail(record.id) or b""))
        assert thumb.format == "JPEG" and max(thumb.size) == 256
        assert abs(thumb.width / thumb.height - single_thumb.width / single_thumb.height) < 0.05
        # the crop off the glass is that receipt, upright, tilt removed: its hashes are the receipt's
        assert hamming(_hash(library, record.id), _hash(tmp_path / "alone.sqlite", single.id)) <= 8
    assert library.ingest(page_in(path, result, "device")) == ids  # read again: the same entries
    assert library.count() == 3


def _hash(where: Library | Path, receipt_id: int) -> int:
    if isinstance(where, Path):
        with Library(where) as other:
            return _hash(other, receipt_id)
    return int(where.db.query("SELECT phash FROM receipts WHERE id = ?", (receipt_id,))[0][0])


def test_a_multi_page_file_is_one_receipt(tmp_path: Path, library: Library) -> None:
    pages = write_receipts(tmp_path / "pages", 3, seed=5)
    path = tmp_path / "invoice.tif"
    first, *rest = [Image.open(p).convert("RGB") for p, _, _ in pages]
    first.save(path, save_all=True, append_images=rest)
    for index in (1, 0, 2):  # pages come back in any order
        library.ingest(page_in(path, pages[index][1], "watch", index=index))
    (record,) = library.search("")
    assert (record.page, record.pages) == (1, 3)
    assert record.text.splitlines()[0] == pages[0][1].lines[0].text  # page order kept
    assert record.value("vendor") == pages[0][1].lines[0].text  # the first page's vendor
    last_total = [ln.text for ln in pages[2][1].lines if ln.text.replace(".", "").isdigit()][-1]
    assert record.value("total") == last_total  # the amounts of the last page
    assert library.thumbnail(record.id) is not None


def test_read_again_keeps_a_persons_edits_and_the_first_way_in(tmp_path: Path, library: Library) -> None:
    ((path, result, _),) = write_receipts(tmp_path, 1)
    (receipt_id,) = library.ingest(page_in(path, result, "viewer"))
    library.set_field(receipt_id, "total", "99.5", by="maria")
    library.set_note(receipt_id, "lunch with client")
    assert library.ingest(page_in(path, result, "batch")) == [receipt_id]
    record = library.get(receipt_id)
    assert record.value("total") == "99.50" and record.fields["total"].read != "99.50"
    assert record.fields["total"].edited_by == "maria" and record.fields["total"].edited
    assert (record.note, record.way_in, record.os_user != "") == ("lunch with client", "viewer", True)


def test_a_file_gone_before_its_page_is_added_gives_an_entry_without_thumbnail(
    tmp_path: Path, library: Library
) -> None:
    ((path, result, _),) = write_receipts(tmp_path, 1)
    page = page_in(path, result)
    path.unlink()
    (receipt_id,) = library.ingest(page)
    assert library.thumbnail(receipt_id) is None and library.get(receipt_id).value("total")


def test_every_page_a_batch_store_saves_lands_in_the_library_as_it_is_saved(
    tmp_path: Path, library: Library
) -> None:
    receipts = write_receipts(tmp_path / "in", 3)
    sink = library.sink("scan")
    with BatchStore(tmp_path / "out" / STORE_NAME, sink) as store:
        records = store.add_files([p for p, _, _ in receipts])
        for n, (record, (_, result, _)) in enumerate(zip(records, receipts, strict=True), start=1):
            store.save_page(record, 0, result)
            assert library.count() == n  # as it is read, not when the run ends
    found = library.search("", None)
    assert {r.way_in for r in found} == {"scan"} and sink.added == 3 and sink.problems == []
    assert {r.batch for r in found} == {str(tmp_path / "out" / STORE_NAME)}
    assert {r.sha256 for r in found} == {sha256(p) for p, _, _ in receipts}


class _Broken:
    def page_saved(self, *args: object) -> None:
        raise RuntimeError("disk on fire")


def test_a_failing_sink_never_fails_the_batch(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    ((path, result, _),) = write_receipts(tmp_path / "in", 1)
    with BatchStore(tmp_path / "out" / STORE_NAME, _Broken()) as store:
        (record,) = store.add_files([path])
        page_id = store.save_page(record, 0, result)
        assert store.page(page_id).result.text == result.text
    assert "disk on fire" in caplog.text


def test_a_library_error_is_kept_by_the_sink_not_raised(tmp_path: Path, library: Library) -> None:
    ((path, result, _),) = write_receipts(tmp_path / "in", 1)
    sink = library.sink("watch")
    library.close()  # the library is gone under the batch
    with BatchStore(tmp_path / "out" / STORE_NAME, sink) as store:
        (record,) = store.add_files([path])
        store.save_page(record, 0, result)
    assert sink.added == 0 and len(sink.problems) == 1 and str(path) in sink.problems[0]
