"""The base tables every metric is computed from, built in one streaming pass over the dataset.

The pass reads the aligned ingest tables part file by part file (each part holds a bounded
number of hands, the same hands in every table), and only the columns the metrics need. Events
become per-(hand, seat) counters with numpy (calls, discards, the winning event's discarder);
no event row is kept. The result, :class:`Base`, holds three frames:

- ``hands``: one row per hand (index = ``hand_id``, the hand's position in the pass);
- ``seats``: one row per seat of a hand, with the group keys (seat, player, style, dealer,
  wind, ruleset, period, profile, streak) and additive 0/1 counters (win, self_draw, deal_in,
  draw, called, ...) and summable values (discards, fan_total, points);
- ``fans``: one row per recorded fan of a win (hand_id, winner, slot = hand_id * 4 + winner,
  name, count).

A hand may hold several wins (duplicate MCR's ``H1H3``): each is a row of ``wins``, so each
winner's seat row has ``win`` set (with its own fan total and self-draw flag) and each
discarder's ``deal_in``; the ``hands`` frame's winner/loser/fan_total are the first win's.

Bases are cached per dataset version (a version folder never changes once written).
"""

from __future__ import annotations

import contextlib
import ctypes
import sys
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TypeVar

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from pandas.api.types import union_categoricals

from mjstats.errors import DatasetError
from mjstats.stats.holdings import seat_melds, seat_voids, tile_counts
from mjstats.stats.parts import DatasetLike, as_dataset, int_column, kind_codes, read_part
from mjstats.store import Dataset

__all__ = ["Base", "DatasetLike", "as_dataset", "base_tables", "cached_per_version", "clear_cache",
           "derived_cache", "key_strings", "kind_codes", "read_part", "release_free_memory",
           "scan_one_part", "version_key"]


HAND_COLUMNS = (
    "match_id", "hand_no", "profile", "dealer", "streak", "gold", "outcome", "players", "styles",
    "has_scores", "n_events",
)  # fmt: skip
WIN_COLUMNS = ("match_id", "hand_no", "winner", "loser", "self_drawn", "win_kind", "fan_total", "pattern")
EVENT_COLUMNS = ("kind", "seat", "from_seat", "tile", "tiles", "claimed")
CALL_KINDS = ("chi", "peng", "gang")  # 副露: melds taken from another's discard (not angang)


@dataclass(frozen=True)
class DrawnHands:
    """The hands of one part that ended in an exhaustive draw, with what each seat held then:
    concealed tile counts (row = position * 4 + seat) and melds (same row numbers)."""

    ruleset: str
    hand_ids: np.ndarray
    profiles: list[str]
    golds: list[int | None]
    counts: np.ndarray
    melds: dict[int, list[tuple[str, int, int]]]
    voids: dict[int, int] = field(default_factory=dict)  # declared void suit (0-2) per row


@dataclass(frozen=True)
class Base:
    """The per-hand, per-seat and per-fan frames of one dataset version (see module doc)."""

    hands: pd.DataFrame
    seats: pd.DataFrame
    fans: pd.DataFrame
    keys: pa.Table  # match_id, hand_no per hand_id (for joining derived tables)
    drawn: tuple[DrawnHands, ...] = ()  # holdings at exhaustive draws (tenpai)


T = TypeVar("T")

_CACHE: OrderedDict[str, Base] = OrderedDict()
_CACHE_SIZE = 2
_DERIVED: dict[str, dict[str, object]] = {}  # per-version results other modules cache (gold, audit)


def clear_cache() -> None:
    """Forget the cached base tables and what was derived from them (rebuilt on the next call)."""
    _CACHE.clear()
    for cache in _DERIVED.values():
        cache.clear()


def version_key(dataset: Dataset) -> str:
    """What identifies a version's contents for caching: its folder, and the identity of its
    manifest file (a dataset deleted and ingested again at the same path is not the old one)."""
    stat = (dataset.path / "manifest.json").stat()
    return f"{dataset.path.resolve()}:{stat.st_ino}:{stat.st_mtime_ns}"


