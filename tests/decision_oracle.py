"""The straightforward Guobiao discard shanten and useful kinds, kept as the oracle of the fast
path in ``mjstats.rulesets.guobiao.incremental`` (tests/test_decision_speed.py): the engine's
option tuples merged part by part, each draw of each candidate tried.
"""

from __future__ import annotations

from functools import lru_cache

from mjstats.integrity.useful import near_kinds

# the engine's memoised per-suit tables and merges (one implementation of the formula)
from mjstats.rules.hand import _honour_options, _least_value, _merged, _suit_opts_of

__all__ = ["oracle_discard_shanten", "oracle_useful"]

Counts = tuple[int, ...]
_Options = tuple[tuple[int, int, int], ...]


def _part(counts: Counts, p: int) -> _Options:
    if p < 3:
        return _suit_opts_of(counts[9 * p : 9 * p + 9])
    return _honour_options(tuple(sorted(c for c in counts[27:34] if c)))


def _rests(opts: list[_Options]) -> list[_Options]:
    """For each part, the merge of the other three."""
    a, b, c, d = opts
    ab, cd = _merged(a, b), _merged(c, d)
    return [_merged(b, cd), _merged(a, cd), _merged(ab, d), _merged(ab, c)]


def _seven_pairs(counts: Counts) -> int:
    # reference guobiao.md 七对 (four of a kind as two pairs), as GuobiaoShape counts it
    return 6 - counts.count(2) - counts.count(3) - 2 * counts.count(4)


def _changed(counts: Counts, k: int, delta: int) -> Counts:
    return (*counts[:k], counts[k] + delta, *counts[k + 1 :])


def _near(counts: Counts) -> list[int]:
    """Kinds that can join a held tile in a set (as mjstats.integrity.useful decides)."""
    return sorted(near_kinds(counts))


def oracle_discard_shanten(counts: Counts, melds: int, kinds: list[int]) -> dict[int, int]:
    """The shanten left by discarding each of ``kinds`` from a 14 - 3m tile hand."""
    groups = 4 - melds
    opts = [_part(counts, p) for p in range(4)]
    rests = _rests(opts)
    seven = _seven_pairs(counts) if melds == 0 else 99
    out = {}
    for t in kinds:
        p = 3 if t >= 27 else t // 9
        after = _changed(counts, t, -1)
        s = _least_value(_merged(rests[p], _part(after, p)), groups)
        if melds == 0:
            n = counts[t]  # 2 -> 1 and 4 -> 3 lose a pair; 3 -> 2 and 1 -> 0 keep them
            sp = seven + (1 if n in (2, 4) else 0)
            s = min(s, sp)
        out[t] = s
    return out


@lru_cache(maxsize=1 << 18)
def _suit_useful(rest: _Options, suit: Counts, groups: int, before: int) -> tuple[int, ...]:
    """The ranks of a suit (its 9 counts) whose draw takes the hand below ``before``, the other
    parts merged into ``rest``. Rest option sets are few (a few hundred in a whole dataset) and
    suits repeat, so this is looked up far more often than computed."""
    near: set[int] = set()
    for r, n in enumerate(suit):
        if n:
            near.update(range(max(0, r - 2), min(9, r + 3)))
    out = []
    for r in sorted(near):
        part = _suit_opts_of((*suit[:r], suit[r] + 1, *suit[r + 1 :]))
        if _least_value(_merged(rest, part), groups) < before:
            out.append(r)
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def _honour_useful(rest: _Options, held: Counts, groups: int, before: int) -> frozenset[int]:
    """The counts (1-4) of a held honour whose one more copy takes the hand below ``before``
    (``held``: the honours' sorted non-zero counts)."""
    out = set()
    for c in set(held):
        changed = list(held)
        changed[changed.index(c)] = c + 1
        if _least_value(_merged(rest, _honour_options(tuple(sorted(changed)))), groups) < before:
            out.add(c)
    return frozenset(out)


@lru_cache(maxsize=1 << 16)
def oracle_useful(counts: Counts, melds: int) -> frozenset[int]:
    """The kinds whose draw lowers the shanten of a 13 - 3m tile hand (regular form and 七对):
    the same set as ``mjstats.integrity.useful.useful_kinds(counts, melds, None)``."""
    groups = 4 - melds
    opts = [_part(counts, p) for p in range(4)]
    rests = _rests(opts)
    regular = _least_value(_merged(rests[0], opts[0]), groups)
    seven = _seven_pairs(counts) if melds == 0 else 99
    before = min(regular, seven)
    out = set()
    for p in range(3):
        suit = counts[9 * p : 9 * p + 9]
        if any(suit):
            out.update(9 * p + r for r in _suit_useful(rests[p], suit, groups, before))
    honours = counts[27:34]
    if any(honours):
        held = tuple(sorted(c for c in honours if c))
        good = _honour_useful(rests[3], held, groups, before)
        out.update(27 + i for i, c in enumerate(honours) if c in good)
    if melds == 0 and seven - 1 < before:  # 1 -> 2 and 3 -> 4 make a pair for 七对
        out.update(k for k, c in enumerate(counts) if c in (1, 3))
    return frozenset(out)
