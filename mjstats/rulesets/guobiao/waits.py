"""Guobiao shanten and waits over every form: regular, 七对, 十三幺, 全不靠/七星不靠, 组合龙.

Shape only: the 8-fan minimum and copy limits are not considered, so a kind whose four copies are
all held is still a wait (as in the reference calculator, PyMahjongGB). Special forms apply to a
fully concealed hand, except 组合龙, which also allows one exposed meld (reference guobiao.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from mjstats.errors import InvalidHand, TileError
from mjstats.rules.hand import is_complete, partial_shanten, regular_shanten, regular_waits
from mjstats.rulesets.guobiao.divide import KNITTED_STRAIGHTS, TERMINALS_AND_HONOURS
from mjstats.rulesets.guobiao.incremental import guobiao_shanten, guobiao_useful_mask
from mjstats.tiles import ALL_KINDS, Tile, parse_tile, parse_tiles

__all__ = [
    "KNITTED_STRAIGHTS",
    "TERMINALS_AND_HONOURS",
    "FormShanten",
    "hand_counts",
    "shanten",
    "shanten_by_form",
    "special_may_wait",
    "waits",
    "waits_by_parts",
    "waits_mask",
]

# TERMINALS_AND_HONOURS and KNITTED_STRAIGHTS (组合龙: 147, 258, 369 each in a different suit)
# come from the division module, so both modules read one definition
# Final copies: the compiled build reads them as constants, not from the module's globals
_TERMINALS: Final = TERMINALS_AND_HONOURS
_STRAIGHTS: Final = KNITTED_STRAIGHTS
_HONOURS = tuple(range(27, 34))
_STRAIGHT_SETS = tuple(frozenset(k) for k in KNITTED_STRAIGHTS)
_KNITTED_CANDIDATES = tuple(k + _HONOURS for k in KNITTED_STRAIGHTS)  # 全不靠: 16 candidates
_FAR = 99  # shanten of a form the hand cannot take (exposed melds)


@dataclass(frozen=True, slots=True)
class FormShanten:
    """Shanten of each winning form (``None`` where exposed melds rule the form out)."""

    regular: int
    seven_pairs: int | None
    thirteen_orphans: int | None
    honours_knitted: int | None
    knitted_straight: int | None

    @property
    def best(self) -> int:
        return min(
            s
            for s in (
                self.regular,
                self.seven_pairs,
                self.thirteen_orphans,
                self.honours_knitted,
                self.knitted_straight,
            )
            if s is not None
        )


def _tile(value: object) -> Tile:
    if type(value) is int and 0 <= value < 34:  # fast path: plain codes from simulators
        return ALL_KINDS[value]
    try:
        tile = parse_tile(value)  # type: ignore[arg-type]
    except TileError as exc:
        raise InvalidHand(str(exc)) from None
    if tile.is_flower:
        raise InvalidHand(f"a flower ({tile}) is never part of a hand")
    return tile


def _meld_tiles(meld: Sequence[object]) -> tuple[int, ...]:
    if len(meld) != 3:
        raise InvalidHand(f"a meld is (kind, tile, offer), got {meld!r}")
    kind = str(meld[0]).upper()
    tile = _tile(meld[1])
    if kind == "CHI":
        if not tile.is_suited or tile.rank in (1, 9):
            raise InvalidHand(f"CHI names the middle tile of a suited run, got {tile}")
        return (tile - 1, tile, tile + 1)
    if kind == "PENG":
        return (tile,) * 3
    if kind == "GANG":
        return (tile,) * 4
    raise InvalidHand(f"unknown meld kind {meld[0]!r}: one of CHI, PENG, GANG")


def hand_counts(
    hand: str | Iterable[object], melds: Iterable[Sequence[object]] = ()
) -> tuple[list[int], int]:
    """The concealed hand as a 34-count vector and the number of exposed melds, after checking
    the tile count (13 - 3 x melds) and that no kind has a fifth copy; raises InvalidHand."""
    if isinstance(hand, str):
        try:
            tiles = [_tile(t) for t in parse_tiles(hand)]
        except TileError as exc:
            raise InvalidHand(str(exc)) from None
    else:
        tiles = [_tile(t) for t in hand]
    meld_list = list(melds)
    if len(meld_list) > 4:
        raise InvalidHand(f"at most 4 exposed melds, got {len(meld_list)}")
    expected = 13 - 3 * len(meld_list)
    if len(tiles) != expected:
        raise InvalidHand(
            f"with {len(meld_list)} melds the concealed hand has {expected} tiles, got {len(tiles)}"
        )
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    seen = list(counts)
    for meld in meld_list:
        for k in _meld_tiles(meld):
            seen[k] += 1
    for k in range(34):
        if seen[k] > 4:
            raise InvalidHand(f"{seen[k]} copies of {ALL_KINDS[k]}: there are only four")
    return counts, len(meld_list)


# --- shanten per form --------------------------------------------------------------------------


def _seven_pairs_shanten(counts: list[int]) -> int:
    # four of a kind count as two pairs (七对 with 四归一, reference calculator)
    return 6 - (counts.count(2) + counts.count(3) + 2 * counts.count(4))


def _thirteen_orphans_shanten(counts: Sequence[int]) -> int:
    held = [counts[t] for t in TERMINALS_AND_HONOURS if counts[t]]
    return 13 - len(held) - (1 if held and max(held) >= 2 else 0)


def _straight_hits(counts: Sequence[int]) -> list[int]:
    """How many of each knitted straight's nine tiles the hand holds (distinct kinds)."""
    have = {t for t in range(27) if counts[t]}
    return [len(have & straight) for straight in _STRAIGHT_SETS]