def derived_cache(name: str) -> dict[str, object]:
    """The per-version cache kept under ``name`` (emptied by :func:`clear_cache`)."""
    return _DERIVED.setdefault(name, {})


def cached_per_version(name: str, dataset: Dataset, build: Callable[[], T]) -> T:
    """``build()`` once per dataset version (the latest version only), kept under ``name``."""
    cache = _DERIVED.setdefault(name, {})
    key = version_key(dataset)
    if key not in cache:
        cache.clear()  # one dataset version at a time
        cache[key] = build()
    return cache[key]  # type: ignore[return-value]


def base_tables(ds: DatasetLike, progress: Callable[[int], None] | None = None) -> Base:
    """The base tables of a dataset's live version (built once, then cached); ``progress`` is
    called with the number of hands scanned so far while they are built."""
    dataset = as_dataset(ds)
    key = version_key(dataset)
    base = _CACHE.get(key)
    if base is None:
        base = _build(dataset, progress)
        _CACHE[key] = base
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return base


class _Frames:
    """Accumulates per-part column arrays, then concatenates them once."""

    def __init__(self) -> None:
        self.cols: dict[str, list] = {}

    def add(self, **columns: object) -> None:
        for name, values in columns.items():
            self.cols.setdefault(name, []).append(values)

    def frame(self, categorical: tuple[str, ...]) -> pd.DataFrame:
        """One frame; each column's part arrays are dropped as soon as they are joined."""
        out: dict[str, object] = {}
        for name in list(self.cols):
            parts = self.cols.pop(name)
            if name in categorical:
                # one category dtype (str) for every part, even parts with only nulls
                same = [c.set_categories(c.categories.astype("str")) for c in parts]
                out[name] = union_categoricals(same, sort_categories=True)
            else:
                out[name] = np.concatenate(parts) if parts else np.array([])
        return pd.DataFrame(out)


_SEAT_CATEGORIES = ("ruleset", "period", "profile", "player", "style", "dealer")
_HAND_CATEGORIES = ("ruleset", "period", "profile", "win_kind", "pattern")
_FAN_CATEGORIES = ("name",)


SCAN_THREADS = 2  # parquet decoding and numpy release the GIL: parts scan in parallel
_WINDOW = 4  # parts in flight at once (bounds memory)


def scan_one_part(ds: Dataset, ruleset: str, period: str, part: str) -> tuple[int, _Frames, _Frames, _Frames,
                                                                           list[pa.Table], list[DrawnHands]]:
    """One part scanned into its own buffers, hand ids counted from 0 (offset when combined)."""
    frames = (_Frames(), _Frames(), _Frames())
    keys: list[pa.Table] = []
    drawn: list[DrawnHands] = []
    n = _scan_part(ds, ruleset, period, part, 0, *frames, keys, drawn)
    return (n, *frames, keys, drawn)


def scan_parts_in_order(ds: Dataset, scan: Callable[..., T], *extra: object) -> Iterator[T]:
    """``scan(ds, ruleset, period, part, *extra)`` of every part file, on SCAN_THREADS threads
    with at most _WINDOW parts in flight (bounds memory), the results in the dataset's part order
    (so what is built from them does not depend on the threads' timing)."""
    todo = list(ds.parts())
    with ThreadPoolExecutor(max_workers=SCAN_THREADS) as pool:
        pending: deque = deque()
        while todo or pending:
            while todo and len(pending) < _WINDOW:
                pending.append(pool.submit(scan, ds, *todo.pop(0), *extra))
            yield pending.popleft().result()


