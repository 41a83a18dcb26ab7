"""Properties over random datasets (hands from tests.strategies, ingested through the store):
numerators never exceed denominators, intervals hold their estimate, and grouping then summing
the counters gives back the ungrouped metric."""

from __future__ import annotations

import random
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjstats.decision.stage import decisions
from mjstats.stats import METRICS, clear_cache, compute
from mjstats.stats.grouping import HAND_KEYS, SEAT_KEYS
from mjstats.store import SourceInput, ingest_sources, open_dataset, write_derived
from tests.strategies import random_hand

SEAT_LEVEL = ("win_rate", "self_draw_share", "deal_in_rate", "call_rate", "mean_fan", "mean_win_points",
              "net_points", "mean_win_turn", "tenpai_at_draw")  # fmt: skip


def _dataset(seed: int, n: int, root: Path) -> Path:
    rng = random.Random(seed)
    # a few periods only: every (ruleset, period) is its own partition of part files
    months = (None, "2024-01-05T10:00:00", "2024-02-11T21:30:00")
    hands = [replace(random_hand(rng), started_at=rng.choice(months)) for _ in range(n)]
    src = root / f"src-{seed}"
    src.write_text(str(seed), encoding="utf-8")
    out = root / f"ds-{seed}"
    ingest_sources([SourceInput(src, "made", lambda _p: iter(hands))], out)
    return out


def _audit(ds_path: Path) -> None:
    """Audit tables (computed_wins / computed_fans) made from the recorded wins and fans, with a
    seeded few totals bumped and fan counts changed, so the audit metrics have rows and some
    disagreement (as tests/test_stats_streamed.py does for the sample)."""
    ds = open_dataset(ds_path)
    rng = np.random.default_rng(5)
    wins = ds.arrow("wins", columns=["match_id", "hand_no", "winner", "fan_total", "ruleset"])
    total = wins["fan_total"].to_numpy(zero_copy_only=False).astype(float)
    bumped = np.where(rng.random(len(total)) < 0.2, total + 2, total)
    as_int = lambda xs: pa.array([None if np.isnan(x) else int(x) for x in xs], pa.int32())  # noqa: E731
    cw = pa.table({
        "match_id": wins["match_id"], "hand_no": wins["hand_no"], "winner": wins["winner"],
        "fan_total": as_int(bumped), "recorded_fan_total": as_int(total), "ruleset": wins["ruleset"],
    })  # fmt: skip
    rec = ds.arrow("fans", columns=["match_id", "hand_no", "name", "count", "ruleset"])
    count = rec["count"].to_numpy(zero_copy_only=False).astype(np.int16)
    count[rng.random(len(count)) < 0.1] += 1
    cf = rec.set_column(3, "count", pa.array(count, pa.int16()))
    write_derived(ds_path, {"computed_wins": cw, "computed_fans": cf})
    clear_cache()


@pytest.fixture(scope="module")
def random_ds(tmp_path_factory) -> Path:
    ds = _dataset(20261130, 300, tmp_path_factory.mktemp("rand"))
    _audit(ds)
    decisions(ds, jobs=1)  # the decision metrics read its table
    return ds


def _check_rows(frame: pd.DataFrame) -> None:
    kind = {m.id: m.kind for m in METRICS.values()}
    for row in frame.itertuples():
        if kind.get(row.metric) == "rate":
            assert 0 <= row.numerator <= row.denominator
            if row.denominator:
                assert 0.0 <= row.ci_low <= row.value <= row.ci_high <= 1.0
        assert row.small_sample == (row.hands < 100)


# the random hands are Guobiao and Fuzhou: Sichuan-only metrics are checked the same way on
# Sichuan hands in tests/test_stats_sichuan.py
RANDOM_RULESETS = {"guobiao", "fuzhou"}


@pytest.mark.parametrize("metric", sorted(m for m, d in METRICS.items() if RANDOM_RULESETS & set(d.rulesets)))
def test_every_metric_runs_and_rates_are_bounded(random_ds, metric):
    frame = compute(random_ds, metric)
    # 300 random hands of both rulesets, with audit tables: every metric has rows to check
    assert len(frame) > 0
    _check_rows(frame)
    # wherever an estimate and its interval are all present, the interval holds the estimate
    cols = frame[["value", "ci_low", "ci_high"]].astype(float)
    present = cols.notna().all(axis=1)
    assert ((cols.ci_low <= cols.value) & (cols.value <= cols.ci_high))[present].all()


@pytest.mark.parametrize("metric", ["fan_mismatch_rate", "fan_disagreement"])
def test_audit_metrics_see_the_audit_tables(random_ds, metric):
    frame = compute(random_ds, metric)
    # the perturbed audit disagrees somewhere, and agrees somewhere
    assert 0 < frame["numerator"].sum() < frame["denominator"].sum()


@pytest.mark.parametrize("key", SEAT_KEYS + HAND_KEYS)
@pytest.mark.parametrize("metric", SEAT_LEVEL)
def test_grouped_sums_equal_ungrouped(random_ds, metric, key):
    whole = compute(random_ds, metric).iloc[0]
    parts = compute(random_ds, metric, by=key)
    _check_rows(parts)
    assert np.isclose(parts["numerator"].sum(), whole.numerator)
    assert parts["denominator"].sum() == whole.denominator
    assert parts["hands"].sum() == whole.hands


@pytest.mark.parametrize("key", HAND_KEYS)
def test_hand_level_draw_rate_sums(random_ds, key):
    whole = compute(random_ds, "draw_rate").iloc[0]
    parts = compute(random_ds, "draw_rate", by=key)
    assert (parts["numerator"].sum(), parts["denominator"].sum()) == (whole.numerator, whole.denominator)


def test_fan_frequency_by_seat_sums_to_ruleset_totals(random_ds):
    whole = compute(random_ds, "fan_frequency")
    by_seat = compute(random_ds, "fan_frequency", by="seat")
    summed = by_seat.groupby(["ruleset", "fan"])["numerator"].sum()
    assert summed.to_dict() == whole.set_index(["ruleset", "fan"])["numerator"].to_dict()
    assert (whole["numerator"] <= whole["denominator"]).all()


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), n=st.integers(1, 40), key=st.sampled_from(SEAT_KEYS + HAND_KEYS))
def test_property_random_datasets(seed, n, key):
    with tempfile.TemporaryDirectory() as tmp:
        ds = _dataset(seed, n, Path(tmp))
        for metric in ("win_rate", "deal_in_rate", "self_draw_share", "call_rate", "net_points"):
            whole = compute(ds, metric)
            parts = compute(ds, metric, by=key)
            _check_rows(whole)
            _check_rows(parts)
            assert np.isclose(parts["numerator"].sum(), whole["numerator"].sum())
            assert parts["denominator"].sum() == whole["denominator"].sum()
        clear_cache()


def test_gold_rows_line_up_with_their_hands_in_a_mixed_dataset(random_ds):
    """Hand ids of the Fuzhou pass must match the base tables even with Guobiao parts around."""
    from mjstats.rulesets.fuzhou.gold import gold_seat_table
    from mjstats.stats.tables import base_tables

    table = gold_seat_table(random_ds)
    base = base_tables(random_ds)
    fuzhou = base.hands[base.hands["ruleset"] == "fuzhou"]
    assert len(table) == 4 * len(fuzhou) > 0
    assert set(table["ruleset"].astype(str)) == {"fuzhou"}
    assert ((table["golds_held"] >= 0) == table["win"]).all()