def _honours_knitted_shanten(counts: Sequence[int], hits: list[int]) -> int:
    # 14 different tiles out of one knitted straight's nine and the seven honours
    return 13 - sum(1 for t in _HONOURS if counts[t]) - max(hits)


def _knitted_straight_shanten(counts: Sequence[int], exposed: int, hits: list[int], bound: int = _FAR) -> int:
    """Missing tiles of the knitted straight plus the shanten of the rest as melds + pair
    (reference calculator's measure); ``bound`` is returned when no straight does better."""
    best = bound
    trial = list(counts)
    for straight, hit in zip(KNITTED_STRAIGHTS, hits, strict=True):
        missing = 9 - hit
        if missing - 1 >= best:  # the rest is at best complete (-1)
            continue
        held = [t for t in straight if counts[t]]
        for t in held:
            trial[t] -= 1
        rest = partial_shanten(trial, 1 - exposed)
        for t in held:
            trial[t] += 1
        best = min(best, missing + rest)
    return best


def shanten_by_form(hand: str | Iterable[object], melds: Iterable[Sequence[object]] = ()) -> FormShanten:
    """Shanten of each winning form for a 13 - 3 x melds tile concealed hand (0 = waiting)."""
    counts, exposed = hand_counts(hand, melds)
    return _form_shanten(counts, exposed)


def _form_shanten(counts: list[int], exposed: int) -> FormShanten:
    regular = regular_shanten(counts, 4 - exposed)
    if exposed > 1:
        return FormShanten(regular, None, None, None, None)
    hits = _straight_hits(counts)
    knitted = _knitted_straight_shanten(counts, exposed, hits)
    if exposed:
        return FormShanten(regular, None, None, None, knitted)
    return FormShanten(
        regular,
        _seven_pairs_shanten(counts),
        _thirteen_orphans_shanten(counts),
        _honours_knitted_shanten(counts, hits),
        knitted,
    )


