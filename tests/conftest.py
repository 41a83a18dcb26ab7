"""Shared fixtures: the bundled Botzone sample and its parsed hands."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Property tests: `make test` (and so CI) runs them under the `ci` profile, derandomized (each
# test draws the same examples every run, so a red run is the change's doing, never a new draw)
# with the example counts the tests give and no timing-based failure on a loaded machine; a
# developer's plain `pytest` keeps hypothesis's default random profile, which finds new examples.
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    # `make test-compiled` runs tests on build/compiled: refuse to pass them on the pure package
    if os.environ.get("MJSTATS_REQUIRE_COMPILED") == "1":
        from mjstats.compiled import compiled_status

        pure = [name for name, compiled in compiled_status().items() if not compiled]
        if pure:
            raise pytest.UsageError(f"MJSTATS_REQUIRE_COMPILED=1 but not compiled here: {', '.join(pure)}")
SAMPLE = ROOT / "data" / "botzone" / "sample.txt"
TEST_DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def sample_path() -> Path:
    return SAMPLE


@pytest.fixture(scope="session")
def sample_hands():
    from mjstats.formats.botzone import read_botzone

    records = list(read_botzone(SAMPLE, name="sample.txt"))
    return records
