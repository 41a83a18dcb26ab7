"""Hand shapes shared by every rule system: melds + pair divisions, waits and shanten, with wilds.

All functions work on a count vector: 34 ints indexed by tile code (W 0-8, T 9-17, B 18-26,
honours 27-33; honours never form chows). ``melds`` is the number of melds the CONCEALED part
must still form (a 4-meld hand with one exposed meld: ``melds=3``; a 5-meld hand with two exposed
melds: ``melds=3``). Wild tiles (a gold, as a ruleset's reference defines it) are NOT in the counts:
they are passed as ``wilds`` and each stands for any suited kind (codes 0-26), never for an honour.

Copy limits are not applied to wilds: a gold "can stand for any suited tile, itself included"
(the reference of the ruleset with golds), with no cap, so four real 5m plus a wild standing
for 5m is accepted. Waits likewise list a kind even when all four copies are already held (as
the reference calculator does).

Speed comes from per-suit tables, filled lazily and memoised on the suit's count tuple: for
completeness, the fewest wilds that finish a suit with and without the pair; for shanten, the
Pareto-best (melds, melds + partial melds, pair) decompositions of a suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from mjstats.errors import InvalidHand

__all__ = [
    "Division",
    "Group",
    "divisions",
    "is_complete",
    "partial_shanten",
    "regular_shanten",
    "regular_waits",
]

Group = tuple[str, int]  # ("pair", t), ("pung", t) or ("chow", lowest tile)
Division = tuple[Group, ...]

_INF = 99  # "impossible": larger than any real wild count or shanten
_TABLE_LIMIT = 200_000  # entries per suit table before it is cleared (tens of MB)
_NUM_KINDS = 34
_SUITED = 27


# --- completeness: fewest wilds per suit ---------------------------------------------------------


def _strip(key: tuple[int, ...]) -> tuple[int, ...]:
    """Drop leading and trailing zeros: with wilds a run's absolute rank never matters, because
    real tiles spanning at most three ranks always fit a run inside 1..9 (a suit has nine)."""
    lo = 0
    hi = len(key)
    while lo < hi and key[lo] == 0:
        lo += 1
    while hi > lo and key[hi - 1] == 0:
        hi -= 1
    return key[lo:hi]


@lru_cache(maxsize=_TABLE_LIMIT)
def _fill_cost(key: tuple[int, ...]) -> tuple[int, int]:
    """(wilds to split ``key`` into melds only, wilds to split it into melds + one pair).

    ``key`` is a stripped suit run. Every group holding a copy of the lowest tile is one of:
    a pung with 1-3 real copies, a pair with 1-2 real copies, a run with the next tile and/or the
    one after it (a missing member is a wild); a run of the lowest tile alone costs what a pung
    of one real copy costs, so it needs no branch of its own.
    """
    if not key:
        return (0, 2)  # nothing to finish; a pair made of two wilds
    c0 = key[0]
    tail = key[1:]
    best0 = best1 = _INF
    for k in range(1, min(3, c0) + 1):  # pung with k real copies
        sub = _fill_cost(_strip((c0 - k, *tail)))
        best0 = min(best0, 3 - k + sub[0])
        best1 = min(best1, 3 - k + sub[1])
    for k in range(1, min(2, c0) + 1):  # the pair, k real copies
        sub = _fill_cost(_strip((c0 - k, *tail)))
        best1 = min(best1, 2 - k + sub[0])
    n = len(key)
    if n > 1 and key[1]:
        # run of the lowest tile and the next, the third member real if present else wild
        if n > 2 and key[2]:
            sub = _fill_cost(_strip((c0 - 1, key[1] - 1, key[2] - 1, *key[3:])))
            best0 = min(best0, sub[0])
            best1 = min(best1, sub[1])
        sub = _fill_cost(_strip((c0 - 1, key[1] - 1, *key[2:])))
        best0 = min(best0, 1 + sub[0])
        best1 = min(best1, 1 + sub[1])
    if n > 2 and key[2]:  # run with a wild in the middle
        sub = _fill_cost(_strip((c0 - 1, key[1], key[2] - 1, *key[3:])))
        best0 = min(best0, 1 + sub[0])
        best1 = min(best1, 1 + sub[1])
    return (best0, best1)


_suit_fill: dict[tuple[int, ...], tuple[int, int]] = {}


def _suit_fill_cost(key: tuple[int, ...]) -> tuple[int, int]:
    cost = _suit_fill.get(key)
    if cost is None:
        if len(_suit_fill) >= _TABLE_LIMIT:  # bound the memory of long audits
            _suit_fill.clear()
        cost = _suit_fill[key] = _fill_cost(_strip(key))
    return cost


def is_complete(counts: Sequence[int], melds: int, *, pair: bool = True, wilds: int = 0) -> bool:
    """Whether ``counts`` plus ``wilds`` wild tiles split into exactly ``melds`` melds (chow or
    pung) plus one pair (none if ``pair`` is false), with nothing left over.

    A wrong total (``sum(counts) + wilds != 3 * melds + 2 * pair``) is simply not complete.
    Wilds stand for any suited kind, any number of times (no four-copy cap, see module doc).
    """
    total = 3 * melds + (2 if pair else 0)
    if sum(counts) + wilds != total:
        return False
    honour_pairs = 0
    for c in counts[27:34]:
        if c:
            # honours only pung or pair (a wild never stands for one); 5 copies arise when
            # waits are tested on a kind held four times
            r = c % 3
            if r == 2:
                honour_pairs += 1
            elif r == 1:
                return False
    if honour_pairs > (1 if pair else 0):
        return False
    key_w = tuple(counts[0:9])
    key_t = tuple(counts[9:18])
    key_b = tuple(counts[18:27])
    # without wilds each suit must hold 3k or 3k + 2 tiles
    if not wilds and (sum(key_w) % 3 == 1 or sum(key_t) % 3 == 1 or sum(key_b) % 3 == 1):
        return False
    table = _suit_fill
    w = table.get(key_w) or _suit_fill_cost(key_w)
    t = table.get(key_t) or _suit_fill_cost(key_t)
    b = table.get(key_b) or _suit_fill_cost(key_b)
    if not pair or honour_pairs:
        need = w[0] + t[0] + b[0]
    else:
        need = min(w[1] + t[0] + b[0], w[0] + t[1] + b[0], w[0] + t[0] + b[1])
    # Spare wilds (need < wilds) always come in threes, since the total is right: wild pungs.
    return need <= wilds


# --- shanten: Pareto decompositions per suit -----------------------------------------------------

# An option is (m, s, p): m melds, s = melds + partial melds (pairs, two-tile runs), p = pair used.
# Shanten = 2M - min(m, M) - min(s, M) - p never rises with m, s or p: prune options by dominance.
_Option = tuple[int, int, int]


def _pareto(options: set[_Option]) -> tuple[_Option, ...]:
    """Keep only options not dominated in all of (m, s, p)."""
    ordered = sorted(options, reverse=True)
    kept: list[_Option] = []
    for o in ordered:
        if not any(k[0] >= o[0] and k[1] >= o[1] and k[2] >= o[2] for k in kept):
            kept.append(o)
    return tuple(kept)


@lru_cache(maxsize=_TABLE_LIMIT)
def _suit_options(key: tuple[int, ...], runs: bool) -> tuple[_Option, ...]:
    """Pareto-best decompositions of a stripped run of counts (``runs``: chows allowed)."""
    if not key:
        return ((0, 0, 0),)
    c0 = key[0]
    tail = key[1:]
    n = len(key)
    found: set[_Option] = set()

    def add(rest: tuple[int, ...], dm: int, ds: int, dp: int) -> None:
        for m, s, p in _suit_options(_strip(rest), runs):
            if p + dp <= 1:
                found.add((m + dm, s + ds, p + dp))

    add((c0 - 1, *tail), 0, 0, 0)  # the lowest tile left alone
    if c0 >= 3:
        add((c0 - 3, *tail), 1, 1, 0)
    if c0 >= 2:
        add((c0 - 2, *tail), 0, 1, 0)  # a pair as a partial meld
        add((c0 - 2, *tail), 0, 0, 1)  # the pair
    if runs and n > 1 and key[1]:
        if n > 2 and key[2]:
            add((c0 - 1, key[1] - 1, key[2] - 1, *key[3:]), 1, 1, 0)
        add((c0 - 1, key[1] - 1, *key[2:]), 0, 1, 0)
    if runs and n > 2 and key[2]:
        add((c0 - 1, key[1], key[2] - 1, *key[3:]), 0, 1, 0)
    return _pareto(found)


_suit_opts: dict[tuple[int, ...], tuple[_Option, ...]] = {}


def _suit_opts_of(key: tuple[int, ...]) -> tuple[_Option, ...]:
    opts = _suit_opts.get(key)
    if opts is None:
        if len(_suit_opts) >= _TABLE_LIMIT:
            _suit_opts.clear()
        opts = _suit_opts[key] = _suit_options(_strip(key), True)
    return opts


@cache
def _honour_options(key: tuple[int, ...]) -> tuple[_Option, ...]:
    """Pareto-best decompositions of the honours (``key``: sorted non-zero counts)."""
    found: set[_Option] = {(0, 0, 0)}
    for c in key:
        per = _suit_options((c,), False)
        found = {(a + x, b + y, p + q) for a, b, p in found for x, y, q in per if p + q <= 1}
        found = set(_pareto(found))
    return _pareto(found)


@lru_cache(maxsize=1 << 16)
def _merged(a: tuple[_Option, ...], b: tuple[_Option, ...]) -> tuple[_Option, ...]:
    """Pareto-best options of two disjoint parts together (at most one pair in all)."""
    return _pareto({(x[0] + y[0], x[1] + y[1], x[2] + y[2]) for x in a for y in b if x[2] + y[2] <= 1})


@lru_cache(maxsize=1 << 16)
def _least_value(options: tuple[_Option, ...], melds: int) -> int:
    # melds beyond M (only in a part of a hand) do not count: the result never drops below -1
    return min(2 * melds - min(m, melds) - min(s, melds) - p for m, s, p in options)


def _formula_shanten(counts: Sequence[int], melds: int) -> int:
    """min over decompositions of 2M - min(m, M) - min(s, M) - p (the standard melds + pair
    shanten; m exceeds M only in a part of a hand, see partial_shanten). The suits' option
    sets repeat a lot, so their merges are memoised too."""
    key = tuple(counts[0:9])
    sw = _suit_opts.get(key) or _suit_opts_of(key)
    key = tuple(counts[9:18])
    st = _suit_opts.get(key) or _suit_opts_of(key)
    key = tuple(counts[18:27])
    sb = _suit_opts.get(key) or _suit_opts_of(key)
    options = _merged(_merged(sw, st), sb)
    if any(counts[27:34]):
        options = _merged(options, _honour_options(tuple(sorted(c for c in counts[27:34] if c))))
    return _least_value(options, melds)


def partial_shanten(counts: Sequence[int], melds: int) -> int:
    """The melds + pair shanten formula for any number of tiles, no wilds: the least
    2M - min(m, M) - min(s, M) - p over decompositions (m melds, s melds + partial melds, p pair).
    For parts of a hand, such as what a knitted straight (组合龙) leaves; ``regular_shanten``
    checks a whole hand's size."""
    if len(counts) != _NUM_KINDS:
        raise InvalidHand(f"a count vector has {_NUM_KINDS} entries, got {len(counts)}")
    return _formula_shanten(counts, melds)


