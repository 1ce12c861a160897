"""Issue 17, the CI soak: benchmarks/soak.py --short against the real server (receipts, hostile
requests, a SIGKILL of the server that the supervisor must repair)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers.paths import BENCHMARKS

SOAK = BENCHMARKS / "soak.py"


def _soak_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("soak", SOAK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["soak"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_short_soak_loses_nothing_and_refuses_every_hostile_request(model_repository: Path) -> None:
    soak = _soak_module()
    receipts = soak.load_receipts()
    assert receipts, f"no receipts in {soak.RECEIPTS}"
    result = soak.run_soak(soak.short_options(model_repository), receipts)
    tally = result.tally
    assert result.killed_at_s is not None  # the server was SIGKILLed...
    assert [e.kind for e in result.events if e.kind == "restarted"], result.events  # ...and brought back
    assert tally.lost == 0, tally.errors
    assert tally.ok > 0
    assert result.accepted == 0, tally.hostile  # no hostile request answered as if it were fine
    refused = {o.split(" -> ")[0] for o, n in tally.hostile.items() if o.endswith("INVALID_ARGUMENT")}
    assert refused & {"rec-too-wide", "det-too-large", "bomb-header"}, tally.hostile
