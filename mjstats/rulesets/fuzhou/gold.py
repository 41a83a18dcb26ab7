"""Fuzhou gold (金) usage: golds held at win and the points they bring, golds used as wild or
at face value, gold discards and what followed, golds in the starting hand, and the gold
patterns 三金倒, 金雀, 金龙 and 抢金 (definitions: the registry; rules: reference fuzhou.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from mjstats.stats.grouping import mean_rows, mean_rows_from_sums, normalize_by, rate_rows
from mjstats.stats.holdings import part_events, seat_melds, tile_counts
from mjstats.stats.parts import DatasetLike, as_dataset, int_column, kind_codes, sorted_by
from mjstats.stats.tables import base_tables, cached_per_version
from mjstats.store import Dataset

__all__ = [
    "COMPUTE",
    "COUNTED",
    "GOLD_PATTERNS",
    "PROGRESS",
    "PUBLIC",
    "READS",
    "gold_seat_table",
    "gold_usage",
    "prepare",
    "prepare_gold_rows",
]

GOLD_PATTERNS = ("三金倒", "金雀", "金龙", "抢金")
WIN_SIZE = 17  # reference fuzhou.md: a winning hand is 17 tiles, 5 melds + a pair
HAND_GROUPS = 5
_WIN_KIND_PATTERN = {"three_golds": "三金倒", "rob_gold": "抢金"}


def _gold_split(counts: list[int], golds: int, gold: int, groups: int) -> tuple[int, int] | None:
    """(golds at face value, golds as wild) reading as many golds as possible at face value;
    None when no reading completes the hand."""
    from mjstats.rules.hand import is_complete

    base = counts[:34]
    base[gold] = 0
    for natural in range(golds, -1, -1):
        trial = list(base)
        trial[gold] += natural
        if is_complete(trial, groups, wilds=golds - natural):
            return natural, golds - natural
    return None


def _part_gold_rows(hand_ids: np.ndarray, hands: pa.Table, events: pa.Table,
                    n_events: np.ndarray) -> dict[str, np.ndarray]:
    """Per seat of the part's Fuzhou hands: start_golds, gold_discards, golds_held (winner,
    else -1), natural, wild, resolved. Counts are summed from the events (holdings.tile_counts);
    only the winners' shapes are examined one by one."""
    n = len(n_events)
    gold = int_column(hands, "gold")
    hidx = np.repeat(np.arange(n), n_events)
    pos = np.arange(len(hidx))
    kind = kind_codes(events.column("kind"), ("discard", "hu"))
    seat = int_column(events, "seat")
    tile = int_column(events, "tile")
    # the starting hand: everything before the hand's first discard (deal, flowers, the gold)
    first = np.full(n, len(hidx), dtype=np.int64)
    disc = kind == 0
    np.minimum.at(first, hidx[disc], pos[disc])
    start = tile_counts(events, n_events, keep=pos < first[hidx])
    end = tile_counts(events, n_events)
    melds = seat_melds(events, n_events)
    slots = np.arange(4 * n)
    hand_of = slots // 4
    start_golds = np.where(gold[hand_of] >= 0, start[slots, np.maximum(gold[hand_of], 0)], 0)
    gold_disc = disc & (seat >= 0) & (tile == gold[hidx]) & (tile >= 0)
    gold_discards = np.bincount(hidx[gold_disc] * 4 + seat[gold_disc], minlength=4 * n)
    held = np.full(4 * n, -1, dtype=np.int64)
    natural = np.zeros(4 * n, dtype=np.int64)
    wild = np.zeros(4 * n, dtype=np.int64)
    resolved = np.zeros(4 * n, dtype=np.int64)
    hu = np.flatnonzero(kind == 1)
    _, firsts = np.unique(hidx[hu], return_index=True)
    for i in hu[firsts].tolist():
        h, s = int(hidx[i]), int(seat[i])
        g = int(gold[h])
        if s < 0 or g < 0:
            continue
        slot = h * 4 + s
        counts = end[slot, :34].tolist()
        groups = len(melds.get(slot, ()))
        if sum(counts) == WIN_SIZE - 3 * groups - 1 and tile[i] >= 0:
            counts[int(tile[i])] += 1  # won on a discard, a robbed kong or the face-up gold
        held[slot] = counts[g]
        # 三金倒 wins on any shape: gold_seat_table sets these aside after the join
        split = _gold_split(counts, counts[g], g, HAND_GROUPS - groups)
        if split is not None:
            natural[slot], wild[slot] = split
            resolved[slot] = 1
    rows = {"hand_id": np.repeat(hand_ids, 4), "seat": np.tile(np.arange(4), n),
            "start_golds": start_golds, "gold_discards": gold_discards, "golds_held": held,
            "natural": natural, "wild": wild, "resolved": resolved}
    # hands whose events contradict themselves (a tile leaves that was never held) are left out
    readable = ~np.repeat((end.reshape(n, 4 * 42) < 0).any(axis=1), 4)
    return {k: v[readable] for k, v in rows.items()}


