"""Every way a Guobiao hand can be read: regular divisions, 七对, 十三幺, 全不靠/七星不靠, 组合龙.

Tiles are kind codes 0-33 (mjstats.tiles); a hand is a 34-long count vector. A set is a
``(kind, tile)`` pair: CHOW (``tile`` = its lowest tile), PUNG, KONG or PAIR. Results are cached
per count vector, so a hand seen again (or the same concealed part) costs a dictionary lookup.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Final

__all__ = [
    "CHOW",
    "KNITTED_STRAIGHTS",
    "KONG",
    "PAIR",
    "PUNG",
    "TERMINALS_AND_HONOURS",
    "honours_and_knitted",
    "is_seven_pairs",
    "is_thirteen_orphans",
    "knitted_straight_split",
    "regular_divisions",
    "regular_waits",
    "seven_pairs_waits",
]

CHOW: Final = 0
PUNG: Final = 1
KONG: Final = 2
PAIR: Final = 3

Set = tuple[int, int]
Counts = tuple[int, ...]

TERMINALS_AND_HONOURS: Final[tuple[int, ...]] = (0, 8, 9, 17, 18, 26, *range(27, 34))

# The six knitted straights (组合龙): 147 / 258 / 369 spread over the three suits, in the
# reference's order (W first, then T, then B for the 147 part).
KNITTED_STRAIGHTS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sorted(s * 9 + r for s, start in zip(perm, (0, 1, 2), strict=True)
                 for r in (start, start + 3, start + 6)))
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)
# The knitted straights as bitmasks of their kinds (honours_and_knitted's subset test).
_KNITTED_MASKS: Final[tuple[int, ...]] = tuple(sum(1 << t for t in ks) for ks in KNITTED_STRAIGHTS)
_GROUP_BOUNDS: Final = ((0, 9), (9, 18), (18, 27), (27, 34))


@lru_cache(maxsize=1 << 16)
def regular_divisions(counts: Counts) -> tuple[tuple[tuple[Set, ...], int], ...]:
    """All splits of ``counts`` into sets (PUNG/CHOW) plus one pair, as (sets, pair tile).

    Ordered as the reference calculator finds them (its depth-first search takes tiles in code
    order, pung before chow), which decides ties between divisions of equal value. Each suit and
    the honours split on their own (cached per group), then the splits are combined.
    """
    options = []
    for lo, hi in _GROUP_BOUNDS:
        part = counts[lo:hi]
        if any(part):
            got = _group_divisions(part, lo)
            if not got:
                return ()
            options.append(got)
    found = []
    # Groups cover ascending tile ranges and keep their sets in key order, so joining them in
    # group order keeps every division's sets sorted by (tile, pung<chow).
    for combo in product(*options):
        pairs = [p for _, p in combo if p >= 0]
        if len(pairs) == 1:
            found.append((sum((group_sets for group_sets, _ in combo), ()), pairs[0]))
    if len(found) > 1:
        # Reference order = lexicographic order of each division's sorted set keys.
        found.sort(key=lambda d: [_set_key(x) for x in d[0]])
    return tuple(found)


def _set_key(s: Set) -> tuple[int, int]:
    return (s[1], 0 if s[0] == PUNG else 1)


@lru_cache(maxsize=1 << 14)
def _group_divisions(part: Counts, lo: int) -> tuple[tuple[tuple[Set, ...], int], ...]:
    """Splits of one suit (or the honours) starting at code ``lo``: (sets, pair or -1)."""
    work = list(part)
    found: set[tuple[tuple[Set, ...], int]] = set()
    _divide(work, [], -1, found, 0, lo, lo < 27)
    return tuple(found)


def _divide(work: list[int], sets: list[Set], pair: int, found: set, i: int, lo: int,
            suited: bool) -> None:
    size = len(work)
    while i < size and not work[i]:
        i += 1
    if i == size:
        found.add((tuple(sorted(sets, key=_set_key)), pair))
        return
    n = work[i]
    if pair < 0 and n >= 2:
        work[i] -= 2
        _divide(work, sets, lo + i, found, i, lo, suited)
        work[i] += 2
    if n >= 3:
        work[i] -= 3
        sets.append((PUNG, lo + i))
        _divide(work, sets, pair, found, i, lo, suited)
        sets.pop()
        work[i] += 3
    if suited and i < 7 and work[i + 1] and work[i + 2]:
        work[i] -= 1
        work[i + 1] -= 1
        work[i + 2] -= 1
        sets.append((CHOW, lo + i))
        _divide(work, sets, pair, found, i, lo, suited)
        sets.pop()
        work[i] += 1
        work[i + 1] += 1
        work[i + 2] += 1


def _group_shapes(counts: tuple[int, ...], suited: bool) -> int:
    """How one suit (or the honours) splits: bit 1 = into sets only, bit 2 = sets plus a pair."""
    if not suited:
        mods = [n % 3 for n in counts]
        if mods.count(0) == 7:
            return 1
        if mods.count(2) == 1 and mods.count(1) == 0:
            return 2
        return 0
    return _suit_shape(counts)


@lru_cache(maxsize=1 << 16)
def _suit_shape(counts: tuple[int, ...]) -> int:
    """One suit's split (bit 1 = sets only, bit 2 = sets plus a pair), within four sets.

    Worked out per shape and remembered, rather than from a table of every shape built up
    front: scoring one hand (``mjstats fan``) then costs microseconds, not the ~60 ms the
    whole table took. Counts are not capped at four: like the reference, a wait on a fifth copy
    still counts.
    """
    total = sum(counts)
    if total % 3 == 0:
        return int(total <= 12 and _sets_only(counts))
    if total % 3 == 2 and total <= 14:
        for r in range(9):
            if counts[r] >= 2:
                rest = list(counts)
                rest[r] -= 2
                if _sets_only(tuple(rest)):
                    return 2
    return 0


@lru_cache(maxsize=1 << 16)
def _sets_only(counts: tuple[int, ...]) -> bool:
    """True when one suit's tiles split into pungs and chows only."""
    i = next((r for r, n in enumerate(counts) if n), None)
    if i is None:
        return True
    work = list(counts)
    if work[i] >= 3:
        work[i] -= 3
        if _sets_only(tuple(work)):
            return True
        work[i] += 3
    if i < 7 and work[i + 1] and work[i + 2]:
        work[i] -= 1
        work[i + 1] -= 1
        work[i + 2] -= 1
        return _sets_only(tuple(work))
    return False


