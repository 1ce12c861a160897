"""Issue 17, memory: a model step gives glibc's held free memory back past a threshold (steps/heap.py),
measured on this process's own heap."""

from __future__ import annotations

from pathlib import Path

from scanner_app.steps.heap import HeapTrimmer

MIB = 2**20


def _rss_anon_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no RssAnon in /proc/self/status")


def test_held_free_memory_is_given_back_only_past_the_threshold() -> None:
    trimmer = HeapTrimmer.load(threshold_bytes=32 * MIB)
    before = trimmer.held_free_bytes()
    assert before is not None  # glibc >= 2.33 here (the Triton wheel needs it too)
    chunks = [bytearray(64 * 1024) for _ in range(3200)]
    kept = chunks[1::2]  # between the freed ones: glibc cannot hand 100 MiB back by shrinking its heap
    del chunks
    held = trimmer.held_free_bytes()
    assert held is not None and held > 64 * MIB
    assert not HeapTrimmer(held + MIB, trimmer._libc).trim_if_holding()  # under its threshold: kept
    rss = _rss_anon_mib()
    assert trimmer.trim_if_holding()
    assert _rss_anon_mib() < rss - 50  # the pages went back to the system
    assert len(kept) == 1600
