"""Per-suit tables keyed by bytes: the hot lookups of waits, readings and 查大叫 values.

A suit's nine counts as a 9-byte ``bytes`` key (a slice of ``bytes(counts)``) is hashed once
and compared in C, where a 9-tuple is re-hashed on every lookup. Each entry is derived from the
memoised per-suit functions (``suit_features``, ``suit_completions``, moved here from win.py), so the tables
answer exactly what those do, only faster. A reading's features ``(no sequence, all 1/9, all
2/5/8)`` are packed into a bit index ``4 * pungs + 2 * yaojiu + jiang``: reading two parts
together ANDs the flags, which is the bitwise AND of the indexes, so a set of readings is an
8-bit mask and two masks combine through a small table.

The tables are filled on demand and never emptied: like the per-suit functions they are a
fixed function of 9-count vectors (at most 5 ** 9 keys, a few thousand in practice).
"""

from __future__ import annotations

from functools import lru_cache

__all__ = [
    "ENTRIES",
    "NO_GROUPS",
    "Features",
    "SuitEntry",
    "combine",
    "features_mask",
    "suit_completions",
    "suit_entry",
    "suit_features",
]

_TERMINAL = (0, 8)  # rank 1 and 9 (code % 9)
_JIANG = (1, 4, 7)  # rank 2, 5 and 8
Features = tuple[bool, bool, bool]  # (no sequence, every group holds a 1 or 9, every group is 2/5/8)
NO_GROUPS: frozenset[Features] = frozenset({(True, True, True)})


@lru_cache(maxsize=1 << 16)
def suit_features(key: tuple[int, ...], pair: bool) -> frozenset[Features]:
    """The feature triples of every split of one suit's counts (9 ranks) into pongs and
    sequences, plus the pair when ``pair``; empty when no split exists.

    The patterns only ask whether all groups are pongs, all hold a 1 or 9, all are of rank
    2/5/8, so each suit is split on its own and a hand's readings are the combinations of its
    suits'. Memoised: suits repeat far more than hands do.
    """
    i = 0
    while i < 9 and key[i] == 0:
        i += 1
    if i == 9:
        return frozenset() if pair else NO_GROUPS
    out: set[Features] = set()
    terminal = i in _TERMINAL
    jiang = i in _JIANG

    def add(rest: tuple[int, ...], rest_pair: bool, group: Features) -> None:
        for f in suit_features(rest, rest_pair):
            out.add((f[0] and group[0], f[1] and group[1], f[2] and group[2]))

    if pair and key[i] >= 2:
        add((*key[:i], key[i] - 2, *key[i + 1 :]), False, (True, terminal, jiang))
    if key[i] >= 3:
        add((*key[:i], key[i] - 3, *key[i + 1 :]), pair, (True, terminal, jiang))
    if i <= 6 and key[i + 1] and key[i + 2]:
        rest = (*key[:i], key[i] - 1, key[i + 1] - 1, key[i + 2] - 1, *key[i + 3 :])
        add(rest, pair, (False, i in (0, 6), False))
    return frozenset(out)


@lru_cache(maxsize=1 << 16)
def suit_completions(key: tuple[int, ...], pair: bool) -> tuple[int, ...]:
    """Ranks (0-8) whose tile, added to one suit's counts, lets the suit split into sets (plus
    the pair when ``pair``); only ranks within two of a tile already held can. Memoised."""
    out = []
    for r in range(9):
        near = key[r] < 4 and any(key[max(0, r - 2) : r + 3])
        if near and suit_features((*key[:r], key[r] + 1, *key[r + 1 :]), pair):
            out.append(r)
    return tuple(out)


# (tiles in the suit, mask of its readings with the pair iff it holds 3k + 2 tiles (0: none,
# also for 3k + 1 tiles), ((rank, mask of the readings once that rank is added), ...) for every
# rank whose tile lets the grown suit split; empty when the grown suit would hold 3k + 1)
SuitEntry = tuple[int, int, tuple[tuple[int, int], ...]]

ENTRIES: dict[bytes, SuitEntry] = {}  # read directly by the hottest loops (.get, then suit_entry)
_COMBINED: dict[int, int] = {}
_MAX_ENTRIES = 1 << 17  # of 405,350 legal suits (4 a rank, 14 tiles at most) 2,000 replayed hands meet 14,454


def features_mask(features: frozenset[Features]) -> int:
    """The 8-bit mask of a set of feature triples (bit ``4 * pungs + 2 * yaojiu + jiang``)."""
    mask = 0
    for pungs, yaojiu, jiang in features:
        mask |= 1 << (4 * pungs + 2 * yaojiu + jiang)
    return mask


def suit_entry(key: bytes) -> SuitEntry:
    """The table entry of one suit's nine counts (see :data:`SuitEntry`)."""
    entry = ENTRIES.get(key)
    if entry is None:
        if len(ENTRIES) >= _MAX_ENTRIES:  # only broken records reach this many: start again
            ENTRIES.clear()
        entry = ENTRIES[key] = _build(tuple(key))
    return entry


def _build(counts: tuple[int, ...]) -> SuitEntry:
    n = sum(counts)
    mask = 0 if n % 3 == 1 else features_mask(suit_features(counts, n % 3 == 2))
    grown_pair = (n + 1) % 3 == 2
    completions: list[tuple[int, int]] = []
    if (n + 1) % 3 != 1:
        for r in suit_completions(counts, grown_pair):
            grown = (*counts[:r], counts[r] + 1, *counts[r + 1 :])
            completions.append((r, features_mask(suit_features(grown, grown_pair))))
    return n, mask, tuple(completions)


def combine(a: int, b: int) -> int:
    """The mask of two parts read together: every bitwise AND of a bit of ``a`` and one of ``b``."""
    key = a << 8 | b
    out = _COMBINED.get(key)
    if out is None:
        out = 0
        for i in range(8):
            if a >> i & 1:
                for j in range(8):
                    if b >> j & 1:
                        out |= 1 << (i & j)
        _COMBINED[key] = out
    return out
