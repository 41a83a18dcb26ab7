"""Sichuan 血战到底 metrics: the void-suit choice and its outcome, 花猪 and 查叫 frequency, kong
money (刮风下雨), the order of winning and its worth, the multiplier distribution and cap hits.

One pass over the Sichuan part files (cached per dataset version, like the base tables) turns
events, wins and the payment ledger into small per-seat-hand counters aligned with the base
tables' seat rows; each metric then sums them per group and divides last (grouping.rate_rows,
mean_rows). Definitions: the registry entries in :mod:`mjstats.rulesets.sichuan.metrics`
(docs/metrics.md, family ``sichuan``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from mjstats.errors import DatasetError, MjstatsError
from mjstats.stats.audited import HandLookup
from mjstats.stats.grouping import mean_rows, mean_rows_from_sums, normalize_by, rate_rows
from mjstats.stats.parts import int_column, kind_codes, read_part
from mjstats.stats.tables import (
    SCAN_THREADS,
    DatasetLike,
    as_dataset,
    base_tables,
    cached_per_version,
    key_strings,
)
from mjstats.store import Dataset

__all__ = [
    "COMPUTE",
    "COUNTED",
    "PROGRESS",
    "PUBLIC",
    "READS",
    "SichuanSeats",
    "prepare",
    "sichuan_metrics",
    "sichuan_seat_table",
    "sichuan_seats",
]

SICHUAN = ("sichuan",)
VOID_CHOICES = ("fewest", "middle", "most")  # the declared suit's rank among the held suits
_UNCAPPED = -1  # the profile has no cap
_UNKNOWN_CAP = -2  # the profile is not a built-in one and cannot be loaded


@dataclass(frozen=True)
class SichuanSeats:
    """Per seat row of the base tables (row = hand id * 4 + seat), what the Sichuan metrics
    count. Rows of other rulesets have ``sichuan`` False and neutral values."""

    sichuan: np.ndarray  # bool
    void_choice: np.ndarray  # int8: index into VOID_CHOICES, -1 no declaration or no deal
    ledger: np.ndarray  # bool: the hand's payments are itemised (reasons recorded)
    flower_pig: np.ndarray  # bool: paid 查花猪
    cha_jiao_paid: np.ndarray  # bool: paid 查大叫 (not ready at the wall's end)
    cha_jiao_received: np.ndarray  # bool: was paid 查大叫 (ready at the wall's end)
    kong_net: np.ndarray  # int64: net of the `kong` ledger rows (kong money, 呼叫转移, 退税)
    win_order: np.ndarray  # int8: 1, 2, 3 = first, second, third win of the hand; 0 no win
    win_money: np.ndarray  # int64: what the seat received for its own win
    win_fan: np.ndarray  # float: the win's recorded 0-based fan (NaN: no win or none recorded)
    cap: np.ndarray  # int16: the hand's profile cap_fan, -1 uncapped, -2 unknown profile


def _cap_of(profile: str, known: dict[str, int]) -> int:
    """The profile's fan cap (reference sichuan.md §4.7), -1 uncapped, -2 when not loadable."""
    if profile not in known:
        from mjstats.rulesets.sichuan.profiles import BUILTIN_PROFILES, load_profile

        if profile in BUILTIN_PROFILES:
            cap = load_profile(profile).cap
            known[profile] = _UNCAPPED if cap is None else cap
        else:
            try:
                cap = load_profile(profile).cap
                known[profile] = _UNCAPPED if cap is None else cap
            except (MjstatsError, OSError, ValueError):
                known[profile] = _UNKNOWN_CAP
    return known[profile]


