"""On simulated data the statistics recover the bots' designed differences (docs/simulation.md):
the aggressive caller calls more than the greedy and defensive bots, with intervals apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjstats.formats.canonical import write_canonical
from mjstats.sim import SimConfig, simulate
from mjstats.stats import compute
from mjstats.store import SourceInput, ingest_sources


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("styles")
    path = root / "guobiao.jsonl"
    write_canonical(simulate(SimConfig("guobiao", 320, seed=5)), path)
    ingest_sources([SourceInput(path, "canonical")], root / "ds")
    return root / "ds"


def test_aggressive_caller_calls_more_with_separate_intervals(dataset: Path) -> None:
    rows = compute(dataset, "call_rate", by="style").set_index("style")
    assert set(rows.index) == {"greedy", "defensive", "aggressive", "flush"}
    assert (rows.denominator == 320).all()  # every style sits once in each hand
    aggressive = rows.loc["aggressive"]
    for other in ("greedy", "defensive"):
        assert aggressive.value > rows.loc[other].value
        assert aggressive.ci_low > rows.loc[other].ci_high, other


def test_flush_bot_wins_with_more_fan(dataset: Path) -> None:
    """The flush bot chases one suit: its wins carry more fan (清一色/混一色) than the greedy bot's."""
    rows = compute(dataset, "mean_fan", by="style").set_index("style")
    assert rows.loc["flush"].value > rows.loc["greedy"].value
