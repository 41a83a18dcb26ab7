"""Dealer streaks (连庄): the streak-length distribution and its survival curve, the dealer's
and the non-dealers' results by current streak, and the Cochran-Armitage trend test of the
dealer's win rate across streak lengths (definitions: the registry)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from mjstats.stats.group_counts import group_counts, hand_counts
from mjstats.stats.grouping import HAND_KEYS, mean_rows_from_sums, normalize_by, rate_rows
from mjstats.stats.intervals import cochran_armitage
from mjstats.stats.labels import trend_note
from mjstats.stats.tables import DatasetLike

__all__ = ["COMPUTE", "dealer_streaks", "streak_trend"]

TOP_QUANTILE = 0.99  # registry streak_trend: streaks above it pooled into one top level


def _hand_keys(by: Iterable[str] | str | None) -> tuple[str, ...]:
    return tuple(k for k in normalize_by(by, HAND_KEYS) if k != "streak")


def _streak_rows(ds: DatasetLike, metric: str, column: str, by, hit) -> pd.DataFrame:
    """Per streak length k (0 .. the longest), the share of hands whose streak ``hit(streak, k)``."""
    hands = hand_counts(group_counts(ds))  # one row per hand key combination, counting hands
    keys = _hand_keys(by)
    streak = hands["streak"].to_numpy()
    count = hands["hands"].to_numpy(np.int64)
    frames = []
    for k in range(int(streak.max()) + 1 if len(streak) else 0):
        f = rate_rows(hands, metric, keys, np.where(hit(streak, k), count, 0), "hands")
        f.insert(1 + len(keys), column, k)
        frames.append(f)
    return _concat(frames, [*keys, column])


def streak_share(ds: DatasetLike, by=None) -> pd.DataFrame:
    """Share of hands played at each streak length (hands.streak)."""
    return _streak_rows(ds, "streak_share", "streak", by, lambda streak, k: streak == k)


def streak_survival(ds: DatasetLike, by=None) -> pd.DataFrame:
    """P(streak >= k) over hands, k = 0 .. longest streak."""
    return _streak_rows(ds, "streak_survival", "k", by, lambda streak, k: streak >= k)


def _role(dealer: bool):
    def rows(ds: DatasetLike) -> pd.DataFrame:
        seats = group_counts(ds).seats
        return seats[(seats["dealer"].astype(object) == "dealer").to_numpy() == dealer]

    return rows


_dealers = _role(True)
_others = _role(False)


def _seat_keys(by: Iterable[str] | str | None) -> tuple[str, ...]:
    return (*(k for k in normalize_by(by) if k not in ("streak", "dealer")), "streak")


def dealer_win_rate_by_streak(ds: DatasetLike, by=None) -> pd.DataFrame:
    return rate_rows(_dealers(ds), "dealer_win_rate_by_streak", _seat_keys(by), "win", "hands",
                     self_draws="self_draw", deal_ins="deal_in")


def dealer_points_by_streak(ds: DatasetLike, by=None) -> pd.DataFrame:
    return mean_rows_from_sums(_dealers(ds), "dealer_points_by_streak", _seat_keys(by), "points_sum",
                               "points_sq", "points_n")


def nondealer_win_rate_by_streak(ds: DatasetLike, by=None) -> pd.DataFrame:
    return rate_rows(_others(ds), "nondealer_win_rate_by_streak", _seat_keys(by), "win", "hands")


def nondealer_deal_in_rate_by_streak(ds: DatasetLike, by=None) -> pd.DataFrame:
    return rate_rows(_others(ds), "nondealer_deal_in_rate_by_streak", _seat_keys(by), "deal_in", "hands")


def nondealer_points_by_streak(ds: DatasetLike, by=None) -> pd.DataFrame:
    return mean_rows_from_sums(_others(ds), "nondealer_points_by_streak", _seat_keys(by), "points_sum",
                               "points_sq", "points_n")


def streak_trend(ds: DatasetLike, by=None) -> pd.DataFrame:
    """Cochran-Armitage test of the dealer's win rate across streak lengths, per group."""
    dealers = _dealers(ds)
    keys = [k for k in _seat_keys(by) if k != "streak"]
    groups = dealers.groupby(keys, observed=True, sort=True) if keys else [((), dealers)]
    rows = []
    for key, frame in groups:
        # the group's dealer seat-hands as a histogram over streak lengths (summed counters)
        length = frame["streak"].to_numpy(np.int64)
        seen = frame["hands"].to_numpy(np.int64)
        n = int(seen.sum())
        if n == 0:
            continue
        top = _lower_quantile(np.bincount(length, weights=seen).astype(np.int64), TOP_QUANTILE)
        level = np.minimum(length, top)
        wins = np.bincount(level, weights=frame["win"].to_numpy(float), minlength=top + 1)
        trials = np.bincount(level, weights=seen.astype(float), minlength=top + 1)
        test = cochran_armitage(np.arange(top + 1), wins, trials)
        row = dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True))
        row.update(
            metric="streak_trend", numerator=test.successes, denominator=test.trials,
            value=test.slope, ci_low=test.ci_low, ci_high=test.ci_high, hands=n,
            small_sample=n < 100, z=test.z, p_value=test.p_value, levels=test.levels,
            top_level=top, note=trend_note(test.levels, test.trials, test.successes),
        )
        rows.append(row)
    out = pd.DataFrame(rows, columns=["metric", *keys, "numerator", "denominator", "value", "ci_low",
                                      "ci_high", "hands", "small_sample", "z", "p_value", "levels",
                                      "top_level", "note"])
    out.attrs["group_keys"] = keys
    return out


def _lower_quantile(histogram: np.ndarray, q: float) -> int:
    """``np.quantile(values, q, method="lower")`` of the values a histogram counts (value v
    seen histogram[v] times): the value at sorted position floor(q * (n - 1))."""
    position = int(np.floor(q * (int(histogram.sum()) - 1)))
    return int(np.searchsorted(np.cumsum(histogram), position, side="right"))


def _concat(frames: list[pd.DataFrame], keys: list[str]) -> pd.DataFrame:
    if not frames:
        out = pd.DataFrame(columns=["metric", *keys, "numerator", "denominator", "value", "ci_low",
                                    "ci_high", "hands", "small_sample"])
    else:
        out = pd.concat(frames, ignore_index=True)
    out.attrs["group_keys"] = keys
    return out


def dealer_streaks(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
    """Every streak metric, one block of rows per metric."""
    frames = []
    for metric, fn in COMPUTE.items():
        if metric in ("streak_share", "streak_survival"):
            hand_by = [k for k in normalize_by(by) if k in HAND_KEYS]
            frames.append(fn(ds, hand_by))
        else:
            frames.append(fn(ds, by))
    keys: list[str] = []
    for f in frames:
        keys += [k for k in f.attrs.get("group_keys", []) if k not in keys]
    return _concat(frames, keys)


COMPUTE = {
    "streak_share": streak_share,
    "streak_survival": streak_survival,
    "dealer_win_rate_by_streak": dealer_win_rate_by_streak,
    "dealer_points_by_streak": dealer_points_by_streak,
    "nondealer_win_rate_by_streak": nondealer_win_rate_by_streak,
    "nondealer_deal_in_rate_by_streak": nondealer_deal_in_rate_by_streak,
    "nondealer_points_by_streak": nondealer_points_by_streak,
    "streak_trend": streak_trend,
}