def _suit_counts(slots: np.ndarray, tiles: np.ndarray, size: int) -> np.ndarray:
    """Tiles per (slot, suit) for suited tiles (codes 0-26: 万 条 筒), shape (size, 3)."""
    ok = (tiles >= 0) & (tiles < 27) & (slots >= 0)
    flat = np.bincount(slots[ok] * 3 + tiles[ok] // 9, minlength=size * 3)
    return flat.reshape(size, 3).astype(np.int64)


def _list_rows(events: pa.Table, mask: np.ndarray, slot: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ``tiles`` lists of the masked event rows, flattened, with each tile's slot."""
    sub = events.filter(pa.array(mask)).column("tiles").combine_chunks()
    if len(sub) == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    parent = pc.list_parent_indices(sub).to_numpy(zero_copy_only=False).astype(np.int64)
    tiles = pc.fill_null(pc.list_flatten(sub), -1).to_numpy(zero_copy_only=False).astype(np.int64)
    return slot[mask][parent], tiles


def _void_choices(events: pa.Table, n_events: np.ndarray, n: int) -> np.ndarray:
    """Per local slot (hand * 4 + seat), the declared void suit's rank among the suits of the
    hand the seat held when declaring: the deal, after 换三张 (reference sichuan.md §2.2-2.3)."""
    hidx = np.repeat(np.arange(n), n_events)
    kind = kind_codes(events.column("kind"), ("deal", "exchange", "void"))
    seat = int_column(events, "seat", -1)
    slot = np.where((seat >= 0) & (seat < 4), hidx * 4 + seat, -1)
    held = _suit_counts(*_list_rows(events, kind == 0, slot), 4 * n)
    dealt = np.bincount(slot[(kind == 0) & (slot >= 0)], minlength=4 * n) > 0
    swap = (kind == 1) & (slot >= 0)
    if swap.any():  # a seat gives its three tiles and receives those the seat `from_seat` gave
        given = _suit_counts(*_list_rows(events, swap, slot), 4 * n)
        source = np.full(4 * n, -1, dtype=np.int64)
        giver = int_column(events, "from_seat", -1)[swap]
        ok = (giver >= 0) & (giver < 4)
        source[slot[swap][ok]] = hidx[swap][ok] * 4 + giver[ok]
        has = source >= 0
        held = held - given
        held[has] += given[source[has]]
    void_suit = np.full(4 * n, -1, dtype=np.int64)
    declared = (kind == 2) & (slot >= 0)
    tile = int_column(events, "tile", -1)[declared]
    ok = (tile >= 0) & (tile < 27)
    void_suit[slot[declared][ok]] = tile[ok] // 9
    choice = np.full(4 * n, -1, dtype=np.int8)
    known = (void_suit >= 0) & dealt
    mine = held[known, void_suit[known]]
    fewest = mine == held[known].min(axis=1)
    most = mine == held[known].max(axis=1)
    choice[known] = np.where(fewest, 0, np.where(most, 2, 1))
    return choice


_WIN_COLUMNS = ("match_id", "hand_no", "win_no", "winner", "fan_total")
_PAYMENT_COLUMNS = ("match_id", "hand_no", "seat", "score", "reason", "win_no")


def _ledger_counts(p: pa.Table, hand: np.ndarray, own_win: np.ndarray, n: int) -> dict[str, np.ndarray]:
    """Per local slot, what the ledger rows of one part say (rows located at local ``hand``)."""
    reason = kind_codes(p.column("reason"), ("win", "kong", "settlement", "penalty"))
    seat = int_column(p, "seat", -1)
    score = int_column(p, "score", 0)
    win_no = int_column(p, "win_no", -1)
    ok = (seat >= 0) & (seat < 4)
    slot = hand[ok] * 4 + seat[ok]
    reason, score, win_no = reason[ok], score[ok], win_no[ok]

    def flag(mask: np.ndarray) -> np.ndarray:
        return np.bincount(slot[mask], minlength=4 * n) > 0

    def total(mask: np.ndarray) -> np.ndarray:
        return np.bincount(slot[mask], weights=score[mask], minlength=4 * n).astype(np.int64)

    return {
        # reference sichuan.md §4.6: 查花猪 rows are `penalty`, 查大叫 rows `settlement`
        "flower_pig": flag((reason == 3) & (score < 0)),
        "cha_jiao_paid": flag((reason == 2) & (score < 0)),
        "cha_jiao_received": flag((reason == 2) & (score > 0)),
        # §4.4-4.6: kong money, 呼叫转移 and 退税 are `kong` rows
        "kong_net": total(reason == 1),
        # the seat's own win: its `win` rows of that win_no (a winner pays for no later win)
        "win_money": total((reason == 0) & (win_no >= 0) & (win_no == own_win[slot])),
    }


_HAND_COLUMNS = ("match_id", "hand_no", "profile", "has_scores", "n_events")
_EVENT_COLUMNS = ("kind", "seat", "tile", "tiles", "from_seat")


@dataclass(frozen=True)
class _Part:
    """One part's counters per local slot (hand position * 4 + seat), before placing."""

    keys: pa.Array  # match_id + hand_no per hand, to find the hands' ids
    profile: pa.DictionaryArray  # per hand
    counters: dict[str, np.ndarray]


def _scan_part(ds: Dataset, ruleset: str, period: str, part: str) -> _Part | None:
    h = read_part(ds, "hands", ruleset, period, part, _HAND_COLUMNS)
    n = h.num_rows
    if n == 0:
        return None
    local = key_strings(h)
    counters: dict[str, np.ndarray] = {}
    n_events = int_column(h, "n_events", 0)
    e = read_part(ds, "events", ruleset, period, part, _EVENT_COLUMNS)
    if int(n_events.sum()) != e.num_rows:
        raise DatasetError(f"{ds.root}: {part}: events do not line up with hands.n_events")
    counters["void_choice"] = _void_choices(e, n_events, n)

    w = read_part(ds, "wins", ruleset, period, part, _WIN_COLUMNS)
    own_win = np.full(4 * n, -1, dtype=np.int64)
    counters["win_order"] = np.zeros(4 * n, np.int8)
    counters["win_fan"] = np.full(4 * n, np.nan)
    if w.num_rows:
        wh = pc.index_in(key_strings(w), value_set=local).to_numpy(zero_copy_only=False).astype(np.int64)
        win_no = int_column(w, "win_no", 0)
        winner = int_column(w, "winner", -1)
        fan = pc.cast(w.column("fan_total"), pa.float64()).to_numpy(zero_copy_only=False)
        order = np.lexsort((win_no, wh))
        wh, win_no, winner, fan = wh[order], win_no[order], winner[order], fan[order]
        rank = np.arange(len(wh)) - np.searchsorted(wh, wh)  # 0-based place among the hand's wins
        ok = (winner >= 0) & (winner < 4)
        slot = wh[ok] * 4 + winner[ok]
        first = np.unique(slot, return_index=True)[1]  # a seat goes out once (reference §2.10)
        slot, rank, win_no, fan = slot[first], rank[ok][first], win_no[ok][first], fan[ok][first]
        counters["win_order"][slot] = np.minimum(rank + 1, 127)
        counters["win_fan"][slot] = fan
        own_win[slot] = win_no

    p = read_part(ds, "payments", ruleset, period, part, _PAYMENT_COLUMNS)
    itemised = pc.fill_null(h.column("has_scores"), False).to_numpy(zero_copy_only=False).astype(bool)
    if p.num_rows:
        ph = pc.index_in(key_strings(p), value_set=local).to_numpy(zero_copy_only=False).astype(np.int64)
        unitemised = pc.is_null(p.column("reason")).to_numpy(zero_copy_only=False)
        itemised[np.unique(ph[unitemised])] = False  # net scores only: no ledger to read
        counters.update(_ledger_counts(p, ph, own_win, n))
    counters["ledger"] = np.repeat(itemised, 4)
    profile = pc.dictionary_encode(pc.fill_null(h.column("profile"), "").combine_chunks())
    return _Part(local, profile, counters)


def _scan(ds: Dataset, progress: Callable[[int], None] | None = None) -> SichuanSeats:
    base = base_tables(ds)
    size = 4 * len(base.hands)
    out = {
        "sichuan": np.zeros(size, bool), "void_choice": np.full(size, -1, np.int8),
        "ledger": np.zeros(size, bool), "flower_pig": np.zeros(size, bool),
        "cha_jiao_paid": np.zeros(size, bool), "cha_jiao_received": np.zeros(size, bool),
        "kong_net": np.zeros(size, np.int64), "win_order": np.zeros(size, np.int8),
        "win_money": np.zeros(size, np.int64), "win_fan": np.full(size, np.nan),
        "cap": np.full(size, _UNKNOWN_CAP, np.int16),
    }  # fmt: skip
    lookup = HandLookup(key_strings(base.keys))
    caps: dict[str, int] = {}
    todo = [p for p in ds.parts() if p[0] == "sichuan"]
    done = 0
    with ThreadPoolExecutor(max_workers=SCAN_THREADS) as pool:  # parquet decoding releases the GIL
        pending: deque = deque()
        while todo or pending:
            while todo and len(pending) < 2 * SCAN_THREADS:  # a few parts in flight (flat memory)
                pending.append(pool.submit(_scan_part, ds, *todo.pop(0)))
            scanned = pending.popleft().result()
            if scanned is None:
                continue
            hand_id = lookup.positions(scanned.keys)
            if (hand_id < 0).any():
                raise DatasetError(f"{ds.root}: Sichuan hands missing from the base tables")
            at = (hand_id[:, None] * 4 + np.arange(4)).ravel()  # global seat rows of the local slots
            out["sichuan"][at] = True
            for name, values in scanned.counters.items():
                out[name][at] = values
            lut = np.array([_cap_of(str(v), caps) for v in scanned.profile.dictionary.to_pylist()], np.int16)
            out["cap"][at] = np.repeat(lut[scanned.profile.indices.to_numpy(zero_copy_only=False)], 4)
            done += len(hand_id)
            if progress is not None:
                progress(done)
    return SichuanSeats(**out)


def sichuan_seats(ds: DatasetLike, progress: Callable[[int], None] | None = None) -> SichuanSeats:
    """The Sichuan counters of a dataset's live version (built once, then cached); ``progress``
    is called with the number of Sichuan hands scanned so far while they are built."""
    dataset = as_dataset(ds)
    return cached_per_version("sichuan_seats", dataset, lambda: _scan(dataset, progress))


def prepare(ds: DatasetLike, progress: Callable[[int], None] | None = None, jobs: int = 1) -> None:
    """Scan (and cache) the Sichuan counters now, reporting Sichuan hands done to ``progress``.
    The scan reads part files on threads; ``jobs`` is not needed (same rows for any value)."""
    from mjstats.rulesets.sichuan.counts import sichuan_counts

    del jobs
    sichuan_counts(ds, progress)


def sichuan_seat_table(ds: DatasetLike) -> pd.DataFrame:
    """The base seat rows of Sichuan hands with the Sichuan counters as columns (cached): one
    row per seat-hand, the per-hand form of what the metrics sum (pass it as ``table``)."""
    dataset = as_dataset(ds)

    def build() -> pd.DataFrame:
        sc = sichuan_seats(dataset)
        mine = sc.sichuan
        frame = base_tables(dataset).seats[mine].reset_index(drop=True)
        return frame.assign(
            void_choice=sc.void_choice[mine], ledger=sc.ledger[mine], flower_pig=sc.flower_pig[mine],
            cha_jiao_paid=sc.cha_jiao_paid[mine], cha_jiao_received=sc.cha_jiao_received[mine],
            kong_net=sc.kong_net[mine], win_order=sc.win_order[mine], win_money=sc.win_money[mine],
            win_fan=sc.win_fan[mine], cap=sc.cap[mine],
        )  # fmt: skip

    return cached_per_version("sichuan_frame", dataset, build)


def _empty(metric: str, keys: list[str]) -> pd.DataFrame:
    out = pd.DataFrame(columns=["metric", *keys, "numerator", "denominator", "value", "ci_low", "ci_high",
                                "hands", "small_sample"])
    out.attrs["group_keys"] = keys
    return out


def _share_rows(frame: pd.DataFrame, metric: str, group: list[str], key: str,
                weight: np.ndarray | None = None) -> pd.DataFrame:
    """Rows per (group, value of ``key``): rows with that value / rows of the group (each row
    counted ``weight`` times: a counter row stands for that many seat-hands)."""
    if frame.empty:
        return _empty(metric, [*group, key])
    one = np.ones(len(frame), np.int64) if weight is None else np.asarray(weight, np.int64)
    every = int(one.sum())
    totals = frame.assign(total=one).groupby(group, observed=True)["total"].sum().reset_index() if group \
        else pd.DataFrame({"total": [every]})
    counts = frame.assign(one=one).groupby([*group, key], observed=True)["one"].sum().reset_index()
    for k in group:
        for table in (totals, counts):
            if isinstance(table[k].dtype, pd.CategoricalDtype):
                table[k] = table[k].astype(object)
    counts = counts.merge(totals, on=group) if group else counts.assign(total=every)
    return rate_rows(counts, metric, (*group, key), "one", "total", "total")


# Each metric reads the summed counters (counts.sichuan_counts: flat in the number of hands);
# given the per-seat ``table`` (sichuan_seat_table) it computes the same rows from it, row by row.


def _counts(ds: DatasetLike) -> dict[str, pd.DataFrame]:
    from mjstats.rulesets.sichuan.counts import sichuan_counts

    return sichuan_counts(ds)


def _named_choices(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows with a void declaration, their choice as its name."""
    frame = frame[frame["void_choice"].to_numpy() >= 0]
    return frame.assign(void_choice=np.asarray(VOID_CHOICES, dtype=object)[frame["void_choice"].to_numpy()])


def void_choice_share(ds: DatasetLike, by: Iterable[str] | str | None = None,
                      table: pd.DataFrame | None = None) -> pd.DataFrame:
    """Share of seat-hands declaring the fewest / middle / most held suit void."""
    frame = _named_choices(_counts(ds)["seats"] if table is None else table)
    weight = None if table is not None else frame["hands"].to_numpy(np.int64)
    return _share_rows(frame, "sc_void_choice_share", list(normalize_by(by)), "void_choice", weight)


def void_choice_win_rate(ds: DatasetLike, by: Iterable[str] | str | None = None,
                         table: pd.DataFrame | None = None) -> pd.DataFrame:
    """Win rate of seat-hands by their void-suit choice, with their mean net points."""
    keys = normalize_by(by)
    frame = _named_choices(_counts(ds)["seats"] if table is None else table)
    if frame.empty:
        return _empty("sc_void_choice_win_rate", [*keys, "void_choice"])
    if table is None:
        points, scored = frame["points_sum"].to_numpy(float), frame["points_n"].to_numpy(np.int64)
    else:
        flags = frame["scored"].to_numpy()
        points, scored = np.where(flags, frame["points"].to_numpy(float), 0.0), flags.astype(np.int64)
    out = rate_rows(frame, "sc_void_choice_win_rate", (*keys, "void_choice"), frame["win"].to_numpy(np.int64),
                    "hands", points=points, scored=scored)
    out["mean_points"] = out["points"] / out["scored"].where(out["scored"] > 0)
    return out.drop(columns=["points", "scored"])


def _ledgered(ds: DatasetLike, table: pd.DataFrame | None) -> pd.DataFrame:
    frame = _counts(ds)["seats"] if table is None else table
    return frame[frame["ledger"].to_numpy()]


def flower_pig_rate(ds: DatasetLike, by: Iterable[str] | str | None = None,
                    table: pd.DataFrame | None = None) -> pd.DataFrame:
    """Seat-hands that paid 查花猪 / seat-hands with an itemised ledger."""
    frame = _ledgered(ds, table)
    if frame.empty:
        return _empty("sc_flower_pig_rate", list(normalize_by(by)))
    return rate_rows(frame, "sc_flower_pig_rate", normalize_by(by), frame["flower_pig"].to_numpy(np.int64),
                     "hands")


def cha_jiao_rate(ds: DatasetLike, by: Iterable[str] | str | None = None,
                  table: pd.DataFrame | None = None) -> pd.DataFrame:
    """Seat-hands that paid 查大叫 / seat-hands with an itemised ledger (``ready_paid``: those
    paid as ready)."""
    frame = _ledgered(ds, table)
    if frame.empty:
        return _empty("sc_cha_jiao_rate", list(normalize_by(by)))
    return rate_rows(frame, "sc_cha_jiao_rate", normalize_by(by), frame["cha_jiao_paid"].to_numpy(np.int64),
                     "hands", ready_paid=frame["cha_jiao_received"].to_numpy(np.int64))


def kong_money(ds: DatasetLike, by: Iterable[str] | str | None = None,
               table: pd.DataFrame | None = None) -> pd.DataFrame:
    """Mean net kong money (刮风下雨 with 呼叫转移 and 退税) per seat-hand with a ledger."""
    frame = _ledgered(ds, table)
    if frame.empty:
        return _empty("sc_kong_money", list(normalize_by(by)))
    if table is None:  # every ledgered seat-hand counts (its kong money is 0 without kong rows)
        return mean_rows_from_sums(frame, "sc_kong_money", normalize_by(by), "kong_sum", "kong_sq",
                                   frame["hands"].to_numpy(np.int64))
    return mean_rows(frame, "sc_kong_money", normalize_by(by), frame["kong_net"].to_numpy(float),
                     frame["ledger"].to_numpy())


def win_order_share(ds: DatasetLike, by: Iterable[str] | str | None = None,
                    table: pd.DataFrame | None = None) -> pd.DataFrame:
    """Share of seat-hands going out first, second, third (win_order 1-3) or not at all (0)."""
    frame = _counts(ds)["seats"] if table is None else table
    weight = None if table is not None else frame["hands"].to_numpy(np.int64)
    return _share_rows(frame.assign(win_order=frame["win_order"].to_numpy(np.int64)), "sc_win_order_share",
                       list(normalize_by(by)), "win_order", weight)


def win_order_points(ds: DatasetLike, by: Iterable[str] | str | None = None,
                     table: pd.DataFrame | None = None) -> pd.DataFrame:
    """Mean net points of the hand by order of winning, with the mean money of the win itself."""
    keys = normalize_by(by)
    frame = _counts(ds)["seats"] if table is None else table
    if frame.empty:
        return _empty("sc_win_order_points", [*keys, "win_order"])
    frame = frame.assign(win_order=frame["win_order"].to_numpy(np.int64))
    if table is None:
        out = mean_rows_from_sums(frame, "sc_win_order_points", (*keys, "win_order"), "points_sum",
                                  "points_sq", "points_n")
    else:
        out = mean_rows(frame, "sc_win_order_points", (*keys, "win_order"), "points", "scored")
    money = frame[frame["ledger"].to_numpy() & (frame["win_order"].to_numpy() > 0)]
    if len(money):
        counted = ("hands", "sum") if table is None else ("win_money", "size")
        sums = money.groupby([*keys, "win_order"], observed=True).agg(
            win_money=("win_money", "sum"), ledgered=counted).reset_index()
        for k in keys:
            if isinstance(sums[k].dtype, pd.CategoricalDtype):
                sums[k] = sums[k].astype(object)
        out = out.merge(sums, on=[*keys, "win_order"], how="left")
        out["mean_win_money"] = out["win_money"] / out["ledgered"]
        out = out.drop(columns=["win_money", "ledgered"])
    out.attrs["group_keys"] = [*keys, "win_order"]
    return out


def _wins(ds: DatasetLike, table: pd.DataFrame | None) -> tuple[pd.DataFrame, np.ndarray | None]:
    """The wins with a recorded fan (win_fan, cap), and how many each row stands for (None:
    one each, the per-seat table)."""
    if table is None:
        wins = _counts(ds)["wins"]
        return wins, wins["wins"].to_numpy(np.int64)
    return table[(table["win_order"].to_numpy() > 0) & table["win_fan"].notna().to_numpy()], None


def multiplier_share(ds: DatasetLike, by: Iterable[str] | str | None = None,
                     table: pd.DataFrame | None = None) -> pd.DataFrame:
    """Share of wins at each multiplier ``2 ** min(fan, cap)`` (reference sichuan.md §3.6)."""
    wins, weight = _wins(ds, table)
    known = wins["cap"].to_numpy() != _UNKNOWN_CAP
    wins = wins[known]
    fan = wins["win_fan"].to_numpy(np.int64)
    cap = wins["cap"].to_numpy(np.int64)
    capped = np.where(cap >= 0, np.minimum(fan, cap), fan)
    frame = wins.assign(multiplier=np.left_shift(1, np.maximum(capped, 0)).astype(np.int64))
    return _share_rows(frame, "sc_multiplier_share", list(normalize_by(by)), "multiplier",
                       None if weight is None else weight[known])


def cap_rate(ds: DatasetLike, by: Iterable[str] | str | None = None,
             table: pd.DataFrame | None = None) -> pd.DataFrame:
    """Wins whose fan reaches the profile's cap / wins under a capped profile (§4.7)."""
    wins, weight = _wins(ds, table)
    capped = wins["cap"].to_numpy() >= 0
    wins = wins[capped]
    if wins.empty:
        return _empty("sc_cap_rate", list(normalize_by(by)))
    n = np.ones(len(wins), np.int64) if weight is None else weight[capped]
    at_cap = (wins["win_fan"].to_numpy(float) >= wins["cap"].to_numpy(float)).astype(np.int64)
    return rate_rows(wins, "sc_cap_rate", normalize_by(by), at_cap * n, n, "hands" if weight is None else n)


COMPUTE = {
    "sc_void_choice_share": void_choice_share,
    "sc_void_choice_win_rate": void_choice_win_rate,
    "sc_flower_pig_rate": flower_pig_rate,
    "sc_cha_jiao_rate": cha_jiao_rate,
    "sc_kong_money": kong_money,
    "sc_win_order_share": win_order_share,
    "sc_win_order_points": win_order_points,
    "sc_multiplier_share": multiplier_share,
    "sc_cap_rate": cap_rate,
}


def sichuan_metrics(ds: DatasetLike, by: Iterable[str] | str | None = None) -> pd.DataFrame:
    """Every Sichuan 血战到底 metric (registry family ``sichuan``) in one frame."""
    from mjstats.stats.api import compute_all

    return compute_all(ds, by, metrics=list(COMPUTE))


# what mjstats.stats asks of a ruleset's stats part: the metrics that need the slow scan (all of
# them), how to run it with progress, and the public functions mjstats.stats re-exports
READS = tuple(COMPUTE)
COUNTED = ("sichuan",)  # registry families computed from per-part counters (counts.py), not base tables
PROGRESS = ("sichuan", "stats: reading Sichuan hands", "Sichuan hands")
PUBLIC = ("sichuan_metrics",)
