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
from mjstats.rulesets.sichuan.suit_table import (
    ENTRIES,
    Features,
    suit_completions,
    suit_entry,
    suit_features,
)
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
    "clear_caches",
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
    "waits_by_key",
    "waits_from_counts",
]

WIN_SIZE = 14  # a winning hand: 14 tiles, kongs counting as 3
HAND_SETS = 4  # 4 sets + 1 pair

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
    try:
        key: bytes | tuple[int, ...] = bytes(counts)  # the replay's key form: one cache for both
    except ValueError:  # a negative count (unchecked input): the tuple key
        key = tuple(counts)
    # The waits depend only on the concealed counts, the counts with the melds, whether there is
    # a meld (七对) and the void suit: one canonical key, so a hand asked about again (the replay
    # re-checks a seat's hand at each discard, the settlement re-checks the final hands) is free.
    return waits_by_key(key, tuple(held) if norm else key, bool(norm), void_suit)


@lru_cache(maxsize=1 << 13)  # hand-level reuse needs only the recent hands
def waits_by_key(
    counts: Sequence[int], held: Sequence[int], melded: bool, void_suit: int | None
) -> frozenset[Tile]:
    """:func:`waits_from_counts` of a checked 13-tile hand by its canonical key: concealed
    counts, concealed + meld counts (tuples or ``bytes``), whether it has a meld, the void suit
    index (memoised)."""
    try:
        raw = bytes(counts)  # the per-suit tables' keys (a bytes key is returned as is)
    except ValueError:  # a count outside 0..255 (a broken record): the tuple route
        return _waits_by_tuples(tuple(counts), tuple(held), melded, void_suit)
    e = (
        ENTRIES.get(raw[0:9]) or suit_entry(raw[0:9]),
        ENTRIES.get(raw[9:18]) or suit_entry(raw[9:18]),
        ENTRIES.get(raw[18:27]) or suit_entry(raw[18:27]),
    )
    if melded:
        present = (any(held[0:9]), any(held[9:18]), any(held[18:27]))
    else:
        present = (e[0][0] > 0, e[1][0] > 0, e[2][0] > 0)
    if void_suit is not None and present[void_suit]:
        return _NO_WAITS  # a void-suit tile must go before any win
    if present[0] and present[1] and present[2]:
        return _NO_WAITS
    two_suits = present[0] + present[1] + present[2] == 2
    out: list[int] = []
    for s, j, k in _GROWERS[e[0][0] % 3 * 9 + e[1][0] % 3 * 3 + e[2][0] % 3]:
        if s == void_suit or (void_suit is None and two_suits and not present[s]):
            continue
        if e[j][1] and e[k][1]:  # the other two split as they are
            base = 9 * s
            out.extend([base + r for r, _ in e[s][2]])
    # 七对: 13 concealed tiles with exactly one kind held an odd number of times (six pairs and
    # a single, a quad being two pairs): the single pairs up.
    if not melded:
        if max(raw) > 4:  # a broken hand: count the uneven kinds one by one
            odd = [k for k in range(27) if raw[k] & 1]
            if len(odd) == 1:
                out.append(odd[0])
        elif raw.count(1) + raw.count(3) == 1:  # (counted in C)
            out.append(raw.find(1) if 1 in raw else raw.find(3))
    if not out:
        return _NO_WAITS
    return frozenset([SUITED[k] for k in out if held[k] < 4])


def _waits_by_tuples(
    counts: tuple[int, ...], held: tuple[int, ...], melded: bool, void_suit: int | None
) -> frozenset[Tile]:
    """:func:`waits_by_key` through the per-suit functions directly (counts that are no bytes)."""
    w, t, b = counts[0:9], counts[9:18], counts[18:27]
    present = (any(held[0:9]), any(held[9:18]), any(held[18:27]))
    if void_suit is not None and present[void_suit]:
        return _NO_WAITS  # a void-suit tile must go before any win
    if all(present):
        return _NO_WAITS
    two_suits = sum(present) == 2
    # A regular wait lies in the one suit that gains the tile; the other suits must split as
    # they are (each suit's splits and completions are memoised).
    keys = (w, t, b)
    sizes = (sum(w) % 3, sum(t) % 3, sum(b) % 3)
    out: list[int] = []
    for s, (j, k) in _OTHER_TWO:
        if s == void_suit or (void_suit is None and two_suits and not present[s]):
            continue
        # one suit holds the pair (3k + 2 tiles), the others 3k: the others must be 0 or 2 now
        # with exactly one 2 after the growing suit gains its tile
        grown = (sizes[s] + 1) % 3
        sj, sk = sizes[j], sizes[k]
        if sj == 1 or sk == 1 or grown == 1 or (grown == 2) + (sj == 2) + (sk == 2) != 1:
            continue
        if suit_features(keys[j], sj == 2) and suit_features(keys[k], sk == 2):
            base = 9 * s
            out.extend(base + r for r in suit_completions(keys[s], grown == 2))
    # 七对: 13 concealed tiles with exactly one kind held an odd number of times (six pairs and
    # a single, a quad being two pairs): the single pairs up.
    if not melded and (max(counts) > 4 or counts.count(0) + counts.count(2) + counts.count(4) == 26):
        # (the count test, done in C, lets through only hands with at most one uneven kind)
        odd = [k for k in range(27) if counts[k] & 1]
        if len(odd) == 1:
            out.append(odd[0])
    if not out:
        return _NO_WAITS
    return frozenset([SUITED[k] for k in out if held[k] < 4])


def clear_caches() -> None:
    """Empty the hand-level caches (waits by canonical key), e.g. before a benchmark; the
    per-suit tables stay (they are a fixed table over 9-count vectors, filled on demand)."""
    waits_by_key.cache_clear()


_NO_WAITS: frozenset[Tile] = frozenset()
_OTHER_TWO = ((0, (1, 2)), (1, (0, 2)), (2, (0, 1)))  # each suit and the two others


def _growers(sizes: tuple[int, int, int]) -> tuple[tuple[int, int, int], ...]:
    """(suit, other, other) for each suit that may take a regular wait when the suits hold
    ``sizes`` tiles mod 3: one suit holds the pair (3k + 2 tiles), the others 3k, so the others
    must be 0 or 2 now with exactly one 2 after the growing suit gains its tile."""
    out = []
    for s, (j, k) in _OTHER_TWO:
        grown, sj, sk = (sizes[s] + 1) % 3, sizes[j], sizes[k]
        if sj != 1 and sk != 1 and grown != 1 and (grown == 2) + (sj == 2) + (sk == 2) == 1:
            out.append((s, j, k))
    return tuple(out)


# the growers of every (size mod 3) triple, indexed by 9 * m0 + 3 * m1 + m2
_GROWERS = tuple(_growers((m // 9, m // 3 % 3, m % 3)) for m in range(27))
GROWERS = _GROWERS  # the same table for fan.ready_values


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