def _build(ds: Dataset, progress: Callable[[int], None] | None = None) -> Base:
    hands, seats, fans = _Frames(), _Frames(), _Frames()
    keys: list[pa.Table] = []
    drawn: list[DrawnHands] = []
    offset = 0
    for n, ph, ps, pf, pk, pd_ in scan_parts_in_order(ds, scan_one_part):
        for local, into in ((ph, hands), (ps, seats), (pf, fans)):
            for name, values in local.cols.items():
                for v in values:
                    if name == "hand_id":
                        v = v + offset
                    elif name == "slot":  # hand_id * 4 + winner; -1 (no winner) stays
                        v = np.where(v >= 0, v + 4 * offset, v)
                    into.add(**{name: v})
        keys.extend(pk)
        drawn.extend(replace(d, hand_ids=d.hand_ids + offset) for d in pd_)
        offset += n
        if progress is not None:
            progress(offset)
    if offset == 0:
        return _empty_base()
    base = Base(
        hands=hands.frame(_HAND_CATEGORIES),
        seats=seats.frame(_SEAT_CATEGORIES),
        fans=fans.frame(_FAN_CATEGORIES) if fans.cols else _empty_fans(),
        keys=pa.concat_tables(keys).combine_chunks(),
        drawn=tuple(drawn),
    )
    release_free_memory()
    return base


def release_free_memory() -> None:
    """Hand memory freed by the scan back to the operating system.

    The scan threads allocate every part's arrays in their own malloc arenas; once the parts
    are joined those arenas are mostly free but glibc keeps them (at a million hands ~350 MB
    of RSS held for nothing). ``malloc_trim`` returns them; Arrow's pool is asked to do the
    same. Elsewhere than glibc the call is skipped: it only changes RSS, never results.
    """
    pa.default_memory_pool().release_unused()
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):  # not glibc (musl, say)
            ctypes.CDLL("libc.so.6").malloc_trim(0)


def key_strings(table: pa.Table) -> pa.Array:
    """``match_id`` and ``hand_no`` joined into one string per row (a hashable hand key)."""
    joined = pc.binary_join_element_wise(
        table.column("match_id"), pc.cast(table.column("hand_no"), pa.string()), "\x1f"
    )
    return joined.combine_chunks() if isinstance(joined, pa.ChunkedArray) else joined


def _constant(value: str, n: int) -> pd.Categorical:
    return pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), categories=[value])