def _check_size(counts: Sequence[int], melds: int, wilds: int) -> int:
    if len(counts) != _NUM_KINDS:
        raise InvalidHand(f"a count vector has {_NUM_KINDS} entries, got {len(counts)}")
    if melds < 0 or wilds < 0:
        raise InvalidHand(f"melds and wilds must be >= 0, got {melds} and {wilds}")
    size = sum(counts) + wilds
    if size not in (3 * melds + 1, 3 * melds + 2):
        raise InvalidHand(
            f"{melds} melds + pair take {3 * melds + 1} (waiting) or {3 * melds + 2} tiles, got {size}"
        )
    return size


def regular_shanten(counts: Sequence[int], melds: int, *, wilds: int = 0) -> int:
    """Shanten of the ``melds`` melds + pair form: -1 complete, 0 waiting, n = n tiles from waiting.

    The hand (counts plus wilds) must hold ``3 * melds + 1`` or ``3 * melds + 2`` tiles, else
    InvalidHand. With wilds it is the least shanten over every choice of suited kinds for them
    (exact; honours and wilds together take a slower, still table-driven path).
    """
    size = _check_size(counts, melds, wilds)
    if wilds and any(counts[27:34]):
        return _wild_shanten(counts, melds, wilds)
    base = _formula_shanten(counts, melds)
    if not wilds:
        return base
    # Suited tiles only: each wild lowers the shanten by exactly one until the floor (a wild can
    # always finish a partial meld, pair a lone tile or start a partial meld; when none of these
    # is possible the hand is melds + pair and the remaining wilds finish it).
    floor = -1 if size == 3 * melds + 2 else 0
    return max(floor, base - wilds)