def _groups(counts: Counts) -> list[int]:
    return [
        _group_shapes(counts[0:9], True),
        _group_shapes(counts[9:18], True),
        _group_shapes(counts[18:27], True),
        _group_shapes(counts[27:34], False),
    ]


@lru_cache(maxsize=1 << 14)
def _group_completions(counts: tuple[int, ...], suited: bool) -> tuple[frozenset[int], frozenset[int]]:
    """Ranks (0-based) whose addition lets one group split into sets only / sets plus a pair."""
    sets_only, with_pair = [], []
    size = len(counts)
    for x in range(size):
        # A new tile alone (no copy, no suited neighbour within two ranks) fits in no set.
        if not counts[x] and (not suited or not any(
            counts[y] for y in range(max(0, x - 2), min(size, x + 3))
        )):
            continue
        probe = list(counts)
        probe[x] += 1
        shapes = _group_shapes(tuple(probe), suited)
        if shapes & 1:
            sets_only.append(x)
        if shapes & 2:
            with_pair.append(x)
    return frozenset(sets_only), frozenset(with_pair)



@lru_cache(maxsize=1 << 16)
def regular_waits(standing: Counts) -> frozenset[int]:
    """Tile kinds that complete ``standing`` (3n+1 tiles) as a regular hand.

    As the reference: a kind counts even when all four copies are already in sight. The new
    tile lands in one group; that group then holds the pair and the others split into sets, or
    it splits into sets and exactly one other group holds the pair.
    """
    shapes = _groups(standing)
    out: list[int] = []
    for g, (lo, hi) in enumerate(_GROUP_BOUNDS):
        others = [s for j, s in enumerate(shapes) if j != g]
        if not all(s & 3 for s in others):
            continue
        all_sets = all(s & 1 for s in others)
        one_pair = any(
            others[i] & 2 and all(o & 1 for j, o in enumerate(others) if j != i)
            for i in range(3)
        )
        if not (all_sets or one_pair):
            continue
        sets_only, with_pair = _group_completions(standing[lo:hi], g < 3)
        got = (with_pair if all_sets else frozenset()) | (sets_only if one_pair else frozenset())
        out.extend(lo + x for x in got)
    return frozenset(out)


def seven_pairs_waits(standing: Counts) -> frozenset[int]:
    """The tile a 13-tile hand of six pairs and a single waits on (a four counts as two pairs)."""
    if sum(standing) != 13:
        return frozenset()
    pairs = sum(n // 2 for n in standing)
    if pairs != 6:
        return frozenset()
    return frozenset(t for t in range(34) if standing[t] % 2)


def is_seven_pairs(counts: Counts) -> bool:
    """Seven pairs over 14 tiles; four of a kind counts as two pairs (reference)."""
    return sum(counts) == 14 and all(n % 2 == 0 for n in counts)


def is_thirteen_orphans(counts: Counts) -> bool:
    """Each terminal and honour once plus one of them again: 14 tiles."""
    if sum(counts) != 14:
        return False
    return all(counts[t] >= 1 for t in TERMINALS_AND_HONOURS) and sum(
        counts[t] for t in TERMINALS_AND_HONOURS
    ) == 14


def honours_and_knitted(counts: Counts) -> tuple[bool, bool] | None:
    """全不靠 test: None if not; else (is 七星不靠, holds a whole 组合龙).

    14 single tiles: 7-9 suited tiles inside one knitted straight plus distinct honours.
    """
    if sum(counts) != 14:
        return None
    suited = 0  # bitmask of the suited kinds held
    n_suited = honours = 0
    for t in range(34):
        n = counts[t]
        if n > 1:
            return None
        if n:
            if t < 27:
                suited |= 1 << t
                n_suited += 1
            else:
                honours += 1
    if not 7 <= n_suited <= 9:
        return None
    # within one knitted straight: no suited kind outside its mask
    if not any(not suited & ~mask for mask in _KNITTED_MASKS):
        return None
    return honours == 7, n_suited == 9


def knitted_straight_split(counts: Counts) -> tuple[tuple[int, ...], Counts] | None:
    """组合龙 test: the knitted straight held (all nine tiles) and the counts left over."""
    kinds = 0
    for t in range(27):
        if counts[t]:
            kinds += 1
    if kinds < 9:  # fewer than nine suited kinds
        return None
    for ks in KNITTED_STRAIGHTS:
        if all(counts[t] for t in ks):
            rest = list(counts)
            for t in ks:
                rest[t] -= 1
            return ks, tuple(rest)
    return None
