"""Flat statistics: metrics summed from per-part group counters equal a pass over every seat row,
whatever the part size and however often partial counters are summed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjstats.stats.group_counts as flat
from mjstats.stats import compute, compute_all, streaks
from mjstats.stats.api import COUNTED
from mjstats.stats.group_counts import group_counts
from mjstats.stats.grouping import HAND_KEYS, mean_rows, rate_rows
from mjstats.stats.registry import METRICS
from mjstats.stats.tables import base_tables, clear_cache
from mjstats.store import SourceInput, ingest_sources

SIM = Path(__file__).resolve().parents[1] / "data" / "sim"
BYS = [None, "seat", "player", "style", "dealer", "wind", "ruleset", "period", "profile", "streak",
       "ruleset,seat", "player,dealer,wind", "ruleset,profile,streak"]  # fmt: skip
FLAT = [m for m, metric in METRICS.items()
        if metric.family in COUNTED and m not in ("fan_mismatch_rate", "fan_disagreement")]


def _first_hands(source: Path, path: Path, hands: int = 600) -> Path:
    """The first ``hands`` records of a bundled canonical file: enough for part sizes to matter
    (15 parts of 40 hands each), few enough to ingest twice quickly."""
    import gzip

    with gzip.open(source, "rt", encoding="utf-8") as src, path.open("w", encoding="utf-8") as out:
        for n, line in enumerate(src):
            if n == hands:
                break
            out.write(line)
    return path


def _sichuan(path: Path) -> Path:
    from mjstats.formats.canonical import write_canonical
    from mjstats.sim import SimConfig, simulate_with_faults

    write_canonical((hand for hand, _ in simulate_with_faults(SimConfig("sichuan", 60, 3), 0.0)), path)
    return path


@pytest.fixture(scope="module")
def datasets(tmp_path_factory, sample_path) -> tuple[Path, Path]:
    """The same hands (Botzone, simulated Guobiao, Fuzhou and Sichuan) ingested twice: in
    default part files, and in part files of 40 hands or fewer."""
    folder = tmp_path_factory.mktemp("flat")
    sources = [SourceInput(sample_path, "botzone"),
               SourceInput(_first_hands(SIM / "guobiao.jsonl.gz", folder / "guobiao.jsonl"), "canonical"),
               SourceInput(_first_hands(SIM / "fuzhou.jsonl.gz", folder / "fuzhou.jsonl"), "canonical"),
               SourceInput(_sichuan(folder / "sichuan.jsonl"), "canonical")]
    whole, parts = folder / "whole", folder / "parts"
    ingest_sources(sources, whole)
    ingest_sources(sources, parts, chunk_hands=40, batch_records=40)
    return whole, parts


def _results(ds: Path, bys: list[str | None]) -> dict[tuple[str, str | None], pd.DataFrame]:
    out = {}
    for metric in FLAT:
        for by in bys:
            try:
                out[metric, by] = compute(ds, metric, by)
            except Exception as exc:  # a metric that cannot be grouped so: the same error both ways
                out[metric, by] = pd.DataFrame({"error": [str(exc).replace(str(ds), "DS")]})
    return out


def _same_results(datasets, monkeypatch, combine: int, bys: list[str | None]) -> None:
    whole, parts = datasets
    clear_cache()
    expected = _results(whole, bys)
    monkeypatch.setattr(flat, "COMBINE_PARTS", combine)
    clear_cache()
    got = _results(parts, bys)
    # more parts than two of the default 16-part sums, so partial counters are summed again
    assert len(list(parts.glob("v*/hands/*/*/*.parquet"))) > 32
    for key, frame in expected.items():
        pd.testing.assert_frame_equal(got[key], frame, check_exact=True, obj=str(key))
        assert frame.attrs == got[key].attrs, key
    assert any(len(f) > 3 for f in expected.values())


def test_tiny_parts_summed_one_by_one_change_nothing(datasets, monkeypatch):
    _same_results(datasets, monkeypatch, 1, [None, "player", "ruleset,seat", "streak"])


@pytest.mark.slow
def test_tiny_parts_change_nothing_for_any_grouping(datasets, monkeypatch):
    _same_results(datasets, monkeypatch, 3, BYS)


@pytest.mark.parametrize("by", ["seat", "player", "style", "dealer,wind", "ruleset,period,profile,streak"])
def test_counters_equal_a_pass_over_every_seat_row(datasets, by):
    """The outcome metrics computed the plain way (per seat row, then grouped) agree."""
    ds, _ = datasets
    seats = base_tables(ds).seats
    keys = tuple(by.split(","))
    win = seats["win"].to_numpy()
    scored = seats["scored"].to_numpy()
    plain = {
        "win_rate": rate_rows(seats, "win_rate", keys, seats["win"].to_numpy(np.int64), "hands"),
        "deal_in_rate": rate_rows(seats, "deal_in_rate", keys, seats["deal_in"].to_numpy(np.int64), "hands",
                                  deal_ins=seats["deal_ins"].to_numpy(np.int64)),
        "self_draw_share": rate_rows(seats, "self_draw_share", keys, seats["self_draw"].to_numpy(np.int64),
                                     seats["win"].to_numpy(np.int64)),
        "mean_fan": mean_rows(seats, "mean_fan", keys, seats["fan_total"].to_numpy(float), win),
        "net_points": mean_rows(seats, "net_points", keys, seats["points"].to_numpy(float), scored),
        "mean_win_turn": mean_rows(seats, "mean_win_turn", keys, seats["discards"].to_numpy(float) + 1, win),
    }
    for metric, frame in plain.items():
        pd.testing.assert_frame_equal(compute(ds, metric, by), frame, check_exact=True, obj=metric)
    assert int(plain["win_rate"]["numerator"].sum()) > 0


def test_hand_level_draw_rate_counts_hands(datasets):
    ds, _ = datasets
    hands = base_tables(ds).hands
    by = [k for k in HAND_KEYS if k != "streak"]
    draws = hands["draw"].to_numpy(np.int64)
    plain = rate_rows(hands.assign(hands=np.int8(1)), "draw_rate", by, draws, "hands")
    pd.testing.assert_frame_equal(compute(ds, "draw_rate", by), plain, check_exact=True)
    assert int(plain["hands"].sum()) == len(hands)


def test_compute_all_scans_once_with_tenpai(datasets):
    """compute_all builds the counters (tenpai's too) in one pass before the metrics read them."""
    ds, _ = datasets
    clear_cache()
    seen: list[int] = []
    frame = compute_all(ds, metrics=["win_rate", "tenpai_at_draw"], progress=lambda _, n: seen.append(n))
    assert group_counts(ds).tenpai is not None
    assert seen == sorted(seen) and seen[-1] == len(base_tables(ds).hands)
    assert set(frame["metric"]) == {"win_rate", "tenpai_at_draw"}


def test_the_counters_hold_groups_not_hands(datasets):
    whole, _ = datasets
    counts = group_counts(whole)
    hands = len(base_tables(whole).hands)
    assert int(counts.seats["hands"].sum()) == 4 * hands
    assert len(counts.seats) < 4 * hands  # rows per group combination, not per seat-hand


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 30), min_size=1, max_size=300), st.sampled_from([0.5, 0.9, 0.99, 1.0, 0.0]))
def test_lower_quantile_of_a_histogram_is_numpys(values, q):
    histogram = np.bincount(np.asarray(values))
    assert streaks._lower_quantile(histogram, q) == int(np.quantile(values, q, method="lower"))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", None]), st.integers(0, 3), st.sampled_from(["x", "y"]),
                          st.integers(-5, 5)), max_size=60))
def test_part_sums_equal_a_group_by_that_keeps_nulls(rows):
    frame = pd.DataFrame(rows, columns=["name", "seat", "style", "value"])
    frame["name"] = pd.Categorical(frame["name"])
    frame["seat"] = frame["seat"].astype(np.int8)
    frame["style"] = frame["style"].astype(object)
    frame["square"] = frame["value"].astype(float) ** 2
    keys = ["name", "seat", "style"]
    columns = {c: frame[c].array if c == "name" else frame[c].to_numpy() for c in frame.columns}
    got = flat.counter_sums(columns, keys)
    want = frame.groupby(keys, observed=True, dropna=False).sum().reset_index()
    want["name"] = want["name"].astype(object)
    order = lambda f: f.assign(name=f["name"].fillna("~")).sort_values(keys).reset_index(drop=True)  # noqa: E731
    pd.testing.assert_frame_equal(order(got), order(want), check_dtype=False)