def _encoded(column: pa.ChunkedArray | pa.Array) -> pd.Categorical:
    """A string column as a categorical built from Arrow's dictionary encoding (nulls kept)."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    if not pa.types.is_dictionary(column.type):
        column = pc.dictionary_encode(column)
    codes = pc.fill_null(column.indices, -1).to_numpy(zero_copy_only=False)
    categories = column.dictionary.to_pylist()
    if len(set(categories)) != len(categories) or any(c is None for c in categories):
        return pd.Categorical(column.to_pylist())
    return pd.Categorical.from_codes(codes.astype(np.int32), categories=pd.Index(categories, dtype="str"))


def _scattered(values: pa.ChunkedArray, positions: np.ndarray, n: int) -> pd.Categorical:
    """A categorical of length ``n`` holding ``values`` at ``positions`` and null elsewhere."""
    enc = _encoded(values)
    codes = np.full(n, -1, dtype=np.int32)
    codes[positions] = enc.codes
    return pd.Categorical.from_codes(codes, dtype=enc.dtype)


def _seat_strings(column: pa.ChunkedArray, n: int) -> pd.Categorical:
    """A per-seat string list column (players, styles) as 4n categorical values ('' if absent)."""
    lengths = pc.list_value_length(column).fill_null(0).to_numpy(zero_copy_only=False)
    if n and (lengths == 4).all():
        return _encoded(pc.fill_null(pc.list_flatten(column), ""))
    if n and (lengths == 0).all():
        return _constant("", 4 * n)
    out: list[str] = []
    for row in column.to_pylist():
        row = list(row or [])[:4]
        out.extend((s or "") for s in row)
        out.extend([""] * (4 - len(row)))
    return pd.Categorical(out)


def _scan_part(ds: Dataset, ruleset: str, period: str, part: str, offset: int,
               hands: _Frames, seats: _Frames, fans: _Frames, keys: list[pa.Table],
               drawn: list[DrawnHands]) -> int:
    h = read_part(ds, "hands", ruleset, period, part, HAND_COLUMNS)
    n = h.num_rows
    if n == 0:
        return 0
    w = read_part(ds, "wins", ruleset, period, part, WIN_COLUMNS)
    p = read_part(ds, "payments", ruleset, period, part, ("match_id", "hand_no", "seat", "score"))
    e = read_part(ds, "events", ruleset, period, part, EVENT_COLUMNS)
    f = read_part(ds, "fans", ruleset, period, part, ("match_id", "hand_no", "winner", "name", "count"))
    keys.append(h.select(["match_id", "hand_no"]))
    hand_keys = key_strings(h)

    def locate(table: pa.Table) -> np.ndarray:
        """Row positions in ``h`` of each row's hand (hashing in Arrow, no Python strings)."""
        if table.num_rows == 0:
            return np.zeros(0, dtype=np.int64)
        where = pc.index_in(key_strings(table), value_set=hand_keys)
        if where.null_count:
            raise DatasetError(f"{ds.root}: {part}: rows whose hand is not in the hands table")
        return where.to_numpy(zero_copy_only=False).astype(np.int64)

    dealer = int_column(h, "dealer", 0)
    streak = int_column(h, "streak", 0)
    draw = pc.fill_null(pc.equal(h.column("outcome"), "draw"), False).to_numpy(zero_copy_only=False)
    has_scores = pc.fill_null(h.column("has_scores"), False).to_numpy(zero_copy_only=False)

    # --- wins: one row per recorded win (a hand may have several) -------------------------------
    wi = locate(w)
    w_winner = int_column(w, "winner", -1)
    w_loser = int_column(w, "loser", -1)
    w_self = pc.fill_null(w.column("self_drawn"), False).to_numpy(zero_copy_only=False).astype(bool)
    w_total = w.column("fan_total").to_numpy(zero_copy_only=False).astype(float)
    w_kind = pc.cast(w.column("win_kind"), pa.string()).to_numpy(zero_copy_only=False).astype(object)
    first_win = np.zeros(len(wi), dtype=bool)  # the first win of each hand: the hands frame's
    if len(wi):
        first_win[np.unique(wi, return_index=True)[1]] = True
    fw = wi[first_win]
    winner = np.full(n, -1, dtype=np.int64)
    loser = np.full(n, -1, dtype=np.int64)
    self_drawn = np.zeros(n, dtype=bool)
    fan_total = np.full(n, np.nan)
    win_kind = np.full(n, None, dtype=object)
    winner[fw] = w_winner[first_win]
    loser[fw] = w_loser[first_win]
    self_drawn[fw] = w_self[first_win]
    fan_total[fw] = w_total[first_win]
    win_kind[fw] = w_kind[first_win]

    # --- events: per (hand, seat) counters ------------------------------------------------------
    n_events = int_column(h, "n_events", 0)
    if int(n_events.sum()) != e.num_rows:
        raise DatasetError(f"{ds.root}: {part}: events do not line up with hands.n_events")
    hidx = np.repeat(np.arange(n), n_events)
    kind = kind_codes(e.column("kind"), (*CALL_KINDS, "discard", "hu"))
    seat = int_column(e, "seat", -1)
    slot = hidx * 4 + seat
    valid = seat >= 0
    call_mask = (kind >= 0) & (kind < len(CALL_KINDS)) & valid
    called = np.bincount(slot[call_mask], minlength=4 * n) > 0
    disc_mask = (kind == len(CALL_KINDS)) & valid
    discards = np.bincount(slot[disc_mask], minlength=4 * n)
    hu_mask = kind == len(CALL_KINDS) + 1
    hu_from = np.full(n, -1, dtype=np.int64)
    hu_h = hidx[hu_mask]
    hu_f = int_column(e, "from_seat", -1)[hu_mask]
    if hu_mask.any():
        first_h, first = np.unique(hu_h, return_index=True)
        hu_from[first_h] = hu_f[first]

    # holdings at exhaustive draws, summed from the same events (tenpai_at_draw)
    if draw.any():
        ev = e.filter(pa.array(np.repeat(draw, n_events)))
        sub = n_events[draw]
        drawn.append(DrawnHands(
            ruleset, np.flatnonzero(draw) + offset,
            [str(x or "") for x in np.asarray(h.column("profile").to_pylist(), dtype=object)[draw]],
            [None if g is None else int(g)
             for g in np.asarray(h.column("gold").to_pylist(), dtype=object)[draw]],
            tile_counts(ev, sub).astype(np.int8), seat_melds(ev, sub), seat_voids(ev, sub),
        ))

    # Robbing a kong is a deal-in by the konger, even where the platform scores it as a
    # self-draw (as a ruleset's reference may) and records no loser: take the HU event's from_seat.
    rob_kong = win_kind == "rob_kong"
    need_from = (loser < 0) & (winner >= 0) & (rob_kong | ~self_drawn)
    loser = np.where(need_from, hu_from, loser)
    plain_self_draw = self_drawn & ~rob_kong
    # the same per win, then onto the seats: each winner wins, each loser deals in
    w_rob = w_kind == "rob_kong"
    # the k-th win of a hand is its k-th hu event (format.md §5: wins in hu order), so a later
    # win of a multi-win hand (血战到底, 一炮多响) takes its own hu event's from_seat
    w_from = _nth_hu_from(wi, hu_h, hu_f)
    w_loser = np.where((w_loser < 0) & (w_winner >= 0) & (w_rob | ~w_self), w_from, w_loser)
    w_plain_self = w_self & ~w_rob
    seat_win = np.zeros(4 * n, dtype=bool)
    seat_self_draw = np.zeros(4 * n, dtype=bool)
    seat_deal_in = np.zeros(4 * n, dtype=bool)
    seat_fan_total = np.full(4 * n, np.nan)
    won = (w_winner >= 0) & (w_winner < 4)
    slot = wi[won] * 4 + w_winner[won]
    seat_win[slot] = True
    seat_self_draw[slot] = w_plain_self[won]
    seat_fan_total[slot] = w_total[won]
    lost = (w_loser >= 0) & (w_loser < 4) & won
    seat_deal_in[wi[lost] * 4 + w_loser[lost]] = True
    # each win a seat paid as discarder or robbed konger (several a hand where play goes on after a win)
    seat_deal_ins = np.bincount(wi[lost] * 4 + w_loser[lost], minlength=4 * n)

    # --- payments: net score per seat -----------------------------------------------------------
    points = np.full(4 * n, np.nan)
    if p.num_rows:  # a hand's rows are its net scores or its ledger: summed per seat either way
        pi = locate(p)
        ps = int_column(p, "seat", -1)
        ok = (ps >= 0) & (ps < 4)
        at = pi[ok] * 4 + ps[ok]
        points[at] = 0.0
        np.add.at(points, at, p.column("score").to_numpy(zero_copy_only=False)[ok].astype(float))

    # --- frames ---------------------------------------------------------------------------------
    seat_no = np.tile(np.arange(4, dtype=np.int64), n)
    hand_of_seat = np.repeat(np.arange(n), 4)
    is_winner = seat_win
    is_dealer = dealer[hand_of_seat] == seat_no
    profile = _encoded(h.column("profile"))
    hands.add(
        hand_id=(np.arange(n) + offset).astype(np.int64),
        ruleset=_constant(ruleset, n),
        period=_constant(period, n),
        profile=profile,
        dealer=dealer.astype(np.int8),
        streak=streak.astype(np.int16),
        gold=int_column(h, "gold", -1).astype(np.int8),
        draw=draw,
        has_scores=has_scores,
        winner=winner.astype(np.int8),
        loser=loser.astype(np.int8),
        self_draw=plain_self_draw,
        fan_total=fan_total,
        win_kind=_scattered(w.column("win_kind").take(np.flatnonzero(first_win)), fw, n),
        pattern=_scattered(w.column("pattern").take(np.flatnonzero(first_win)), fw, n),
    )
    seats.add(
        hand_id=(hand_of_seat + offset).astype(np.int64),
        seat=seat_no.astype(np.int8),
        ruleset=_constant(ruleset, 4 * n),
        period=_constant(period, 4 * n),
        profile=pd.Categorical.from_codes(np.repeat(profile.codes, 4), dtype=profile.dtype),
        player=_seat_strings(h.column("players"), n),
        style=_seat_strings(h.column("styles"), n),
        dealer=pd.Categorical.from_codes((~is_dealer).astype(np.int8), categories=["dealer", "non-dealer"]),
        wind=((seat_no - dealer[hand_of_seat]) % 4).astype(np.int8),
        streak=streak[hand_of_seat].astype(np.int16),
        hands=np.ones(4 * n, dtype=np.int8),
        win=is_winner,
        self_draw=seat_self_draw,
        deal_in=seat_deal_in,
        deal_ins=seat_deal_ins.astype(np.int8),
        draw=draw[hand_of_seat],
        called=called,
        discards=discards.astype(np.int16),
        fan_total=seat_fan_total,
        points=points,
        scored=has_scores[hand_of_seat] & ~np.isnan(points),
    )
    if f.num_rows:
        fi = locate(f)
        fan_winner = int_column(f, "winner", -1)
        fans.add(
            hand_id=(fi + offset).astype(np.int64),
            winner=fan_winner.astype(np.int8),
            slot=np.where(fan_winner >= 0, (fi + offset) * 4 + fan_winner, -1).astype(np.int64),
            name=_encoded(f.column("name")),
            count=int_column(f, "count", 1).astype(np.int16),
        )
    return n