def shanten(hand: str | Iterable[object], melds: Iterable[Sequence[object]] = ()) -> int:
    """Least shanten over every Guobiao winning form (0 = waiting; never -1 for 13 - 3m tiles)."""
    counts, exposed = hand_counts(hand, melds)
    best = regular_shanten(counts, 4 - exposed)
    if exposed > 1:
        return best
    hits = _straight_hits(counts)
    if exposed == 0:
        best = min(
            best,
            _seven_pairs_shanten(counts),
            _thirteen_orphans_shanten(counts),
            _honours_knitted_shanten(counts, hits),
        )
    if best > 0:
        best = _knitted_straight_shanten(counts, exposed, hits, best)
    return best


# --- waits -------------------------------------------------------------------------------------


def _knitted_straight_complete(counts: list[int], exposed: int) -> bool:
    """Whether a 14 - 3 x melds tile hand is a knitted straight plus melds + pair (组合龙)."""
    for straight in KNITTED_STRAIGHTS:
        if all(counts[t] for t in straight):
            for t in straight:
                counts[t] -= 1
            done = is_complete(counts, 1 - exposed)
            for t in straight:
                counts[t] += 1
            if done:
                return True
    return False


def waits(hand: str | Iterable[object], melds: Iterable[Sequence[object]] = ()) -> frozenset[Tile]:
    """Kinds that complete the hand in some winning form (empty when it is not waiting).

    By shape only: the 8-fan minimum is not checked, and a kind all of whose copies are already
    held is still listed.
    """
    counts, exposed = hand_counts(hand, melds)
    found: set[int] = set()
    if regular_shanten(counts, 4 - exposed) == 0:
        found.update(regular_waits(counts, 4 - exposed))
    if exposed > 1:
        return frozenset(ALL_KINDS[k] for k in found)
    hits = _straight_hits(counts)
    if not exposed:
        if _seven_pairs_shanten(counts) == 0:
            found.update(t for t in range(34) if counts[t] % 2)  # the one unpaired tile
        if _thirteen_orphans_shanten(counts) == 0:
            missing = [t for t in TERMINALS_AND_HONOURS if not counts[t]]
            found.update(missing or TERMINALS_AND_HONOURS)  # all thirteen when none is paired
        if _honours_knitted_shanten(counts, hits) == 0:
            for cands in _KNITTED_CANDIDATES:
                if max(counts) == 1 and sum(1 for t in cands if counts[t]) == 13:
                    found.update(t for t in cands if not counts[t])
    if _knitted_straight_shanten(counts, exposed, hits, bound=1) == 0:
        for k in range(34):
            counts[k] += 1
            if _knitted_straight_complete(counts, exposed):
                found.add(k)
            counts[k] -= 1
    return frozenset(ALL_KINDS[k] for k in found)


# --- waits as a kinds mask, for the decision judge -----------------------------------------------


def _kinds_mask(kinds: Iterable[int]) -> int:
    out = 0
    for k in kinds:
        out |= 1 << k
    return out


_TERMINALS_MASK: Final = _kinds_mask(TERMINALS_AND_HONOURS)
_STRAIGHT_MASKS: Final = tuple(_kinds_mask(straight) for straight in KNITTED_STRAIGHTS)
_SUITED_MASK: Final = (1 << 27) - 1


def _ones(mask: int) -> int:
    """The set bits of a kinds mask (compiled: a C loop, where ``int.bit_count`` is a method call)."""
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def special_may_wait(counts: tuple[int, ...], melds: int) -> bool:
    """Whether a 13 - 3m tile hand (34 counts) may wait on a special form (十三幺, 全不靠,
    组合龙): each test is necessary for its form to be one tile away, as in ``shanten``. The
    kinds held are one mask, counted by bits (no tuple.count or generator over the counts)."""
    if melds > 1:
        return False  # reference guobiao.md: special forms are concealed, 组合龙 takes one meld
    held = 0
    for k in range(34):
        if counts[k]:
            held |= 1 << k
    if melds == 0:
        kinds = _ones(held)
        if kinds >= 13:  # 全不靠: 13 different kinds
            return True
        if kinds >= 12 and _ones(held & _TERMINALS_MASK) >= 12:  # 十三幺
            return True
    # 组合龙: 8 of a knitted straight's 9 tiles
    if _ones(held & _SUITED_MASK) < 8:
        return False
    return any(_ones(held & straight) >= 8 for straight in _STRAIGHT_MASKS)


