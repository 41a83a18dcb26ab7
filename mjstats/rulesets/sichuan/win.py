"""Sichuan win shapes with the void suit: complete hands, regular divisions, waits and shanten.

A hand wins (reference §3.1) as 4 sets + 1 pair (sets: concealed sequences, pongs, kongs; melds
count as sets) or as 七对, seven pairs of 14 concealed tiles with no meld at all, where four equal
tiles count as two pairs (龙七对). Either way it must hold no tile of the player's void suit
(定缺, §2.3), so a winning hand has at most two suits (缺一门). When the void suit is not given,
any hand of at most two suits qualifies (the old Chengdu rule without a declaration).

The shape work is mjstats.rules.hand's (count vectors of 34 kinds, regular completeness,
divisions, waits and the shanten formula); this module adds seven pairs, the void suit and the
copy limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from mjstats.errors import InvalidHand
from mjstats.rules import hand as shapes
from mjstats.rulesets.sichuan.tiles import (
    Meld,
    check_copies,
    count_tiles,
    meld_counts,
    normalize_melds,
    parse_suit,
    suited_tiles,
)
from mjstats.tiles import SUITED, Tile

__all__ = [
    "HAND_SETS",
    "WIN_SIZE",
    "is_seven_pairs",
    "is_winning_hand",
    "regular_divisions",
    "regular_features",
    "shanten",
    "suit_completions",
    "suit_features",
    "suits_held",
    "void_ok",
    "waits",
    "waits_from_counts",
]

WIN_SIZE = 14  # a winning hand: 14 tiles, kongs counting as 3
HAND_SETS = 4  # 4 sets + 1 pair

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


@lru_cache(maxsize=1 << 12)
def _combine(a: frozenset[Features], b: frozenset[Features]) -> frozenset[Features]:
    """The features of two parts read together (every choice of a reading of each)."""
    return frozenset((x[0] and y[0], x[1] and y[1], x[2] and y[2]) for x in a for y in b)


def regular_features(counts: Sequence[int]) -> frozenset[Features] | None:
    """The feature triples of every 4 sets + pair reading of the concealed counts (27 kinds),
    None when there is none. Exactly one suit holds the pair (3k + 2 tiles), the others 3k."""
    w, t, b = tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27])
    sw, st, sb = sum(w) % 3, sum(t) % 3, sum(b) % 3
    if sw + st + sb != 2 or 1 in (sw, st, sb):
        return None
    fw = suit_features(w, sw == 2)
    ft = suit_features(t, st == 2)
    fb = suit_features(b, sb == 2)
    if not (fw and ft and fb):
        return None
    return _combine(_combine(fw, ft), fb)


def suits_held(counts: Sequence[int]) -> frozenset[int]:
    """The suits (0 W, 1 T, 2 B) with at least one tile in a 27-kind count vector."""
    return _SUIT_SETS[any(counts[0:9]) + 2 * any(counts[9:18]) + 4 * any(counts[18:27])]


_SUIT_SETS = tuple(frozenset(s for s in range(3) if mask >> s & 1) for mask in range(8))


def void_ok(counts: Sequence[int], void: int | None) -> bool:
    """No tile of the void suit; without a declared void, at most two suits (缺一门)."""
    if void is None:
        return len(suits_held(counts)) <= 2
    return not any(counts[9 * void : 9 * void + 9])


def regular_divisions(counts: Sequence[int], sets: int) -> tuple[shapes.Division, ...]:
    """Every split of the concealed counts (27 kinds, winning tile included) into ``sets`` sets
    + one pair, as mjstats.rules.hand.divisions writes them (("pair", t), ("pung", t), ("chow", low))."""
    return shapes.divisions([*counts, 0, 0, 0, 0, 0, 0, 0], sets)


def is_seven_pairs(counts: Sequence[int], n_melds: int) -> bool:
    """七对: no meld at all and 14 concealed tiles in pairs (a kind held four times is two pairs)."""
    if n_melds or sum(counts) != WIN_SIZE:
        return False
    counts = list(counts)
    return counts.count(1) == counts.count(3) == 0  # every count is 0, 2 or 4


def _complete(counts: Sequence[int], n_melds: int) -> bool:
    # The shared regular-shape check of mjstats.rules.hand; the fan's per-suit readings
    # (regular_features) are a second, independent route to the same answer, and the tests
    # hold the two (and waits) against each other.
    if is_seven_pairs(counts, n_melds):
        return True
    return shapes.is_complete([*counts, 0, 0, 0, 0, 0, 0, 0], HAND_SETS - n_melds)


def _prepared(
    tiles: Iterable[object], melds: Iterable[Sequence[object]], void: object
) -> tuple[list[int], tuple[Meld, ...], list[int], int | None]:
    """(concealed counts, melds, concealed + meld counts, void) checked: suited tiles only, no
    fifth copy, a known suit."""
    norm = normalize_melds(melds) if melds else ()
    counts = count_tiles(suited_tiles(tiles))
    held = [a + b for a, b in zip(meld_counts(norm), counts, strict=True)] if norm else counts
    check_copies(held)
    return counts, norm, held, None if void is None else parse_suit(void)


def is_winning_hand(
    tiles: Iterable[object], melds: Iterable[Sequence[object]] = (), *, void: object = None
) -> bool:
    """Whether ``tiles`` (concealed, winning tile included, ``14 - 3 * len(melds)`` of them) with
    ``melds`` form a regular hand or 七对 holding no tile of the void suit.

    A wrong tile count is simply not a win; an honour, a flower, a chow or a fifth copy raises
    InvalidHand.
    """
    counts, norm, held, void_suit = _prepared(tiles, melds, void)
    if sum(counts) != WIN_SIZE - 3 * len(norm):
        return False
    return void_ok(held, void_suit) and _complete(counts, len(norm))


def waits(
    hand: Iterable[object], melds: Iterable[Sequence[object]] = (), *, void: object = None
) -> frozenset[Tile]:
    """听牌: the kinds that complete a waiting hand of ``13 - 3 * len(melds)`` concealed tiles.

    A wait is never of the void suit, never a kind the hand and its melds already hold four times
    (reference §4.6), and never completes a hand that still holds a void-suit tile. Empty when the
    hand does not wait; InvalidHand for a wrong size.
    """
    counts, norm, held, void_suit = _prepared(hand, melds, void)
    return waits_from_counts(counts, norm, held, void_suit)


def waits_from_counts(
    counts: Sequence[int], norm: tuple[Meld, ...], held: Sequence[int], void_suit: int | None
) -> frozenset[Tile]:
    """:func:`waits` on checked input: concealed counts (27 kinds), normalised melds, concealed
    + meld counts, the void suit index or None."""
    size = sum(counts)
    if size != WIN_SIZE - 1 - 3 * len(norm):
        raise InvalidHand(
            f"a waiting Sichuan hand holds {WIN_SIZE - 1 - 3 * len(norm)} concealed tiles with "
            f"{len(norm)} meld(s), got {size}"
        )
    present = (any(held[0:9]), any(held[9:18]), any(held[18:27]))
    if void_suit is not None and present[void_suit]:
        return _NO_WAITS  # a void-suit tile must go before any win
    if all(present):
        return _NO_WAITS
    two_suits = sum(present) == 2
    # A regular wait lies in the one suit that gains the tile; the other suits must split as
    # they are (each suit's splits and completions are memoised).
    keys = (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]))
    sizes = (sum(keys[0]) % 3, sum(keys[1]) % 3, sum(keys[2]) % 3)
    out: list[int] = []
    for s in (0, 1, 2):
        if s == void_suit or (void_suit is None and two_suits and not present[s]):
            continue
        grown = list(sizes)
        grown[s] = (grown[s] + 1) % 3
        if grown.count(0) != 2 or grown.count(2) != 1:  # one suit holds the pair, the others 3k
            continue
        if all(suit_features(keys[j], grown[j] == 2) for j in (0, 1, 2) if j != s):
            base = 9 * s
            out.extend(base + r for r in suit_completions(keys[s], grown[s] == 2))
    # 七对: 13 concealed tiles with exactly one kind held an odd number of times (six pairs and
    # a single, a quad being two pairs): the single pairs up.
    if not norm:
        odd = [k for k in range(27) if counts[k] & 1]
        if len(odd) == 1:
            out.append(odd[0])
    if not out:
        return _NO_WAITS
    return frozenset([SUITED[k] for k in out if held[k] < 4])


_NO_WAITS: frozenset[Tile] = frozenset()


def shanten(hand: Iterable[object], melds: Iterable[Sequence[object]] = (), *, void: object = None) -> int:
    """Tiles still to change before the hand waits (``13 - 3m`` tiles: 0 = waiting) or wins
    (``14 - 3m``: -1 = complete), honouring the void suit: void-suit tiles are useless and must
    all be replaced. Without a declared void the best suit to give up is taken.

    Regular shape by the shared melds + pair formula, 七对 (no melds) as 6 - pairs, plus one per
    pair that has no single tile left to grow from; a kind held four times is two pairs. At
    least one exchange per void-suit tile (``InvalidHand`` for a meld of the void suit, or melds
    of all three suits).
    """
    counts, norm, _, void_suit = _prepared(hand, melds, void)
    n = len(norm)
    size = sum(counts) + 3 * n
    if size not in (WIN_SIZE - 1, WIN_SIZE):
        raise InvalidHand(f"a Sichuan hand has 13 or 14 tiles with melds counted as 3, got {size}")
    melded = suits_held(meld_counts(norm))
    if void_suit is not None and void_suit in melded:
        raise InvalidHand(f"a meld of the void suit {'WTB'[void_suit]}: void-suit tiles are never melded")
    if len(melded) == 3:
        raise InvalidHand("melds of all three suits: the hand can never win (缺一门)")
    # Give up the declared void, or (no declaration) whichever unmelded suit is best to drop.
    candidates = [void_suit] if void_suit is not None else [s for s in range(3) if s not in melded]
    best = 99
    for suit in candidates:
        kept = list(counts)
        kept[9 * suit : 9 * suit + 9] = [0] * 9
        value = shapes.partial_shanten([*kept, 0, 0, 0, 0, 0, 0, 0], HAND_SETS - n)
        if not n:
            pairs = min(7, sum(c // 2 for c in kept))
            singles = sum(c % 2 for c in kept)
            value = min(value, 6 - pairs + max(0, 7 - pairs - singles))
        # Every void-suit tile must be exchanged before the hand waits (a 14-tile hand may
        # discard one of them for free).
        void_tiles = sum(counts[9 * suit : 9 * suit + 9])
        best = min(best, max(value, void_tiles - (size == WIN_SIZE)))
    return best
