"""The gold metrics' additive counters per group, summed part file by part file.

Each Fuzhou part is scanned twice over its own rows only: the base scan (group keys, wins,
points of its seat rows: ``tables.scan_one_part``) and the gold scan (golds at the start and at
the win, gold discards, the winners' shapes: ``gold._part_gold_rows``). Their seat rows line up
(row = hand position * 4 + seat in the part), and are reduced at once to counters per group;
the part's rows are then dropped. What is kept grows with the groups, never with the hands, and
every gold metric is the one a pass over every gold seat row gives (whole numbers summed).

Frames (keys: the group keys plus the named ones):

- ``seats`` (+ discarded_gold, start_golds): per Fuzhou seat-hand with a gold, hands, win,
  self_draw, gold_discards;
- ``wins`` (+ golds_held): per such seat-hand won, wins, the scored points' count, sum and
  sum of squares, and wild / golds / natural / unresolved (gold_wild_share);
- ``patterns``: per Fuzhou win (gold or not), wins and a hit count per gold pattern.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from mjstats.stats.grouping import GROUP_KEYS
from mjstats.stats.holdings import EVENT_FIELDS
from mjstats.stats.part_sums import Columns, Layout, summed_parts, table_sums
from mjstats.stats.parts import DatasetLike, as_dataset, read_part
from mjstats.stats.tables import cached_per_version, scan_one_part
from mjstats.store import Dataset

__all__ = ["GoldCounts", "gold_counts"]

GOLD_PATTERNS = ("三金倒", "金雀", "金龙", "抢金")
_WIN_KIND_PATTERN = {"three_golds": "三金倒", "rob_gold": "抢金"}

_I = np.int64
_F = np.float64
LAYOUT: Layout = {
    "seats": (("discarded_gold", "start_golds"),
              {"discarded_gold": np.bool_, "start_golds": _I, "hands": _I, "win": _I, "self_draw": _I,
               "gold_discards": _I}),
    "wins": (("golds_held",),
             {"golds_held": _I, "wins": _I, "points_n": _I, "points_sum": _F, "points_sq": _F, "wild": _I,
              "golds": _I, "natural": _I, "unresolved": _I}),
    "patterns": ((), {"wins": _I, **{f"hit{i}": _I for i in range(len(GOLD_PATTERNS))}}),
}  # fmt: skip

GoldCounts = dict[str, pd.DataFrame]


def gold_counts(ds: DatasetLike, progress: Callable[[int], None] | None = None, jobs: int = 1) -> GoldCounts:
    """The gold counters of a dataset's live version (built once per version, then cached);
    ``progress`` gets the Fuzhou hands with a gold scanned so far; ``jobs`` worker processes
    examine the winners' shapes (the counters do not depend on it)."""
    dataset = as_dataset(ds)
    return cached_per_version("gold_counts", dataset, lambda: _build(dataset, progress, jobs))


def _build(ds: Dataset, progress: Callable[[int], None] | None, jobs: int) -> GoldCounts:
    if jobs > 1:
        from mjstats.rulesets.fuzhou.gold import _part_rows_counted
        from mjstats.workers import ordered_map

        # the parts' events are read here and their winners examined on ``jobs`` processes, in
        # part order; each part's seat keys are scanned here as its gold rows come back
        order: deque[tuple[str, str, str]] = deque()

        def items() -> Iterator[tuple]:
            for where in ds.parts():
                if where[0] == "fuzhou":
                    order.append(where)
                    yield _gold_part(ds, *where)

        shapes = ordered_map(_part_rows_counted, items(), jobs)
        partials: Iterator = (_part_counts(ds, *order.popleft(), count, rows) for count, rows in shapes)
    else:
        # one part at a time: examining the shapes holds the GIL, so scan threads would add
        # little speed and several parts' events to the peak
        partials = (p for p in (_scanned_part(ds, *where) for where in ds.parts()) if p is not None)
    return summed_parts(partials, LAYOUT, progress)


def _gold_part(ds: Dataset, ruleset: str, period: str, part: str) -> tuple | None:
    """One Fuzhou part's hands with a gold (local positions), their columns, events, n_events."""
    h = read_part(ds, "hands", ruleset, period, part, ("n_events", "outcome", "gold"))
    mask = pc.is_valid(h.column("gold")).to_numpy(zero_copy_only=False)
    n_events = h.column("n_events").to_numpy(zero_copy_only=False).astype(np.int64)
    e = read_part(ds, "events", ruleset, period, part, EVENT_FIELDS)
    e = e.filter(pa.array(np.repeat(mask, n_events)))
    return np.flatnonzero(mask), h.filter(pa.array(mask)), e, n_events[mask]