def _nth_hu_from(win_hand: np.ndarray, hu_hand: np.ndarray, hu_from: np.ndarray) -> np.ndarray:
    """Per win (rows grouped by hand, in win order), the from_seat of its hand's hu event of the
    same rank (-1 where the hand has fewer hu events than wins)."""
    out = np.full(len(win_hand), -1, dtype=np.int64)
    if len(win_hand) == 0 or len(hu_hand) == 0:
        return out
    order = np.argsort(win_hand, kind="stable")
    ranked = win_hand[order]
    win_rank = np.empty(len(win_hand), dtype=np.int64)
    win_rank[order] = np.arange(len(ranked)) - np.searchsorted(ranked, ranked)
    hu_rank = np.arange(len(hu_hand)) - np.searchsorted(hu_hand, hu_hand)  # events are in hand order
    where = np.searchsorted(hu_hand, win_hand) + win_rank
    ok = where < len(hu_hand)
    ok[ok] = (hu_hand[where[ok]] == win_hand[ok]) & (hu_rank[where[ok]] == win_rank[ok])
    out[ok] = hu_from[where[ok]]
    return out


def _empty_fans() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "hand_id": np.zeros(0, np.int64),
            "winner": np.zeros(0, np.int8),
            "slot": np.zeros(0, np.int64),
            "name": pd.Categorical([]),
            "count": np.zeros(0, np.int16),
        }
    )


