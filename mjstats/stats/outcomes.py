"""Outcome metrics: win, self-draw, deal-in, exhaustive-draw and call rates, mean fan and points,
net points, mean winning turn, and tenpai at exhaustive draws (definitions: the registry)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from mjstats.stats.group_counts import group_counts, hand_counts
from mjstats.stats.group_counts import shanten_engines as _shanten_engines  # noqa: F401 (tests)
from mjstats.stats.grouping import HAND_KEYS, mean_rows_from_sums, normalize_by, rate_rows
from mjstats.stats.tables import DatasetLike

__all__ = ["COMPUTE", "outcome_rates", "tenpai_at_draw", "win_rates"]


def _seat_rate(metric: str, numerator: str, denominator: str | None = None, **extra: str):
    def compute(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
        seats = group_counts(ds).seats
        keys = normalize_by(by)
        sums = {name: seats[column].to_numpy(np.int64) for name, column in extra.items()}
        return rate_rows(seats, metric, keys, seats[numerator].to_numpy(np.int64),
                         "hands" if denominator is None else seats[denominator].to_numpy(np.int64), **sums)

    return compute


def draw_rate(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
    """Exhaustive draws / hands; per hand when every key is a hand key, else per seat-hand."""
    counts = group_counts(ds)
    keys = normalize_by(by)
    if all(k in HAND_KEYS for k in keys):
        hands = hand_counts(counts)
        return rate_rows(hands, "draw_rate", keys, hands["draw"].to_numpy(np.int64), "hands")
    seats = counts.seats
    return rate_rows(seats, "draw_rate", keys, seats["draw"].to_numpy(np.int64), "hands")


def _seat_mean(metric: str, prefix: str):
    """A mean over seat-hands from the summed counters ``prefix``_n, _sum, _sq (group_counts)."""

    def compute(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
        seats = group_counts(ds).seats
        return mean_rows_from_sums(seats, metric, normalize_by(by), f"{prefix}_sum", f"{prefix}_sq",
                                   f"{prefix}_n")

    return compute


# the values and rows of each mean: group_counts._part_counts (fan totals of wins, points of
# scored wins, points of scored seat-hands, the winner's own turn: its discards before the win
# plus one; registry: mean_win_turn)
mean_fan = _seat_mean("mean_fan", "fan")
mean_win_points = _seat_mean("mean_win_points", "win_points")
net_points = _seat_mean("net_points", "points")
mean_win_turn = _seat_mean("mean_win_turn", "turn")

win_rate = _seat_rate("win_rate", "win")
self_draw_share = _seat_rate("self_draw_share", "self_draw", "win")
# deal_ins: every win the seat paid as discarder (several a hand where play goes on after a win)
deal_in_rate = _seat_rate("deal_in_rate", "deal_in", deal_ins="deal_ins")
call_rate = _seat_rate("call_rate", "called")


def tenpai_at_draw(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
    """Share of seats waiting when the wall ran out (registry: tenpai_at_draw). The concealed
    hands are summed from the events in the scan (tables.DrawnHands) and the shanten engine
    judges each seat there, part by part; only counters per group are kept."""
    counts = group_counts(ds, tenpai=True).tenpai
    assert counts is not None  # asked for
    keys = normalize_by(by)
    return rate_rows(counts, "tenpai_at_draw", keys, "tenpai", "readable",
                     unreadable=counts["unreadable"].to_numpy(np.int64))


def outcome_rates(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
    """Every outcome metric but tenpai (which replays hands), one block of rows per metric."""
    frames = [COMPUTE[m](ds, by) for m in COMPUTE if m != "tenpai_at_draw"]
    return _concat(frames)


def win_rates(ds: DatasetLike, by: Iterable[str] | str | None = "seat") -> pd.DataFrame:
    """Win, self-draw, deal-in and call rates (the headline rates) grouped ``by``."""
    return _concat([COMPUTE[m](ds, by) for m in ("win_rate", "self_draw_share", "deal_in_rate", "call_rate")])


def _concat(frames: list[pd.DataFrame]) -> pd.DataFrame:
    keys: list[str] = []
    for f in frames:
        keys += [k for k in f.attrs.get("group_keys", []) if k not in keys]
    out = pd.concat(frames, ignore_index=True)
    out.attrs["group_keys"] = keys
    return out


COMPUTE = {
    "win_rate": win_rate,
    "self_draw_share": self_draw_share,
    "deal_in_rate": deal_in_rate,
    "draw_rate": draw_rate,
    "call_rate": call_rate,
    "mean_fan": mean_fan,
    "mean_win_points": mean_win_points,
    "net_points": net_points,
    "mean_win_turn": mean_win_turn,
    "tenpai_at_draw": tenpai_at_draw,
}
