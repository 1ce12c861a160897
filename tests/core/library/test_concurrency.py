"""Several writers on one library at once, each a real process with its own connection: a `scan`, a
`watch` and the app's batch saving pages through their batch stores' sinks, and a person tagging
receipts as they appear. Nothing is lost, nothing is corrupted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from scanner_app.core.library.library import Library
from scanner_app.core.library.search import Filters
from tests.helpers.paths import REPO

PER_WRITER = 25
WRITER = """
import sys
from pathlib import Path
from scanner_app.core.library.library import Library
from scanner_app.core.store.batch_store import BatchStore
from tests.helpers.library import write_receipts

library_path, folder, seed, way_in = sys.argv[1:5]
receipts = write_receipts(Path(folder), int(sys.argv[5]), int(seed))
with Library(library_path) as library:
    sink = library.sink(way_in)
    with BatchStore(Path(folder) / "out" / "scanner-app.sqlite", sink) as store:
        records = store.add_files([path for path, _, _ in receipts])
        print("ready", flush=True)
        sys.stdin.readline()
        for record, (_, result, _) in zip(records, receipts):
            store.save_page(record, 0, result)
    print(sink.added, len(sink.problems), *sink.problems, flush=True)
"""
TAGGER = """
import sys
from scanner_app.core.library.library import Library

library_path, expected = sys.argv[1], int(sys.argv[2])
with Library(library_path) as library:
    print("ready", flush=True)
    sys.stdin.readline()
    tagged = set()
    for _ in range(200_000):  # bounded: the writers finish long before
        for receipt_id in library.search_ids(""):
            if receipt_id not in tagged:
                library.set_tags(receipt_id, add=["seen"])
                tagged.add(receipt_id)
        if len(tagged) >= expected:
            break
    print(len(tagged), flush=True)
"""


def _start(script: str, *args: object) -> subprocess.Popen[str]:
    pipe = subprocess.PIPE
    child = subprocess.Popen([sys.executable, "-c", script, *map(str, args)], cwd=REPO, text=True,
                             stdin=pipe, stdout=pipe, stderr=pipe)  # fmt: skip
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready", child.stderr.read() if child.stderr else ""
    return child


def test_writers_in_several_processes_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "library.sqlite"
    with Library(path):  # created once; each process opens it itself
        pass
    ways = ("scan", "watch", "batch")
    writers = [_start(WRITER, path, tmp_path / way, seed, way, PER_WRITER) for seed, way in enumerate(ways)]
    tagger = _start(TAGGER, path, PER_WRITER * len(ways))
    children = [*writers, tagger]
    for child in children:  # all at once
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    outputs = [child.communicate(timeout=300) for child in children]
    for child, (_, err) in zip(children, outputs, strict=True):
        assert child.returncode == 0, err
    for out, _ in outputs[:-1]:
        assert out.split()[:2] == [str(PER_WRITER), "0"], out  # every page added, no problem
    assert outputs[-1][0].split() == [str(PER_WRITER * len(ways))]
    with Library(path) as library:
        assert library.check() == []
        assert library.count() == PER_WRITER * len(ways)
        for way in ways:
            assert len(library.search_ids("", Filters(way_in=way))) == PER_WRITER
        assert len(library.search_ids("", Filters(tag="seen"))) == PER_WRITER * len(ways)
        assert len(library.search_ids("total")) == PER_WRITER * len(ways)  # the index has every one