# With honours in the hand a wild cannot help every lone tile (no wild stands for an honour), so
# the suited-only shortcut fails; the exact answer comes from decompositions that place wilds
# inside suited groups. An option is then (m, s, p, u): u = wilds used inside the suit.
_WildOption = tuple[int, int, int, int]


def _wild_pareto(options: set[_WildOption]) -> tuple[_WildOption, ...]:
    """Keep options not dominated (more or equal m, s, p with fewer or equal wilds)."""
    ordered = sorted(options, key=lambda o: (o[3], -o[0], -o[1], -o[2]))
    kept: list[_WildOption] = []
    for o in ordered:
        if not any(k[0] >= o[0] and k[1] >= o[1] and k[2] >= o[2] and k[3] <= o[3] for k in kept):
            kept.append(o)
    return tuple(kept)


@lru_cache(maxsize=1 << 16)
def _wild_suit_options(key: tuple[int, ...], cap: int) -> tuple[_WildOption, ...]:
    """Pareto-best decompositions of a stripped suit run using at most ``cap`` wilds inside its
    groups. The lowest tile is left alone, or sits in: a pung with 1-3 real copies, the pair with
    1-2 real copies, a partial meld (a real pair, a run pair, or the tile and a wild), or a run
    with the next tile and/or the one after (a missing member is a wild)."""
    if not key:
        return ((0, 0, 0, 0),)
    c0 = key[0]
    tail = key[1:]
    n = len(key)
    found: set[_WildOption] = set()

    def add(rest: tuple[int, ...], dm: int, ds: int, dp: int, du: int) -> None:
        if du > cap:
            return
        for m, s, p, u in _wild_suit_options(_strip(rest), cap - du):
            if p + dp <= 1:
                found.add((m + dm, s + ds, p + dp, u + du))

    add((c0 - 1, *tail), 0, 0, 0, 0)  # alone
    for k in range(1, min(3, c0) + 1):
        add((c0 - k, *tail), 1, 1, 0, 3 - k)  # pung
    for k in range(1, min(2, c0) + 1):
        add((c0 - k, *tail), 0, 0, 1, 2 - k)  # the pair
    add((c0 - 1, *tail), 0, 1, 0, 1)  # the tile and a wild as a partial meld
    if c0 >= 2:
        add((c0 - 2, *tail), 0, 1, 0, 0)  # a pair as a partial meld
    if n > 1 and key[1]:
        if n > 2 and key[2]:
            add((c0 - 1, key[1] - 1, key[2] - 1, *key[3:]), 1, 1, 0, 0)
        add((c0 - 1, key[1] - 1, *key[2:]), 1, 1, 0, 1)  # run, the third member wild
        add((c0 - 1, key[1] - 1, *key[2:]), 0, 1, 0, 0)  # two-tile partial run
    if n > 2 and key[2]:
        add((c0 - 1, key[1], key[2] - 1, *key[3:]), 1, 1, 0, 1)  # run, the middle wild
        add((c0 - 1, key[1], key[2] - 1, *key[3:]), 0, 1, 0, 0)  # partial run with a gap
    return _wild_pareto(found)