_GOLD_COLUMNS = ("start_golds", "gold_discards", "golds_held", "natural", "wild", "resolved")


def _gold_rows(dataset: Dataset, progress: Callable[[int], None] | None = None,
               jobs: int = 1) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The per-seat gold columns of the Fuzhou seat-hands (row positions in ``base.seats``,
    compact columns), computed once per dataset version: examining every winning shape is the
    slow part (half a minute at a million hands), and every gold metric needs the same rows."""
    return cached_per_version("gold_rows", dataset, lambda: _scan_gold_rows(dataset, progress, jobs))


def prepare_gold_rows(ds: DatasetLike, progress: Callable[[int], None] | None = None,
                      jobs: int = 1) -> None:
    """Compute (and cache) the gold columns now, reporting Fuzhou hands done to ``progress``;
    ``jobs`` worker processes examine the part files' winning shapes (same rows for any jobs)."""
    _gold_rows(as_dataset(ds), progress, jobs)


def _part_rows_counted(hand_ids: np.ndarray, hands: pa.Table, events: pa.Table,
                       n_events: np.ndarray) -> tuple[int, dict[str, np.ndarray]]:
    """One part's gold rows and its number of hands (a worker's task: module level, picklable)."""
    return len(hand_ids), _part_gold_rows(hand_ids, hands, events, n_events)


def _scan_gold_rows(dataset: Dataset, progress: Callable[[int], None] | None,
                    jobs: int = 1) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    def with_gold(h: pa.Table) -> np.ndarray:
        return pc.is_valid(h.column("gold")).to_numpy(zero_copy_only=False)

    hand_id: list[np.ndarray] = []
    seat: list[np.ndarray] = []
    columns: dict[str, list[np.ndarray]] = {k: [] for k in _GOLD_COLUMNS}
    done = 0
    parts = part_events(dataset, with_gold, "fuzhou", ("gold",))
    if jobs > 1:
        from mjstats.workers import ordered_map

        # parts are read here and examined in order on ``jobs`` processes: the rows come back
        # in part order, so the columns are the same as with one job
        results = ordered_map(_part_rows_counted, parts, jobs)
    else:
        results = (_part_rows_counted(*part) for part in parts)
    for count, rows in results:
        done += count
        if progress is not None:
            progress(done)
        hand_id.append(rows["hand_id"])
        seat.append(rows["seat"])
        for k in _GOLD_COLUMNS:
            columns[k].append(rows[k].astype(np.int16))  # counts of at most 17 tiles
    # base.seats holds seat s of hand h at row 4h + s (tables._scan_part builds it so)
    if not hand_id:
        return np.zeros(0, np.int64), {k: np.zeros(0, np.int16) for k in _GOLD_COLUMNS}
    positions, *values = sorted_by(np.concatenate(hand_id) * 4 + np.concatenate(seat),
                                   *(np.concatenate(columns[k]) for k in _GOLD_COLUMNS))
    return positions, dict(zip(_GOLD_COLUMNS, values, strict=True))


