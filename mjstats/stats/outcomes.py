"""Outcome metrics: win, self-draw, deal-in, exhaustive-draw and call rates, mean fan and points,
net points, mean winning turn, and tenpai at exhaustive draws (definitions: the registry)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable

import numpy as np
import pandas as pd

from mjstats.stats.grouping import HAND_KEYS, mean_rows, normalize_by, rate_rows
from mjstats.stats.holdings import UnreadableHand
from mjstats.stats.tables import DatasetLike, base_tables

__all__ = ["COMPUTE", "outcome_rates", "tenpai_at_draw", "win_rates"]


def _seat_rate(metric: str, numerator: str, denominator: str | None = None, **extra: str):
    def compute(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
        seats = base_tables(ds).seats
        keys = normalize_by(by)
        sums = {name: seats[column].to_numpy(np.int64) for name, column in extra.items()}
        return rate_rows(seats, metric, keys, seats[numerator].to_numpy(np.int64),
                         "hands" if denominator is None else seats[denominator].to_numpy(np.int64), **sums)

    return compute


def draw_rate(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
    """Exhaustive draws / hands; per hand when every key is a hand key, else per seat-hand."""
    base = base_tables(ds)
    keys = normalize_by(by)
    if all(k in HAND_KEYS for k in keys):
        hands = base.hands.assign(hands=np.int8(1))
        return rate_rows(hands, "draw_rate", keys, hands["draw"].to_numpy(np.int64), "hands")
    seats = base.seats
    return rate_rows(seats, "draw_rate", keys, seats["draw"].to_numpy(np.int64), "hands")


def _seat_mean(metric: str, values: Callable[[pd.DataFrame], np.ndarray],
               mask: Callable[[pd.DataFrame], np.ndarray]):
    def compute(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
        seats = base_tables(ds).seats
        return mean_rows(seats, metric, normalize_by(by), values(seats), mask(seats))

    return compute


def _win(s: pd.DataFrame) -> np.ndarray:
    return s["win"].to_numpy()


mean_fan = _seat_mean("mean_fan", lambda s: s["fan_total"].to_numpy(float), _win)
mean_win_points = _seat_mean(
    "mean_win_points", lambda s: s["points"].to_numpy(float), lambda s: _win(s) & s["scored"].to_numpy()
)
net_points = _seat_mean("net_points", lambda s: s["points"].to_numpy(float), lambda s: s["scored"].to_numpy())
# the winner's own turn: its discards before the win, plus one (registry: mean_win_turn)
mean_win_turn = _seat_mean("mean_win_turn", lambda s: s["discards"].to_numpy(float) + 1.0, _win)

win_rate = _seat_rate("win_rate", "win")
self_draw_share = _seat_rate("self_draw_share", "self_draw", "win")
# deal_ins: every win the seat paid as discarder (several a hand where play goes on after a win)
deal_in_rate = _seat_rate("deal_in_rate", "deal_in", deal_ins="deal_ins")
call_rate = _seat_rate("call_rate", "called")


Meld = tuple[str, int, int]
Engine = Callable[[list[int], list[Meld], int | None, str], int]


def _shanten_engines() -> dict[str, Engine]:
    """Shanten functions per ruleset (each ruleset's ``shanten`` part), imported lazily (the
    engines are optional here)."""
    from mjstats.rulesets import recorded

    engines: dict[str, Engine] = {}
    for ruleset in recorded():
        if ruleset.shanten is None:
            continue
        try:
            engines[ruleset.name] = ruleset.load(ruleset.shanten)
        except ImportError as exc:
            warnings.warn(
                f"tenpai_at_draw: {ruleset.title} shanten unavailable ({exc}); skipped", stacklevel=3
            )
    return engines

def _tenpai_flags(ds: DatasetLike) -> pd.DataFrame:
    """hand_id, seat, tenpai (1/0) and readable (1/0) for every seat at an exhaustive draw.

    The concealed hands were summed from the events in the base pass (tables.DrawnHands); only
    the shanten call runs per seat here.
    """
    from mjstats.errors import MjstatsError

    engines = _shanten_engines()
    out_h: list[np.ndarray] = []
    tenpai: list[int] = []
    readable: list[int] = []
    kinds = np.arange(34)
    for part in base_tables(ds).drawn:
        engine = engines.get(part.ruleset)
        if engine is None:
            continue
        counts = part.counts
        bad = (counts < 0).any(axis=1) | (counts[:, 34:] != 0).any(axis=1)
        for slot in range(len(counts)):
            flag = ok = 0
            if not bad[slot]:
                tiles = np.repeat(kinds, counts[slot, :34]).tolist()
                hand = slot // 4
                try:
                    melds = part.melds.get(slot, [])
                    args = (tiles, melds, part.golds[hand], part.profiles[hand])
                    void = part.voids.get(slot)  # the seat's declared void suit, where one is played
                    value = engine(*args) if void is None else engine(*args, void=void)
                    flag = int(value <= 0)
                    ok = 1
                except (UnreadableHand, MjstatsError):
                    pass
            tenpai.append(flag)
            readable.append(ok)
        out_h.append(np.repeat(part.hand_ids, 4))
    hand_id = np.concatenate(out_h).astype(np.int64) if out_h else np.zeros(0, np.int64)
    return pd.DataFrame({
        "hand_id": hand_id,
        "seat": np.tile(np.arange(4, dtype=np.int8), len(hand_id) // 4),
        "tenpai": np.asarray(tenpai, np.int64),
        "readable": np.asarray(readable, np.int64),
    })


def tenpai_at_draw(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
    """Share of seats waiting when the wall ran out (registry: tenpai_at_draw)."""
    seats = base_tables(ds).seats
    keys = normalize_by(by)
    flags = _tenpai_flags(ds)
    at_draw = seats[seats["draw"].to_numpy()]
    merged = at_draw.merge(flags, on=["hand_id", "seat"], how="inner")
    out = rate_rows(merged, "tenpai_at_draw", keys, "tenpai", "readable",
                    unreadable=1 - merged["readable"].to_numpy())
    return out


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