@lru_cache(maxsize=1 << 16)
def _wild_merged(a: tuple[_WildOption, ...], b: tuple[_WildOption, ...], cap: int) -> tuple[_WildOption, ...]:
    return _wild_pareto(
        {
            (x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3])
            for x in a
            for y in b
            if x[2] + y[2] <= 1 and x[3] + y[3] <= cap
        }
    )


def _wild_shanten(counts: Sequence[int], melds: int, wilds: int) -> int:
    """Exact wild shanten: suits with wilds inside their groups, honours as they are, and the
    wilds left over as wild-only melds, a wild pair or wild partial melds."""
    options = _wild_suit_options(_strip(tuple(counts[0:9])), wilds)
    for lo in (9, 18):
        part = _wild_suit_options(_strip(tuple(counts[lo : lo + 9])), wilds)
        options = _wild_merged(options, part, wilds)
    honours = _honour_options(tuple(sorted(c for c in counts[27:34] if c)))
    options = _wild_merged(options, tuple((m, s, p, 0) for m, s, p in honours), wilds)
    best = _INF
    for m, s, p, u in options:
        spare = wilds - u
        for pungs in range(spare // 3 + 1):
            for pair in (0, 1) if p == 0 else (0,):
                left = spare - 3 * pungs - 2 * pair
                if left < 0:
                    continue
                mm = min(m + pungs, melds)
                ss = min(s + pungs + left // 2, melds)
                best = min(best, 2 * melds - mm - ss - p - pair)
    return best


def regular_waits(counts: Sequence[int], melds: int, *, wilds: int = 0) -> frozenset[int]:
    """Kind codes (0-33) that complete the ``melds`` + pair form when added to a waiting hand.

    The hand (counts plus wilds) must hold ``3 * melds + 1`` tiles, else InvalidHand. Empty when
    the hand is not waiting. A hand that waits with wilds may wait on every suited kind (e.g.
    complete melds plus one wild: any suited tile pairs with the wild); honours are waits only
    when a real honour needs them. Kinds already held four times are included (no copy limit).
    """
    size = _check_size(counts, melds, wilds)
    if size != 3 * melds + 1:
        raise InvalidHand(f"a waiting hand of {melds} melds + pair has {3 * melds + 1} tiles: {size}")
    # Same test as is_complete on counts + one tile, but only the suit that gains the tile is
    # looked up again: the other suits' costs and the honours' state are shared.
    dead, honour_pairs = _honour_state(counts[27:34])
    keys = [tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27])]
    costs = [_suit_fill.get(key) or _suit_fill_cost(key) for key in keys]
    base = costs[0][0] + costs[1][0] + costs[2][0]
    out = []
    if not dead and honour_pairs <= 1:
        for s, key in enumerate(keys):
            others = base - costs[s][0]
            # the pair in another suit, at its extra cost
            pair_elsewhere = min(costs[j][1] - costs[j][0] for j in range(3) if j != s)
            own = costs[s][0] if honour_pairs else min(costs[s][1], costs[s][0] + pair_elsewhere)
            if others + own - 1 > wilds:
                continue  # one more real tile saves at most one wild: no wait in this suit
            if wilds:
                ranks: Sequence[int] = range(9)
            else:  # a tile is only useful next to (within two of) a tile of its suit
                ranks = [i for i in range(9) if any(key[max(0, i - 2) : i + 3])]
            for i in ranks:
                grown = (*key[:i], key[i] + 1, *key[i + 1 :])
                cost = _suit_fill.get(grown) or _suit_fill_cost(grown)
                # the pair among the honours, in this suit, or in another suit
                own = cost[0] if honour_pairs else min(cost[1], cost[0] + pair_elsewhere)
                if others + own <= wilds:
                    out.append(9 * s + i)
    for k in range(_SUITED, _NUM_KINDS):
        if counts[k]:  # a new lone honour never completes: no wild stands for an honour
            honours = list(counts[27:34])
            honours[k - _SUITED] += 1
            dead_k, pairs_k = _honour_state(honours)
            if dead_k or pairs_k > 1:
                continue
            pair_cost = 0 if pairs_k else min(c[1] - c[0] for c in costs)
            if base + pair_cost <= wilds:
                out.append(k)
    return frozenset(out)