def gold_seat_table(ds: DatasetLike) -> pd.DataFrame:
    """Per Fuzhou seat-hand: start_golds, gold_discards, golds_held (winner), natural, wild,
    resolved (the winner's shape reads as complete), with the base seat row's columns."""
    dataset = as_dataset(ds)
    base = base_tables(dataset)
    positions, columns = _gold_rows(dataset)
    merged = base.seats.iloc[positions].reset_index(drop=True)
    for k in _GOLD_COLUMNS:
        merged[k] = columns[k].astype(np.int64)
    hand_of = merged["hand_id"].to_numpy()
    merged["win_kind"] = base.hands["win_kind"].array.take(hand_of)  # hands row i is hand id i
    merged["pattern"] = base.hands["pattern"].array.take(hand_of)
    merged["three_golds"] = (merged["win_kind"].astype(object) == "three_golds").to_numpy()
    # 三金倒 wins on any shape: their golds are neither wild nor at face value
    merged.loc[merged["three_golds"], ["natural", "wild", "resolved"]] = 0
    return merged


def _keys(by: Iterable[str] | str | None) -> tuple[str, ...]:
    return normalize_by(by)


def _counts(ds: DatasetLike) -> dict[str, pd.DataFrame]:
    from mjstats.rulesets.fuzhou.gold_counts import gold_counts

    return gold_counts(ds)


# Each metric reads the summed counters (gold_counts: flat in the number of hands); given a
# per-seat ``table`` (gold_seat_table) it computes the same rows from it, one row per seat-hand.


def gold_held_share(ds: DatasetLike, by=None, table: pd.DataFrame | None = None) -> pd.DataFrame:
    keys = _keys(by)
    if table is None:
        wins = _counts(ds)["wins"]
        held = wins["golds_held"].to_numpy()
        n = wins["wins"].to_numpy(np.int64)
    else:
        wins = table[table["win"].to_numpy()]
        held = wins["golds_held"].to_numpy()
        n = np.ones(len(wins), np.int64)
    top = int(max(3, held.max() if len(wins) else 0))
    frames = []
    for k in range(top + 1):
        hit = (held == k).astype(np.int64) * n
        f = rate_rows(wins, "gold_held_share", keys, hit, n, "hands" if table is not None else n)
        f.insert(1 + len(keys), "golds_held", k)
        frames.append(f)
    return _concat(frames, [*keys, "golds_held"])


def gold_points(ds: DatasetLike, by=None, table: pd.DataFrame | None = None) -> pd.DataFrame:
    keys = (*_keys(by), "golds_held")
    if table is None:
        wins = _counts(ds)["wins"]
        return mean_rows_from_sums(wins, "gold_points", keys, "points_sum", "points_sq", "points_n", "wins")
    wins = table[table["win"].to_numpy()]
    return mean_rows(wins, "gold_points", keys, "points", "scored")


def gold_wild_share(ds: DatasetLike, by=None, table: pd.DataFrame | None = None) -> pd.DataFrame:
    if table is None:
        w = _counts(ds)["wins"]
        n = w["wins"].to_numpy(np.int64)
        return rate_rows(w, "gold_wild_share", _keys(by), w["wild"].to_numpy(np.int64),
                         w["golds"].to_numpy(np.int64), n, natural=w["natural"].to_numpy(np.int64),
                         unresolved=w["unresolved"].to_numpy(np.int64))
    wins = table[table["win"].to_numpy()]
    resolved = wins["resolved"].to_numpy(bool)
    golds = np.where(resolved, wins["golds_held"].to_numpy(), 0)
    return rate_rows(wins, "gold_wild_share", _keys(by), np.where(resolved, wins["wild"], 0), golds,
                     np.ones(len(wins), np.int64), natural=np.where(resolved, wins["natural"], 0),
                     unresolved=(~resolved).astype(np.int64))


def gold_discard_win_rate(ds: DatasetLike, by=None, table: pd.DataFrame | None = None) -> pd.DataFrame:
    if table is None:
        t = _counts(ds)["seats"]
    else:
        t = table.assign(discarded_gold=table["gold_discards"].to_numpy() > 0)
    return rate_rows(t, "gold_discard_win_rate", (*_keys(by), "discarded_gold"), "win", "hands",
                     self_draws="self_draw", gold_discards="gold_discards")


