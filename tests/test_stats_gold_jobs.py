"""The Fuzhou gold columns scanned on worker processes (``jobs``) equal the one-process scan."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mjstats.formats.canonical import read_canonical
from mjstats.rulesets.fuzhou import gold as gold_module
from mjstats.stats import compute_all
from mjstats.stats.tables import _DERIVED
from mjstats.store import SourceInput, ingest_sources, open_dataset

SIM = Path(__file__).resolve().parent.parent / "data" / "sim" / "fuzhou.jsonl.gz"


@pytest.fixture(scope="module")
def parted_ds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled simulated Fuzhou hands in several part files (500 hands each)."""
    out = tmp_path_factory.mktemp("gold-jobs") / "ds"
    ingest_sources([SourceInput(SIM, "canonical", read_canonical)], out, chunk_hands=500)
    return out


def test_part_files_are_several(parted_ds: Path) -> None:
    assert len(open_dataset(parted_ds).parts()) >= 4


def test_two_jobs_give_the_same_gold_rows(parted_ds: Path) -> None:
    dataset = open_dataset(parted_ds)
    one_pos, one = gold_module._scan_gold_rows(dataset, None, 1)
    seen: list[int] = []
    two_pos, two = gold_module._scan_gold_rows(dataset, seen.append, 2)
    assert len(one_pos) > 0 and np.array_equal(one_pos, two_pos)
    for name in gold_module._GOLD_COLUMNS:
        assert np.array_equal(one[name], two[name]), name
    assert one["resolved"].sum() > 0  # winners' shapes were really examined
    assert seen == sorted(seen) and seen[-1] == len(one_pos) // 4


def test_compute_all_with_jobs_gives_the_same_metrics(parted_ds: Path) -> None:
    metrics = list(gold_module.READS_GOLD_ROWS)
    _DERIVED.clear()
    one = compute_all(parted_ds, metrics=metrics)
    _DERIVED.clear()
    two = compute_all(parted_ds, metrics=metrics, jobs=2)
    assert len(one) > 0
    assert one.equals(two)