def _honour_state(honours: Sequence[int]) -> tuple[int, int]:
    """(honour kinds that cannot be used up, honour pairs): honours only pung or pair."""
    dead = pairs = 0
    for c in honours:
        r = c % 3
        if r == 1:
            dead += 1
        elif r == 2:
            pairs += 1
    return dead, pairs


# --- divisions (no wilds) -------------------------------------------------------------------------


def _meld_splits(counts: list[int], start: int) -> list[list[Group]]:
    """Every split of ``counts`` (from ``start`` on) into pungs and chows, lowest tile first."""
    i = start
    while i < _NUM_KINDS and counts[i] == 0:
        i += 1
    if i == _NUM_KINDS:
        return [[]]
    out: list[list[Group]] = []
    if counts[i] >= 3:
        counts[i] -= 3
        out.extend([("pung", i), *rest] for rest in _meld_splits(counts, i))
        counts[i] += 3
    if i < _SUITED and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        counts[i] -= 1
        counts[i + 1] -= 1
        counts[i + 2] -= 1
        out.extend([("chow", i), *rest] for rest in _meld_splits(counts, i))
        counts[i] += 1
        counts[i + 1] += 1
        counts[i + 2] += 1
    return out


def divisions(counts: Sequence[int], melds: int) -> tuple[Division, ...]:
    """Every distinct way to split ``counts`` (no wilds) into ``melds`` melds + one pair.

    Each division is a sorted tuple of groups ``("pair", t)``, ``("pung", t)``, ``("chow", low)``;
    the divisions come sorted. Empty when the hand is not complete (or has the wrong size).
    """
    if len(counts) != _NUM_KINDS:
        raise InvalidHand(f"a count vector has {_NUM_KINDS} entries, got {len(counts)}")
    if sum(counts) != 3 * melds + 2:
        return ()
    work = list(counts)
    found: set[Division] = set()
    for t in range(_NUM_KINDS):
        if work[t] >= 2:
            work[t] -= 2
            for split in _meld_splits(work, 0):
                found.add(tuple(sorted([("pair", t), *split])))
            work[t] += 2
    return tuple(sorted(found))
