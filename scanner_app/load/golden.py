"""Golden bookkeeping of the load targets: each input's response at concurrency 1, and later checks.

`Timed` is a response with the client's own time around the RPC; `GoldenTarget` is the base of
every target (the Triton ones in scanner_app.load.targets, the baseline one in baseline_target).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Timed:
    """A response and the client's own time around the RPC (perf_analyzer's Client Send / Recv)."""

    value: Any
    client_send_s: float = 0.0
    client_recv_s: float = 0.0


_FAILED = object()  # the golden of an input whose golden request failed


class GoldenTarget:
    """Golden bookkeeping shared by the targets (subclass it): one golden value per input;
    subclasses set name/url/model, implement send() and _same(golden, value)."""

    name = ""
    url = ""
    model = ""

    def __init__(self, count: int) -> None:
        if count < 1:
            raise ValueError(f"the {self.name} target has no inputs")
        self.count = count
        self._golden: list[Any] | None = None

    @property
    def has_golden(self) -> bool:
        return self._golden is not None

    def take_golden(self) -> None:
        """Send every input once, in order. An input that fails keeps its failure as its golden (a later
        success for it is a mismatch); when every input fails, the first failure is raised."""
        golden: list[Any] = []
        failures: list[Exception] = []
        for index in range(self.count):
            try:
                golden.append(self._value(self.send(index)))
            except Exception as exc:  # kept as this input's golden; raised below if nothing worked
                golden.append(_FAILED)
                failures.append(exc)
        if len(failures) == self.count:
            raise failures[0]
        self._golden = golden

    def check(self, index: int, response: Any) -> bool:
        if self._golden is None:
            raise RuntimeError("take_golden() first")
        golden = self._golden[index % self.count]
        return golden is not _FAILED and self._same(golden, self._value(response))

    def send(self, index: int) -> Any:
        raise NotImplementedError

    @staticmethod
    def _value(response: Any) -> Any:
        return response.value if isinstance(response, Timed) else response

    def _same(self, golden: Any, value: Any) -> bool:
        raise NotImplementedError
