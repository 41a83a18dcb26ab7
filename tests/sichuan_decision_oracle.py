"""A straightforward Sichuan shanten, useful-kinds and waits oracle for the decision judge
(tests/test_decisions_sichuan.py), independent of the engine's shanten formula and part masks.

Shanten by its definition: the least number of tiles a hand must take in before it is a
complete hand, less one. A hand H becomes a complete hand T (14 - 3m concealed tiles: 4 - m
sets and a pair, or 七对 without melds, none of the void suit) by taking in exactly the tiles
of T that H lacks (the multiset difference T - H; each is exchanged for a tile of H that T does
not use, void tiles first). So shanten = min over every complete T of |T - H|, less one. The
regular form's minimum is found suit by suit: for each suit, every multiset of j sets (and a
pair or not) is enumerated as a target count vector, and the suit's cost is the least shortfall
against them (numpy over all targets); the suits' costs are then combined over every way of
sharing the sets and the pair. The four-copy limit is not applied, as in the engine.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations_with_replacement

import numpy as np

__all__ = ["oracle_discard_shanten", "oracle_shanten", "oracle_useful", "oracle_waits"]

Counts = tuple[int, ...]
_SETS = [tuple(1 if r in (a, a + 1, a + 2) else 0 for r in range(9)) for a in range(7)] + [
    tuple(3 if r == a else 0 for r in range(9)) for a in range(9)
]


@cache
def _targets(sets: int, pair: bool) -> np.ndarray:
    """Every count vector of one suit made of ``sets`` sets (and a pair when ``pair``)."""
    found: set[Counts] = set()
    pairs: list[int | None] = list(range(9)) if pair else [None]
    for chosen in combinations_with_replacement(range(len(_SETS)), sets):
        base = [0] * 9
        for i in chosen:
            base = [x + y for x, y in zip(base, _SETS[i], strict=True)]
        for p in pairs:
            vec = list(base)
            if p is not None:
                vec[p] += 2
            found.add(tuple(vec))
    return np.array(sorted(found), dtype=np.int16).reshape(-1, 9)


@lru_cache(maxsize=1 << 16)
def _suit_cost(held: Counts, sets: int, pair: bool) -> int:
    """The least number of tiles one suit's ``held`` counts lack to be ``sets`` sets (+ pair)."""
    targets = _targets(sets, pair)
    return int(np.maximum(targets - np.array(held, dtype=np.int16), 0).sum(axis=1).min())


def _regular_missing(counts: Counts, melds: int, void: int) -> int:
    """min |T - H| over the 4 - m sets + pair hands T of the two suits other than ``void``."""
    suits = [s for s in range(3) if s != void]
    a, b = (tuple(counts[9 * s : 9 * s + 9]) for s in suits)
    need = 4 - melds
    best = 99
    for j in range(need + 1):
        for pair_in_a in (True, False):
            cost = _suit_cost(a, j, pair_in_a) + _suit_cost(b, need - j, not pair_in_a)
            best = min(best, cost)
    return best


def _pairs_missing(counts: Counts, void: int) -> int:
    """min |T - H| over the 七对 hands T (a kind held four times is two pairs) without the void
    suit: every pair held stays (at most seven), a single grows into a pair with one tile, and
    any pair still short takes two."""
    kept = [c for k, c in enumerate(counts[:27]) if k // 9 != void]
    pairs = min(7, sum(c // 2 for c in kept))
    singles = sum(c % 2 for c in kept)
    short = 7 - pairs
    return min(short, singles) + 2 * max(0, short - singles)


@lru_cache(maxsize=1 << 18)
def oracle_shanten(counts: Counts, melds: int, void: int | None, melded: frozenset[int] = frozenset()) -> int:
    """The shanten (13 - 3m tiles: 0 waiting; 14 - 3m: -1 complete) with ``void`` the declared
    void suit (None: the suit whose loss costs least among those not in ``melded``, the suits
    of the melds; none left: 99, the hand can never win)."""
    if void is None:
        return min((oracle_shanten(counts, melds, s) for s in range(3) if s not in melded), default=99)
    missing = _regular_missing(counts, melds, void)
    if melds == 0:
        missing = min(missing, _pairs_missing(counts, void))
    return missing - 1


def _changed(counts: Counts, k: int, delta: int) -> Counts:
    return (*counts[:k], counts[k] + delta, *counts[k + 1 :])


def oracle_discard_shanten(
    counts: Counts, melds: int, void: int | None, kinds: list[int], melded: frozenset[int] = frozenset()
) -> dict[int, int]:
    """The shanten each discard of ``kinds`` leaves in a 14 - 3m tile hand."""
    return {t: oracle_shanten(_changed(counts, t, -1), melds, void, melded) for t in kinds}


def oracle_useful(
    counts: Counts, melds: int, void: int | None, melded: frozenset[int] = frozenset()
) -> frozenset[int]:
    """The kinds (0-26) whose draw lowers the shanten of a 13 - 3m tile hand: every kind tried."""
    before = oracle_shanten(counts, melds, void, melded)
    return frozenset(
        k for k in range(27) if oracle_shanten(_changed(counts, k, 1), melds, void, melded) < before
    )


def oracle_waits(
    counts: Counts, melds: int, void: int | None, melded: frozenset[int] = frozenset()
) -> frozenset[int]:
    """The kinds completing a 13 - 3m tile hand (shanten 0): every kind tried."""
    return frozenset(
        k for k in range(27) if oracle_shanten(_changed(counts, k, 1), melds, void, melded) == -1
    )