def _scanned_part(ds: Dataset, ruleset: str, period: str, part: str) -> tuple[int, dict | None] | None:
    """One part's counters, its gold rows examined here (a scan thread's task)."""
    if ruleset != "fuzhou":
        return None
    from mjstats.rulesets.fuzhou.gold import _part_gold_rows

    local, h, e, n_events = _gold_part(ds, ruleset, period, part)
    return _part_counts(ds, ruleset, period, part, len(local), _part_gold_rows(local, h, e, n_events))


def _part_counts(ds: Dataset, ruleset: str, period: str, part: str,
                 gold_hands: int, rows: dict[str, np.ndarray]) -> tuple[int, dict | None]:
    """One Fuzhou part's counters from its base seat rows and its gold rows (local hand ids);
    ``gold_hands`` (its hands with a gold) is passed on for progress."""
    n, hand_frames, seat_frames, _fans, _keys, _drawn = scan_one_part(ds, ruleset, period, part)
    if n == 0:
        return gold_hands, None
    seats: Columns = {name: values[0] for name, values in seat_frames.cols.items()}
    hands: Columns = {name: values[0] for name, values in hand_frames.cols.items()}
    keys = {k: seats[k] for k in GROUP_KEYS}
    win = np.asarray(seats["win"], dtype=bool)
    points = np.asarray(seats["points"], dtype=float)
    scored = np.asarray(seats["scored"], dtype=bool)
    win_kind = np.asarray(hands["win_kind"].astype(object))  # the hand's (first) win's kind
    pattern = np.asarray(hands["pattern"].astype(object))

    # every Fuzhou win: the gold patterns (registry: gold_pattern_rate)
    won = np.flatnonzero(win)
    kind_of, pattern_of = win_kind[won // 4], pattern[won // 4]
    hits: Columns = {}
    for i, name in enumerate(GOLD_PATTERNS):
        hit = pattern_of == name
        for wk, label in _WIN_KIND_PATTERN.items():
            if label == name:
                hit = hit | (kind_of == wk)
        hits[f"hit{i}"] = hit.astype(np.int64)
    out = {"patterns": table_sums({**_rows(keys, won), "wins": np.ones(len(won), np.int64), **hits})}

    # the seat-hands with a gold (gold._part_gold_rows: readable hands, rows at local 4h + s)
    at = rows["hand_id"].astype(np.int64) * 4 + rows["seat"].astype(np.int64)
    if len(at):
        three_golds = win_kind[at // 4] == "three_golds"  # any shape: neither wild nor natural
        natural = np.where(three_golds, 0, rows["natural"]).astype(np.int64)
        wild = np.where(three_golds, 0, rows["wild"]).astype(np.int64)
        resolved = np.where(three_golds, 0, rows["resolved"]).astype(bool)
        held = rows["golds_held"].astype(np.int64)
        out["seats"] = table_sums({
            **_rows(keys, at),
            "discarded_gold": rows["gold_discards"] > 0,
            "start_golds": rows["start_golds"].astype(np.int64),
            "hands": np.ones(len(at), np.int64),
            "win": win[at].astype(np.int64),
            "self_draw": np.asarray(seats["self_draw"], dtype=bool)[at].astype(np.int64),
            "gold_discards": rows["gold_discards"].astype(np.int64),
        }, ("discarded_gold", "start_golds"))
        w = win[at]
        wat = at[w]
        counted = scored[wat] & ~np.isnan(points[wat])
        x = np.where(counted, points[wat], 0.0)
        res = resolved[w]
        out["wins"] = table_sums({
            **_rows(keys, wat),
            "golds_held": held[w],
            "wins": np.ones(len(wat), np.int64),
            "points_n": counted.astype(np.int64),
            "points_sum": x,
            "points_sq": x * x,
            "wild": np.where(res, wild[w], 0),
            "golds": np.where(res, held[w], 0),
            "natural": np.where(res, natural[w], 0),
            "unresolved": (~res).astype(np.int64),
        }, ("golds_held",))
    return gold_hands, out


def _rows(columns: Columns, rows: np.ndarray) -> Columns:
    return {name: values[rows] for name, values in columns.items()}