def _empty_base() -> Base:
    hands = _Frames()
    seats = _Frames()
    empty_cat = pd.Categorical([])
    for frame, cats in ((hands, _HAND_CATEGORIES), (seats, _SEAT_CATEGORIES)):
        for name in cats:
            frame.add(**{name: empty_cat})
    hands.add(hand_id=np.zeros(0, np.int64), dealer=np.zeros(0, np.int8), streak=np.zeros(0, np.int16),
              gold=np.zeros(0, np.int8), draw=np.zeros(0, bool), has_scores=np.zeros(0, bool),
              winner=np.zeros(0, np.int8), loser=np.zeros(0, np.int8), self_draw=np.zeros(0, bool),
              fan_total=np.zeros(0))
    seats.add(hand_id=np.zeros(0, np.int64), seat=np.zeros(0, np.int8), wind=np.zeros(0, np.int8),
              streak=np.zeros(0, np.int16), hands=np.zeros(0, np.int8), win=np.zeros(0, bool),
              self_draw=np.zeros(0, bool), deal_in=np.zeros(0, bool), deal_ins=np.zeros(0, np.int8),
              draw=np.zeros(0, bool),
              called=np.zeros(0, bool), discards=np.zeros(0, np.int16), fan_total=np.zeros(0),
              points=np.zeros(0), scored=np.zeros(0, bool))
    return Base(hands.frame(_HAND_CATEGORIES), seats.frame(_SEAT_CATEGORIES), _empty_fans(),
                pa.table({"match_id": pa.array([], pa.string()), "hand_no": pa.array([], pa.int32())}))
