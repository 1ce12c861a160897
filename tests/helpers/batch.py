"""Helpers shared by the batch tests: an event recorder and small rendered inputs."""

from __future__ import annotations

import threading
from pathlib import Path

from scanner_app.core.batch.events import Event
from scanner_app.core.results import PageResult, TextLine
from scanner_app.samples.documents import encode, render_text_lines


class Recorder:
    """Collects events from any thread; ``wait`` blocks until a condition on them holds."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.cond = threading.Condition()

    def __call__(self, event: Event) -> None:
        with self.cond:
            self.events.append(event)
            self.cond.notify_all()

    def of(self, kind: type) -> list:
        with self.cond:
            return [e for e in self.events if isinstance(e, kind)]

    def wait(self, kind: type, count: int = 1, timeout: float = 60) -> None:
        with self.cond:
            ok = self.cond.wait_for(lambda: len([e for e in self.events if isinstance(e, kind)]) >= count,
                                    timeout)  # fmt: skip
        assert ok, f"no {count} {kind.__name__} events within {timeout} s: {self.events[-5:]}"


def line_images(folder: Path, n: int) -> dict[str, str]:
    """``n`` small one-line PNGs in ``folder``; file name -> its text."""
    folder.mkdir(parents=True, exist_ok=True)
    texts = {}
    for i in range(n):
        name, text = f"line{i:03d}.png", f"Item {i:03d} Copy Paper"
        (folder / name).write_bytes(encode(render_text_lines([text], seed=i).image))
        texts[name] = text
    return texts


def fake_page(data: bytes, name: str) -> PageResult:
    line = TextLine(box=((1.0, 2.0), (11.0, 2.0), (11.0, 6.0), (1.0, 6.0)), text=f"read {name}", score=0.9)
    return PageResult(image=name, width=50, height=20, lines=(line,), elapsed_ms=1.0)
