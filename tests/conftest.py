"""Shared fixtures: the bundled Botzone sample and its parsed hands."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
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