_MELD_SPAN = {"CHI": (-1, 0, 1), "PENG": (0, 0, 0), "GANG": (0, 0, 0, 0)}


def waits_by_parts(counts: tuple[int, ...], melds: tuple[tuple[str, int, int], ...]) -> bool:
    """Whether ``waits_mask`` answers a hand (34 counts; melds as (kind, tile, offer)) from the
    part tables: 13 - 3m tiles, melds ``waits`` takes, no fifth copy, no special form possible.
    Then its waits are its regular form's and 七对's: none above shanten 0, at 0 the kinds whose
    draw completes it (``guobiao_useful_mask``)."""
    return _plain_hand(counts, melds) and not special_may_wait(counts, len(melds))


def _plain_hand(counts: tuple[int, ...], melds: tuple[tuple[str, int, int], ...]) -> bool:
    """Whether ``waits`` takes the hand as it is: 13 - 3m tiles, melds it reads, no fifth copy
    (counting the melds). The counts are read in one native loop (the tiles and the most
    copies), a copy of them made only for a hand with melds."""
    exposed = len(melds)
    total = 0
    top = 0
    for k in range(34):
        n = counts[k]
        total += n
        if n > top:
            top = n
    if total != 13 - 3 * exposed:
        return False
    if exposed:
        seen = list(counts)
        for kind, tile, _ in melds:
            span = _MELD_SPAN.get(kind)
            if span is None or not 0 <= tile < 34 or (kind == "CHI" and (tile >= 27 or tile % 9 in (0, 8))):
                return False  # not a meld ``waits`` takes: it says why the hand is rejected
            for d in span:
                n = seen[tile + d] + 1
                seen[tile + d] = n
                if n > top:
                    top = n
    return top <= 4


def _special_one_away(counts: tuple[int, ...], exposed: int) -> bool:
    """Whether some special form of a hand ``waits`` takes may be at shanten 0, by the measures
    ``waits`` itself tests: 十三幺 or 全不靠 (no melds) at 0, or a knitted straight missing at
    most one tile (组合龙, at most one meld: ``waits`` asks its exact shanten only then)."""
    if exposed > 1:
        return False
    hits = _straight_hits(counts)
    if exposed == 0 and (
        _thirteen_orphans_shanten(counts) == 0 or _honours_knitted_shanten(counts, hits) == 0
    ):
        return True
    return max(hits) >= 8  # _knitted_straight_shanten: missing - 1 >= 1 is never 0


def waits_mask(counts: tuple[int, ...], melds: tuple[tuple[str, int, int], ...]) -> int:
    """``waits`` of a 13 - 3m tile hand (34 counts; melds as (kind, tile, offer)) as a kinds mask
    (bit k for kind k), 0 where ``waits`` rejects the hand. A hand that cannot wait on a special
    form, or none of whose special forms is one tile away by ``waits``' own measures, waits on
    what completes its regular form or 七对: the kinds whose draw takes its shanten
    (``incremental``'s part tables) from 0 to complete; any other hand asks ``waits``."""
    if _plain_hand(counts, melds):
        exposed = len(melds)
        if not special_may_wait(counts, exposed) or not _special_one_away(counts, exposed):
            if guobiao_shanten(counts, exposed) != 0:
                return 0
            return guobiao_useful_mask(counts, exposed)  # reference guobiao.md: 4 melds + pair, 七对
    return _waits_mask(counts, melds)


@lru_cache(maxsize=1 << 13)
def _waits_mask(counts: tuple[int, ...], melds: tuple[tuple[str, int, int], ...]) -> int:
    tiles = [t for t, n in enumerate(counts) for _ in range(n)]
    try:
        found = waits(tiles, list(melds))
    except InvalidHand:
        return 0
    out = 0
    for t in found:
        out |= 1 << int(t)
    return out