def start_gold_win_rate(ds: DatasetLike, by=None, table: pd.DataFrame | None = None) -> pd.DataFrame:
    t = _counts(ds)["seats"] if table is None else table
    return rate_rows(t, "start_gold_win_rate", (*_keys(by), "start_golds"), "win", "hands")


def gold_pattern_rate(ds: DatasetLike, by=None, table: pd.DataFrame | None = None) -> pd.DataFrame:
    """Share of Fuzhou wins with each gold pattern (zero rows kept); from the counters, or, with
    ``table`` (any frame), from the base tables' seat rows."""
    keys = _keys(by)
    frames = []
    if table is None:
        wins = _counts(ds)["patterns"]
        n = wins["wins"].to_numpy(np.int64)
        for i, name in enumerate(GOLD_PATTERNS):
            f = rate_rows(wins, "gold_pattern_rate", keys, wins[f"hit{i}"].to_numpy(np.int64), n, n)
            f.insert(1 + len(keys), "pattern", name)
            frames.append(f)
        return _concat(frames, [*keys, "pattern"])
    base = base_tables(ds)
    seats = base.seats
    wins = seats[seats["win"].to_numpy() & (seats["ruleset"].astype(object) == "fuzhou").to_numpy()]
    info = base.hands.set_index("hand_id").loc[wins["hand_id"].to_numpy(), ["win_kind", "pattern"]]
    kind = info["win_kind"].astype(object).to_numpy()
    pattern = info["pattern"].astype(object).to_numpy()
    for name in GOLD_PATTERNS:
        hit = pattern == name
        for wk, label in _WIN_KIND_PATTERN.items():
            if label == name:
                hit = hit | (kind == wk)
        f = rate_rows(wins, "gold_pattern_rate", keys, hit.astype(np.int64), np.ones(len(wins), np.int64))
        f.insert(1 + len(keys), "pattern", name)
        frames.append(f)
    return _concat(frames, [*keys, "pattern"])


def _concat(frames: list[pd.DataFrame], keys: list[str]) -> pd.DataFrame:
    out = pd.concat(frames, ignore_index=True)
    out.attrs["group_keys"] = keys
    return out


def gold_usage(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
    """Every gold metric (one block of rows per metric), from one pass over the Fuzhou hands."""
    frames = [fn(ds, by) for fn in COMPUTE.values()]
    keys: list[str] = []
    for f in frames:
        keys += [k for k in f.attrs.get("group_keys", []) if k not in keys]
    return _concat(frames, keys)


COMPUTE = {
    "gold_held_share": gold_held_share,
    "gold_points": gold_points,
    "gold_wild_share": gold_wild_share,
    "gold_discard_win_rate": gold_discard_win_rate,
    "start_gold_win_rate": start_gold_win_rate,
    "gold_pattern_rate": gold_pattern_rate,
}

# the metrics that read the per-seat gold columns (gold_pattern_rate needs only the base tables)
READS_GOLD_ROWS = ("gold_held_share", "gold_points", "gold_wild_share", "gold_discard_win_rate",
                   "start_gold_win_rate")



def prepare(ds: DatasetLike, progress: Callable[[int], None] | None = None, jobs: int = 1) -> None:
    """Build (and cache) the gold counters now, reporting Fuzhou hands with a gold done to
    ``progress``; ``jobs`` worker processes examine the winners' shapes (same counters)."""
    from mjstats.rulesets.fuzhou.gold_counts import gold_counts

    gold_counts(ds, progress, jobs)


# what mjstats.stats asks of a ruleset's stats part: the metrics that need the slow scan first
# (every gold metric reads the gold counters), the scan itself, its progress phase (id, label,
# unit) and the public functions it re-exports
READS = tuple(COMPUTE)
COUNTED = ("gold",)  # registry families computed from per-part counters (gold_counts), not base tables
PROGRESS = ("gold", "stats: reading gold use", "Fuzhou hands")
PUBLIC = ("gold_usage",)
