"""Flat statistics: every shared metric's additive counters per group, summed part by part.

The dataset is scanned part file by part file (the base scan of ``tables``); each part's
seat rows are reduced at once to counters per distinct combination of every group key
(player, seat, dealer, style, wind, ruleset, period, profile, streak), and the part's rows
are dropped. Partial counters are summed every few parts and at the end, so what is kept
grows with the number of groups, never with the number of hands. A metric grouped ``by`` any
keys sums these counters further: sums of 0/1 flags, of values and of their squares are
additive, so the result is the one a pass over every seat row gives, digit for digit
(the values summed are whole numbers: fan totals, scores, turns).

Kept per dataset version (:class:`GroupCounts`):

- ``seats``: per group, seat-hands and their counters (wins, self-draws, deal-ins, draws,
  calls) and, per mean metric, the count, sum and sum of squares of its values;
- ``fans``: per group and recorded fan, the wins listing it and its summed count;
- ``totals``: per group and recorded fan total, the wins with that total;
- ``pairs``: per ruleset, the wins and the fan-pair co-occurrence matrix (fan_lift);
- ``tenpai``: per group, seats at exhaustive draws, those waiting and those readable (only
  when asked for: it calls the shanten engine for every such seat).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mjstats.errors import MjstatsError
from mjstats.stats.grouping import GROUP_KEYS
from mjstats.stats.holdings import UnreadableHand
from mjstats.stats.tables import (
    DatasetLike,
    DrawnHands,
    as_dataset,
    derived_cache,
    release_free_memory,
    scan_one_part,
    scan_parts_in_order,
    version_key,
)
from mjstats.store import Dataset

__all__ = ["FanPairs", "GroupCounts", "counter_sums", "group_counts", "hand_counts", "pair_counts",
           "shanten_engines", "typed_keys"]

# the integer group keys and their dtypes in the base tables' seat rows (kept, so that grouped
# output columns have the same dtypes as before)
_INT_KEYS = {"seat": np.int8, "wind": np.int8, "streak": np.int16}
# the mean metrics' counters: PREFIX_n, PREFIX_sum, PREFIX_sq per group (values: _part_counts)
MOMENTS = ("fan", "win_points", "points", "turn")
FLAGS = ("win", "self_draw", "deal_in", "draw", "called")

COMBINE_PARTS = 16  # partial counters summed every this many parts (bounds what is pending)


@dataclass(frozen=True)
class FanPairs:
    """One ruleset's fan co-occurrence: wins, and per pair of fan names (sorted) the wins
    listing both (the diagonal: the wins listing the fan)."""

    wins: int
    names: tuple[str, ...]
    both: np.ndarray  # int64 (len(names), len(names))


@dataclass(frozen=True)
class GroupCounts:
    """The additive counters of one dataset version (see module doc)."""

    seats: pd.DataFrame
    fans: pd.DataFrame
    totals: pd.DataFrame
    pairs: dict[str, FanPairs]
    tenpai: pd.DataFrame | None = None


@dataclass(frozen=True)
class _Partial:
    """One part's (or several parts') counters, group keys as plain values."""

    seats: pd.DataFrame
    fans: pd.DataFrame
    totals: pd.DataFrame
    pairs: dict[str, tuple[int, dict[str, int], np.ndarray]]
    tenpai: pd.DataFrame | None


def group_counts(ds: DatasetLike, progress: Callable[[int], None] | None = None,
                 tenpai: bool = False) -> GroupCounts:
    """The counters of a dataset's live version (built once per version, then cached);
    ``tenpai`` adds the counters at exhaustive draws (a pass that replays the shanten
    engine); ``progress`` is called with the hands scanned so far."""
    dataset = as_dataset(ds)
    key = version_key(dataset)
    cache = derived_cache("group_counts")
    counts = cache.get(key)
    if counts is None or (tenpai and counts.tenpai is None):  # type: ignore[union-attr]
        counts = _build(dataset, progress, tenpai)
        cache.clear()  # one dataset version at a time
        cache[key] = counts
    return counts  # type: ignore[return-value]


def hand_counts(counts: GroupCounts) -> pd.DataFrame:
    """The seat counters of seat 0 only: one row per hand, so per hand key (ruleset, period,
    profile, streak) its ``hands`` and ``draw`` count hands, not seat-hands."""
    seats = counts.seats
    return seats[seats["seat"].to_numpy() == 0].reset_index(drop=True)


def pair_counts(counts: GroupCounts) -> dict[str, FanPairs]:
    """Per ruleset (sorted), its fan co-occurrence counts."""
    return dict(sorted(counts.pairs.items()))


def shanten_engines() -> dict[str, Callable[..., int]]:
    """Shanten functions per ruleset (each ruleset's ``shanten`` part), imported lazily (the
    engines are optional here: a missing one is skipped with a warning)."""
    from mjstats.rulesets import recorded

    engines: dict[str, Callable[..., int]] = {}
    for ruleset in recorded():
        if ruleset.shanten is None:
            continue
        try:
            engines[ruleset.name] = ruleset.load(ruleset.shanten)
        except ImportError as exc:
            warnings.warn(
                f"tenpai_at_draw: {ruleset.title} shanten unavailable ({exc}); skipped", stacklevel=4
            )
    return engines


# --- the pass ---------------------------------------------------------------------------------


def _build(ds: Dataset, progress: Callable[[int], None] | None, tenpai: bool) -> GroupCounts:
    engines = shanten_engines() if tenpai else None
    pending_parts: list[_Partial] = []
    summed: _Partial | None = None
    scanned = 0
    for n, partial in scan_parts_in_order(ds, _part_counts, engines):
        scanned += n
        if partial is not None:
            pending_parts.append(partial)
        if len(pending_parts) >= COMBINE_PARTS:
            summed = _combine([*([summed] if summed else []), *pending_parts])
            pending_parts = []
            release_free_memory()  # the scanned parts' buffers, freed in the threads' arenas
        if progress is not None:
            progress(scanned)
    if pending_parts or summed is None:
        summed = _combine([*([summed] if summed else []), *pending_parts])
    release_free_memory()
    return _finished(summed, tenpai)


Columns = dict[str, "np.ndarray | pd.Categorical"]


def _part_counts(ds: Dataset, ruleset: str, period: str, part: str,
                 engines: dict[str, Callable[..., int]] | None) -> tuple[int, _Partial | None]:
    """One part scanned (tables' base scan) and reduced to its counters."""
    n, _hands, seat_frames, fan_frames, _keys, drawn = scan_one_part(ds, ruleset, period, part)
    if n == 0:
        return 0, None
    # the part's columns as scanned (one array each; seat rows at 4 * hand + seat)
    seats: Columns = {name: values[0] for name, values in seat_frames.cols.items()}
    keys = {k: seats[k] for k in GROUP_KEYS}
    win = np.asarray(seats["win"], dtype=bool)
    fan_total = np.asarray(seats["fan_total"], dtype=float)
    points = np.asarray(seats["points"], dtype=float)
    scored = np.asarray(seats["scored"], dtype=bool)
    counters: Columns = {"hands": np.ones(4 * n, np.int64)}
    for flag in (*FLAGS, "deal_ins"):
        counters[flag] = np.asarray(seats[flag]).astype(np.int64)
    # the mean metrics (registry): mean_fan, mean_win_points, net_points, mean_win_turn
    for prefix, values, rows in (
        ("fan", fan_total, win),
        ("win_points", points, win & scored),
        ("points", points, scored),
        ("turn", np.asarray(seats["discards"], dtype=float) + 1.0, win),
    ):
        counted = rows & ~np.isnan(values)
        x = np.where(counted, values, 0.0)
        counters[f"{prefix}_n"] = counted.astype(np.int64)
        counters[f"{prefix}_sum"] = x
        counters[f"{prefix}_sq"] = x * x
    seat_sums = counter_sums({**keys, **counters}, list(GROUP_KEYS))

    has_total = win & ~np.isnan(fan_total)
    totals = counter_sums({**_rows(keys, has_total), "fan_total": fan_total[has_total].astype(np.int64),
                    "wins": np.ones(int(has_total.sum()), np.int64)}, [*GROUP_KEYS, "fan_total"])

    fans = {name: values[0] for name, values in fan_frames.cols.items()}
    fan_sums, pairs = _fan_counts(ruleset, keys, win, fans, n)
    tenpai = None if engines is None else _tenpai_counts(keys, drawn, engines)
    return n, _Partial(seat_sums, fan_sums, totals, pairs, tenpai)


def _rows(columns: Columns, rows: np.ndarray) -> Columns:
    """Some rows (a mask or positions) of every column."""
    return {name: values[rows] for name, values in columns.items()}


def _fan_counts(ruleset: str, keys: Columns, win: np.ndarray, fans: Columns,
                n: int) -> tuple[pd.DataFrame, dict[str, tuple[int, dict[str, int], np.ndarray]]]:
    """Per group and fan: wins listing it and its summed count; the part's fan pairs."""
    from mjstats.stats.fans import _pair_counts, _per_hand_fan

    n_wins = int(win.sum())
    if not fans or len(fans["slot"]) == 0:
        nothing = np.zeros(0, np.int64)
        empty = {**_rows(keys, nothing), "fan": np.zeros(0, dtype=object), "has": nothing, "count": nothing}
        return counter_sums(empty, [*GROUP_KEYS, "fan"]), {ruleset: (n_wins, {}, np.zeros((0, 0), np.int64))}
    slot = np.asarray(fans["slot"], dtype=np.int64)
    name = fans["name"]
    code = np.asarray(name.codes, dtype=np.int64)
    names = np.asarray(name.categories, dtype=object)
    known = slot >= 0  # a fan row without a winner belongs to no win
    won = np.zeros(len(slot), dtype=bool)
    won[known] = win[slot[known]]
    # per (win, fan): listed once, counts summed (a win can list a fan twice)
    hand, fan, count = _per_hand_fan(slot[won], code[won], np.asarray(fans["count"])[won], len(names))
    fan_sums = counter_sums({
        **_rows(keys, hand),
        "fan": names[fan] if len(fan) else np.zeros(0, dtype=object),
        "has": np.ones(len(hand), np.int64),
        "count": count.astype(np.int64),
    }, [*GROUP_KEYS, "fan"])
    # the wins x fans 0/1 matrix's Gram matrix (fan_lift)
    row_of = np.full(4 * n, -1, dtype=np.int64)
    row_of[np.flatnonzero(win)] = np.arange(n_wins)
    rows = np.where(known, row_of[np.maximum(slot, 0)], -1)
    keep = (rows >= 0) & (code >= 0)
    if not keep.any():
        return fan_sums, {ruleset: (n_wins, {}, np.zeros((0, 0), np.int64))}
    used, col = np.unique(code[keep], return_inverse=True)
    both = _pair_counts(rows[keep], col, n_wins, len(used))
    index = {str(names[c]): i for i, c in enumerate(used)}
    return fan_sums, {ruleset: (n_wins, index, both)}


def _tenpai_counts(keys: Columns, drawn: list[DrawnHands],
                   engines: dict[str, Callable[..., int]]) -> pd.DataFrame:
    """Per group: seats at exhaustive draws (of a ruleset with a shanten engine), those waiting
    and those whose hand could be read back (registry: tenpai_at_draw)."""
    slots: list[np.ndarray] = []
    tenpai: list[int] = []
    readable: list[int] = []
    kinds = np.arange(34)
    for part in drawn:
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
        slots.append(np.repeat(part.hand_ids, 4) * 4 + np.tile(np.arange(4), len(part.hand_ids)))
    # the drawn hands' seats are exactly the seat rows marked ``draw`` (both come from the hands'
    # outcome), so every flag has its seat row
    at = np.concatenate(slots).astype(np.int64) if slots else np.zeros(0, np.int64)
    flags = np.asarray(tenpai, np.int64)
    ok = np.asarray(readable, np.int64)
    return counter_sums({
        **_rows(keys, at),
        "hands": np.ones(len(at), np.int64),
        "tenpai": flags,
        "readable": ok,
        "unreadable": 1 - ok,
    }, list(GROUP_KEYS))


# --- summing partial counters -----------------------------------------------------------------


def _key_codes(values: np.ndarray | pd.Categorical) -> tuple[np.ndarray, int]:
    """Per row, a number for its value (nulls are a value too), and how many numbers there are."""
    if isinstance(values, pd.Categorical):
        return values.codes.astype(np.int64) + 1, len(values.categories) + 1
    if values.dtype == object:
        codes, uniques = pd.factorize(values, use_na_sentinel=False)
        return codes.astype(np.int64), len(uniques)
    uniques, codes = np.unique(values, return_inverse=True)
    return codes.reshape(-1).astype(np.int64), len(uniques)


def counter_sums(columns: Columns, keys: list[str]) -> pd.DataFrame:
    """Counters summed per distinct key combination (nulls are a key value here: a metric
    grouped by other keys still counts those rows); keys come back as plain values.

    Keys are numbered and combined into one integer per row, so the sums are one
    ``bincount`` per counter (several times faster than a pandas group-by on nine keys). The
    counters are whole numbers or sums of whole numbers, so the float sums are exact.
    """
    codes = []
    sizes = []
    for key in keys:
        code, size = _key_codes(columns[key])
        codes.append(code)
        sizes.append(max(size, 1))
    n = len(columns[keys[0]])
    if math.prod(sizes) < 2**62:
        combined = np.zeros(n, dtype=np.int64)
        for code, size in zip(codes, sizes, strict=True):
            combined = combined * size + code
        _, first, inverse = np.unique(combined, return_index=True, return_inverse=True)
    else:  # too many distinct values to number the combinations: compare rows of codes
        _, first, inverse = np.unique(np.stack(codes, axis=1), axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    out: dict[str, object] = {}
    for key in keys:
        values = columns[key][first]
        out[key] = np.asarray(values, dtype=object) if isinstance(values, pd.Categorical) else values
    for name, values in columns.items():
        if name in keys:
            continue
        values = np.asarray(values)
        total = np.bincount(inverse, weights=values.astype(np.float64), minlength=len(first))
        out[name] = total.astype(np.int64) if values.dtype.kind in "iub" else total
    return pd.DataFrame(out)


def _combine(partials: list[_Partial]) -> _Partial:
    """Several parts' counters as one."""
    def summed(frames: list[pd.DataFrame], keys: list[str]) -> pd.DataFrame:
        frames = [f for f in frames if len(f)] or frames[:1]
        if not frames:
            return pd.DataFrame()
        joined = pd.concat(frames, ignore_index=True)
        return counter_sums({name: joined[name].to_numpy() for name in joined.columns}, keys)

    pairs: dict[str, tuple[int, dict[str, int], np.ndarray]] = {}
    for partial in partials:
        for ruleset, (wins, index, both) in partial.pairs.items():
            pairs[ruleset] = _added_pairs(pairs.get(ruleset), wins, index, both)
    tenpai = [p.tenpai for p in partials if p.tenpai is not None]
    return _Partial(
        seats=summed([p.seats for p in partials], list(GROUP_KEYS)),
        fans=summed([p.fans for p in partials], [*GROUP_KEYS, "fan"]),
        totals=summed([p.totals for p in partials], [*GROUP_KEYS, "fan_total"]),
        pairs=pairs,
        tenpai=summed(tenpai, list(GROUP_KEYS)) if tenpai else None,
    )


def _added_pairs(into: tuple[int, dict[str, int], np.ndarray] | None, wins: int, index: dict[str, int],
                 both: np.ndarray) -> tuple[int, dict[str, int], np.ndarray]:
    """A ruleset's pair counts plus one part's (fan names mapped onto one growing index)."""
    if into is None:
        return wins, dict(index), both.copy()
    total_wins, names, matrix = into
    for name in index:
        if name not in names:
            names[name] = len(names)
    if len(names) > len(matrix):
        grown = np.zeros((len(names), len(names)), np.int64)
        grown[: len(matrix), : len(matrix)] = matrix
        matrix = grown
    at = np.array([names[name] for name in index], dtype=np.int64)
    if len(at):
        matrix[np.ix_(at, at)] += both
    return total_wins + wins, names, matrix


def _finished(partial: _Partial, tenpai: bool) -> GroupCounts:
    """The summed counters with keys as in the base tables: strings as categoricals with sorted
    categories, integer keys in their own dtypes (grouped output sorts and types as before)."""
    pairs = {}
    for ruleset, (wins, index, matrix) in partial.pairs.items():
        names = sorted(index)
        order = np.array([index[name] for name in names], dtype=np.int64)
        pairs[ruleset] = FanPairs(wins, tuple(names), matrix[np.ix_(order, order)] if len(order)
                                  else np.zeros((0, 0), np.int64))
    tenpai_frame = None
    if tenpai:
        tenpai_frame = typed_keys(partial.tenpai if partial.tenpai is not None
                                  else _empty_counts(("hands", "tenpai", "readable", "unreadable")))
    return GroupCounts(
        seats=typed_keys(partial.seats if len(partial.seats.columns) else _empty_counts(_SEAT_COUNTERS)),
        fans=typed_keys(partial.fans if len(partial.fans.columns)
                        else _empty_counts(("has", "count"), fan=True), categorical=("fan",)),
        totals=typed_keys(partial.totals if len(partial.totals.columns)
                          else _empty_counts(("wins",), total=True)),
        pairs=pairs,
        tenpai=tenpai_frame,
    )


_SEAT_COUNTERS = ("hands", *FLAGS, "deal_ins",
                  *(f"{p}_{s}" for p in MOMENTS for s in ("n", "sum", "sq")))  # fmt: skip


def _empty_counts(counters: tuple[str, ...], fan: bool = False, total: bool = False) -> pd.DataFrame:
    columns: dict[str, object] = {k: pd.Series([], dtype=object) for k in GROUP_KEYS}
    if fan:
        columns["fan"] = pd.Series([], dtype=object)
    if total:
        columns["fan_total"] = np.zeros(0, np.int64)
    for name in counters:
        columns[name] = np.zeros(0, np.float64 if name.endswith(("_sum", "_sq")) else np.int64)
    return pd.DataFrame(columns)


def typed_keys(frame: pd.DataFrame, categorical: tuple[str, ...] = ()) -> pd.DataFrame:
    """Summed counters with their keys typed as in the base tables' seat rows: strings as
    categoricals with sorted categories (``categorical`` names more), integer keys in their own
    dtypes, so that metrics grouped from counters sort and type as from seat rows."""
    out = frame.copy()
    for key in (*GROUP_KEYS, *categorical):
        if key in _INT_KEYS:
            out[key] = out[key].astype(_INT_KEYS[key])
        elif key == "dealer":
            out[key] = pd.Categorical(out[key], categories=pd.Index(["dealer", "non-dealer"], dtype="str"))
        else:
            values = out[key]
            seen = sorted({v for v in values if isinstance(v, str)})
            out[key] = pd.Categorical(values, categories=pd.Index(seen, dtype="str"))
    return out.reset_index(drop=True)
