"""How sure a speed-up is: per-window throughput, a bootstrap interval of the ratio, a verdict (no Qt).

A ratio of two short runs ("Triton 1.5x" from 9 against 6 responses) says little. `call_speedup`
resamples each run's measured windows (with replacement), takes the ratio of the resampled
throughputs many times and reports the middle 95 %. It calls the run too short when either side
completed too few requests or has too few windows, and "not clear" when the interval holds 1.0.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from scanner_app.load.report import RunResult, WindowStats, speedup

MIN_COMPLETED = 20  # responses per side below which no speed-up is called
MIN_WINDOWS = 3  # measured windows per side: fewer give no spread to speak of
BOOTSTRAP_ROUNDS = 2000
CONFIDENCE = 0.95


class Verdict(str, Enum):
    FASTER = "faster"  # the whole interval lies above 1.0
    SLOWER = "slower"  # the whole interval lies below 1.0
    UNCLEAR = "unclear"  # the interval holds 1.0
    TOO_SHORT = "too_short"  # too few responses or windows on one side
    NO_REFERENCE = "no_reference"  # the reference completed nothing


@dataclass(frozen=True)
class SpeedupCall:
    """candidate / reference throughput with its interval and what may be said about it."""

    ratio: float | None
    low: float | None  # bootstrap interval (CONFIDENCE); None when not computed
    high: float | None
    verdict: Verdict
    candidate_completed: int
    reference_completed: int
    candidate_windows: int
    reference_windows: int
    confidence: float = CONFIDENCE

    @property
    def interval_text(self) -> str:
        """ "1.31-1.72" (or "" without an interval); an unbounded top reads "inf"."""
        if self.low is None or self.high is None:
            return ""
        high = "inf" if math.isinf(self.high) else f"{self.high:.2f}"
        return f"{self.low:.2f}-{high}"


def window_rates(result: RunResult) -> list[float]:
    """The run's throughput in each measured window (responses per second)."""
    return [w.completed / w.duration_s for w in result.windows if w.duration_s > 0]


def _usable(windows: Sequence[WindowStats]) -> list[WindowStats]:
    return [w for w in windows if w.duration_s > 0]


def bootstrap_ratio(
    candidate: Sequence[WindowStats],
    reference: Sequence[WindowStats],
    *,
    rounds: int = BOOTSTRAP_ROUNDS,
    confidence: float = CONFIDENCE,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile interval of throughput(candidate) / throughput(reference) over resampled windows.

    Each round draws as many windows as each run has, with replacement, and divides total responses
    by total time on each side (windows of unequal length weigh by their length). A round whose
    reference drew no response gives an unbounded ratio (inf). Deterministic for a given seed.
    """
    cand, ref = _usable(candidate), _usable(reference)
    if not cand or not ref:
        raise ValueError("both runs need at least one measured window")
    rng = random.Random(seed)
    ratios = []
    for _ in range(rounds):
        c = [rng.choice(cand) for _ in cand]
        r = [rng.choice(ref) for _ in ref]
        c_rate = sum(w.completed for w in c) / sum(w.duration_s for w in c)
        r_rate = sum(w.completed for w in r) / sum(w.duration_s for w in r)
        ratios.append(c_rate / r_rate if r_rate > 0 else math.inf)
    ratios.sort()
    tail = (1.0 - confidence) / 2
    low = ratios[math.floor(tail * (rounds - 1))]
    high = ratios[math.ceil((1.0 - tail) * (rounds - 1))]
    return low, high


def call_speedup(
    candidate: RunResult,
    reference: RunResult,
    *,
    min_completed: int = MIN_COMPLETED,
    min_windows: int = MIN_WINDOWS,
    rounds: int = BOOTSTRAP_ROUNDS,
) -> SpeedupCall:
    """The speed-up of `candidate` over `reference`, its interval and the verdict."""
    cand_w, ref_w = _usable(candidate.windows), _usable(reference.windows)
    ratio = speedup(candidate, reference)
    counts = (candidate.completed, reference.completed, len(cand_w), len(ref_w))
    if ratio is None:
        return SpeedupCall(None, None, None, Verdict.NO_REFERENCE, *counts)
    low = high = None
    if cand_w and ref_w:
        low, high = bootstrap_ratio(cand_w, ref_w, rounds=rounds)
    too_short = min(candidate.completed, reference.completed) < min_completed or min(
        len(cand_w), len(ref_w)
    ) < min_windows
    if too_short or low is None or high is None:
        verdict = Verdict.TOO_SHORT
    elif low > 1.0:
        verdict = Verdict.FASTER
    elif high < 1.0:
        verdict = Verdict.SLOWER
    else:
        verdict = Verdict.UNCLEAR
    return SpeedupCall(ratio, low, high, verdict, *counts)
