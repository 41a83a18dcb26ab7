"""Flat ruleset metrics (gold, Sichuan): summed from per-part counters, they equal a pass over
every seat row, whatever the part size and however often the partial counters are summed."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import mjstats.stats.part_sums as part_sums
from mjstats.rulesets.fuzhou import gold
from mjstats.rulesets.fuzhou.gold_counts import gold_counts
from mjstats.stats.tables import _CACHE, base_tables, clear_cache
from mjstats.store import SourceInput, ingest_sources
from tests.test_stats_flat import _first_hands

SIM = Path(__file__).resolve().parents[1] / "data" / "sim"
BYS = [None, "seat", "player", "dealer,wind", "ruleset,profile,streak", "style,period"]


def _whole_and_parts(folder: Path, sources: list[SourceInput]) -> tuple[Path, Path]:
    """``sources`` ingested twice: in default part files, and in parts of 40 hands."""
    whole, parts = folder / "whole", folder / "parts"
    ingest_sources(sources, whole)
    ingest_sources(sources, parts, chunk_hands=40, batch_records=40)
    return whole, parts


@pytest.fixture(scope="module")
def gold_datasets(tmp_path_factory) -> tuple[Path, Path]:
    """The same Fuzhou and Guobiao hands in default part files and in parts of 40 hands."""
    folder = tmp_path_factory.mktemp("flat-gold")
    sources = [SourceInput(_first_hands(SIM / "fuzhou.jsonl.gz", folder / "fz.jsonl", 800), "canonical"),
               SourceInput(_first_hands(SIM / "guobiao.jsonl.gz", folder / "gb.jsonl", 80), "canonical")]
    return _whole_and_parts(folder, sources)


def test_gold_counters_equal_the_per_seat_table(gold_datasets, monkeypatch):
    """Every gold metric from counters summed three parts at a time equals the per-seat pass."""
    whole, parts = gold_datasets
    monkeypatch.setattr(part_sums, "COMBINE_PARTS", 3)
    assert len(list(parts.glob("v*/hands/ruleset=fuzhou/*/*.parquet"))) >= 20
    _assert_counters_equal_the_table(whole, parts, gold.COMPUTE, gold.gold_seat_table)


def _assert_counters_equal_the_table(whole: Path, parts: Path, compute: dict, seat_table) -> None:
    """Every metric of ``compute``, by every grouping, from counters (default parts and small
    ones) equals the per-seat pass over ``seat_table(whole)``, digit for digit."""
    clear_cache()
    table = seat_table(whole)
    for by in BYS:
        for metric, fn in compute.items():
            plain = fn(whole, by, table=table)
            for ds in (whole, parts):
                got = fn(ds, by)
                pd.testing.assert_frame_equal(got, plain, check_exact=True, obj=f"{metric} {by} {ds.name}")
                assert got.attrs == plain.attrs
            assert len(plain) > 0 and int(plain["denominator"].sum()) > 0, metric


def test_gold_counters_keep_groups_not_hands(gold_datasets):
    whole, _ = gold_datasets
    clear_cache()
    counts = gold_counts(whole)
    assert not _CACHE  # no per-hand base tables were built
    fuzhou = base_tables(whole).seats
    fuzhou_rows = int((fuzhou["ruleset"].astype(object) == "fuzhou").sum())
    assert int(counts["seats"]["hands"].sum()) == fuzhou_rows  # every bundled Fuzhou hand has a gold
    assert len(counts["seats"]) < fuzhou_rows / 2  # rows per group combination, not per seat-hand
    assert int(counts["patterns"]["wins"].sum()) == int(counts["wins"]["wins"].sum()) > 0


def test_gold_counters_with_jobs_are_the_same(gold_datasets):
    _, parts = gold_datasets
    clear_cache()
    one = gold_counts(parts)
    clear_cache()
    seen: list[int] = []
    two = gold_counts(parts, seen.append, jobs=2)
    for name, frame in one.items():
        pd.testing.assert_frame_equal(two[name], frame, check_exact=True, obj=name)
    assert seen == sorted(seen) and seen[-1] == 800


def test_gold_metrics_without_fuzhou_hands_are_empty(tmp_path):
    out = tmp_path / "gb"
    ingest_sources([SourceInput(_first_hands(SIM / "guobiao.jsonl.gz", tmp_path / "gb.jsonl", 40),
                                "canonical")], out)
    clear_cache()
    for metric, fn in gold.COMPUTE.items():
        frame = fn(out, "seat")
        assert frame.empty or int(frame["denominator"].sum()) == 0, metric


@pytest.fixture(scope="module")
def sichuan_datasets(tmp_path_factory) -> tuple[Path, Path]:
    """Simulated Sichuan hands (and a few Guobiao ones) in default parts and in parts of 40."""
    from mjstats.formats.canonical import write_canonical
    from mjstats.sim import SimConfig, simulate_with_faults

    folder = tmp_path_factory.mktemp("flat-sichuan")
    source = folder / "sc.jsonl"
    write_canonical((hand for hand, _ in simulate_with_faults(SimConfig("sichuan", 240, 5), 0.0)), source)
    sources = [SourceInput(source, "canonical"),
               SourceInput(_first_hands(SIM / "guobiao.jsonl.gz", folder / "gb.jsonl", 80), "canonical")]
    return _whole_and_parts(folder, sources)


def test_sichuan_counters_equal_the_per_seat_table(sichuan_datasets, monkeypatch):
    """Every Sichuan metric from counters summed three parts at a time equals the per-seat pass."""
    from mjstats.rulesets.sichuan import stats as sichuan

    whole, parts = sichuan_datasets
    monkeypatch.setattr(part_sums, "COMBINE_PARTS", 3)
    assert len(list(parts.glob("v*/hands/ruleset=sichuan/*/*.parquet"))) >= 6  # summed 3 at a time
    _assert_counters_equal_the_table(whole, parts, sichuan.COMPUTE, sichuan.sichuan_seat_table)


def test_sichuan_counters_keep_groups_not_hands(sichuan_datasets):
    from mjstats.rulesets.sichuan.counts import sichuan_counts

    whole, _ = sichuan_datasets
    clear_cache()
    seen: list[int] = []
    counts = sichuan_counts(whole, seen.append)
    assert not _CACHE  # no per-hand base tables were built
    assert seen[-1] == 240 and int(counts["seats"]["hands"].sum()) == 4 * 240
    assert len(counts["seats"]) < 4 * 240  # rows per group combination, not per seat-hand
    assert int(counts["wins"]["wins"].sum()) == int(counts["seats"]["win"].sum()) > 0


def test_ruleset_stats_parts_declare_their_counted_families():
    """The core learns which ruleset families skip the base tables from the stats parts' own
    ``COUNTED`` (never from names of its own): each is a family of that ruleset's metrics."""
    from mjstats.stats.api import COUNTED, COUNTED_APART, counted_families, ruleset_stats
    from mjstats.stats.registry import METRICS

    declared = {f for part in ruleset_stats().values() for f in part.COUNTED}
    assert declared and counted_families() == frozenset({*COUNTED, *COUNTED_APART, *declared})
    for name, part in ruleset_stats().items():
        families = {m.family for m in METRICS.values() if m.id in part.COMPUTE}
        assert set(part.COUNTED) <= families, name
