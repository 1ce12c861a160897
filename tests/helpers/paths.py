"""Where things are, for every test: the repository, the tests, and the shared receipts beside the clone."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"
MODEL_REPOSITORY = REPO / "model_repository"
BENCHMARKS = REPO / "benchmarks"
SHARED_DATA = REPO.parent / "shared" / "data"  # ../shared/data: real receipts with ground truth (read only)
SROIE_IMAGES = SHARED_DATA / "sroie" / "img"
