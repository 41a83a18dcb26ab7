"""Simulated Sichuan players: four deterministic styles (docs/simulation.md, Sichuan).

A bot sees its own tiles (27 counts), its melds, its void suit and the tiles face up on the
table (rivers, melds, concealed kongs, won tiles and the shown hands of seats that have won);
it only chooses among the moves the game offers (mjstats.rulesets.sichuan.game), so every
recorded action is legal. Hand quality is measured by the decision judge's own engine
(``mjstats.rulesets.sichuan.decisions``: the ``shape`` part's shanten with the seat's void suit,
七对 and 龙七对 included), so a greedy discard is efficient by the judge's measure
(docs/decisions.md, "Flags"): the least shanten, then, waiting, the most live winning tiles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mjstats.decision.view import Counts
from mjstats.errors import MjstatsError
from mjstats.rulesets.sichuan.decisions import (
    discards_shanten,
    hand_shanten,
    seat_voids,
    useful_after_discards,
)
from mjstats.rulesets.sichuan.shape import void_shanten

__all__ = ["SICHUAN_DEFAULT_STYLES", "SICHUAN_STYLES", "SichuanBot", "SichuanStyle", "sichuan_style"]

_HONOURS = (0,) * 7  # kinds 27-33: none in Sichuan (reference sichuan.md §1.1)
_NOTHING_SEEN = (0,) * 27  # no table given: every copy the bot does not hold is live
Melds = list[tuple[str, int, int]]


@dataclass(frozen=True, slots=True)
class SichuanStyle:
    """How a Sichuan bot plays."""

    name: str
    description: str
    void_by_shape: bool = False  # picks the void suit whose loss costs the least shanten
    flush: bool = False  # plays for 清一色 and passes other discard wins early on
    kong_happy: bool = False  # pongs and kongs whatever it costs (刮风下雨 money)


SICHUAN_STYLES: dict[str, SichuanStyle] = {
    s.name: s
    for s in (
        SichuanStyle(
            "greedy",
            "declares the suit it holds fewest of void, throws void tiles first, then the tile "
            "that leaves the lowest shanten (七对 counted, as the decision judge measures it) and, "
            "once waiting, keeps the most live winning tiles; pongs and kongs only when that gets "
            "it closer; always wins",
        ),
        SichuanStyle(
            "voidfirst",
            "as greedy, but declares void the suit whose loss costs its hand the least shanten "
            "and clears it first, the most isolated void tile first",
            void_by_shape=True,
        ),
        SichuanStyle(
            "flush",
            "chases 清一色: throws tiles outside its strongest suit first once at most five lie "
            "outside it (then discards as greedy), claims only that suit, and passes discard wins "
            "that are not 清一色 while more than 20 tiles remain (a pass lock follows; never in "
            "the last four)",
            flush=True,
        ),
        SichuanStyle(
            "konger",
            "as greedy (the same discards), but pongs every tile it can and declares every kong "
            "it can (direct, added and concealed), for the kong money",
            kong_happy=True,
        ),
    )
}
SICHUAN_DEFAULT_STYLES = ("greedy", "voidfirst", "flush", "konger")


def sichuan_style(name: str) -> SichuanStyle:
    style = SICHUAN_STYLES.get(name)
    if style is None:
        known = ", ".join(SICHUAN_STYLES)
        raise MjstatsError(f"unknown Sichuan bot style {name!r} (known: {known})")
    return style


def _voids(void: int | None, melds: Melds) -> tuple[int, ...]:
    """The suits the seat may hold void, as the judge's seat view takes them: its declared one,
    or (a profile without 定缺) the suits of none of its melds (reference sichuan.md §2.3)."""
    if void is not None:
        return (void,)
    return seat_voids(None, frozenset(t // 9 for _, t, _ in melds))


def _counts34(counts: Sequence[int]) -> Counts:
    return (*counts, *_HONOURS)


def shanten_of(counts: Sequence[int], melds: Melds, void: int | None, sets: int | None = None) -> int:
    """The judge's shanten of the concealed ``counts`` (27 kinds) with ``melds`` down (``sets``:
    that many sets instead of ``len(melds)``): the ``shape`` part's, every void tile one more to
    take in, 七对 with no meld (docs/decisions.md, Sichuan; reference sichuan.md §2.3, §3.1)."""
    n = len(melds) if sets is None else sets
    hand, voids = _counts34(counts), _voids(void, melds)
    if sum(counts) + 3 * n == 13:
        return hand_shanten(hand, n, voids)  # the judge's own path (memoised part tables)
    # a hand of 14 - 3m tiles (before its discard): the shape part's exact formula it rests on
    return min((void_shanten(hand, n, s) for s in voids), default=99)


def live_copies(kinds: int, counts: Sequence[int], visible: Sequence[int]) -> int:
    """Copies of the kinds of a kinds mask the player cannot see: 4 less its own concealed
    tiles less every tile face up (docs/decisions.md, "Useful tiles"), none below 0."""
    total = 0
    k = 0
    while kinds:
        if kinds & 1:
            total += max(4 - counts[k] - visible[k], 0)
        kinds >>= 1
        k += 1
    return total


def _isolation(counts: list[int], t: int) -> int:
    """Neighbours of ``t`` in its suit (lower: more isolated, thrown first)."""
    r = t % 9
    near = counts[t] - 1
    for d in (-2, -1, 1, 2):
        if 0 <= r + d <= 8:
            near += counts[t + d] * (2 if abs(d) == 1 else 1)
    return near


class SichuanBot:
    """One seat's decisions under a style."""

    __slots__ = ("style",)

    def __init__(self, style: SichuanStyle) -> None:
        self.style = style

    def choose_void(self, counts: list[int]) -> int:
        sizes = [sum(counts[9 * s : 9 * s + 9]) for s in range(3)]
        if self.style.void_by_shape:
            return min(range(3), key=lambda s: (shanten_of(counts, [], s), sizes[s], s))
        return min(range(3), key=lambda s: (sizes[s], s))

    def choose_exchange(self, counts: list[int]) -> list[int]:
        """换三张: three tiles of the shortest suit holding at least three, most isolated first."""
        sizes = [sum(counts[9 * s : 9 * s + 9]) for s in range(3)]
        suit = min((s for s in range(3) if sizes[s] >= 3), key=lambda s: (sizes[s], s))
        tiles = [t for t in range(9 * suit, 9 * suit + 9) for _ in range(counts[t])]
        tiles.sort(key=lambda t: (_isolation(counts, t), -t))
        return tiles[:3]

    def flush_suit(
        self, counts: list[int], melds: list[tuple[str, int, int]], void: int | None
    ) -> int | None:
        """The suit a flush bot plays for (its strongest) when at most five tiles lie outside."""
        if not self.style.flush:
            return None
        held = list(counts)
        for _, t, _ in melds:
            held[t] += 3
        sizes = [sum(held[9 * s : 9 * s + 9]) if s != void else -1 for s in range(3)]
        best = max(range(3), key=lambda s: (sizes[s], -s))
        outside = sum(sizes[s] for s in range(3) if s != best and s != void)
        return best if outside <= 5 else None

    def discard(
        self,
        counts: list[int],
        melds: Melds,
        void: int | None,
        visible: Callable[[], Sequence[int]] | None = None,
    ) -> int:
        """The tile to throw: a void tile while any is held (the most isolated; reference §2.3,
        and always among the judge's best), then (flush: tiles outside its suit first) the
        judge's measure (docs/decisions.md, "Flags"): the least shanten, then, when that leaves
        the hand waiting, the most live winning tiles (``visible()``: the tiles face up, by
        kind; none given, every copy not held counts as live), then the most isolated, then
        the highest."""
        if void is not None:
            voids = [t for t in range(9 * void, 9 * void + 9) if counts[t]]
            if voids:
                return min(voids, key=lambda t: (_isolation(counts, t), -t))
        flush = self.flush_suit(counts, melds, void)
        if flush is not None:
            off = [t for t in range(27) if counts[t] and t // 9 != flush]
            if off:
                return min(off, key=lambda t: (_isolation(counts, t), -t))
        kinds = [t for t in range(27) if counts[t]]
        hand, voids = _counts34(counts), _voids(void, melds)
        left = discards_shanten(hand, len(melds), kinds, voids)
        best = min(left.values())
        candidates = [t for t in kinds if left[t] == best]
        # waiting (docs/decisions.md, "Flags"): keeping fewer winning tiles than the best discard
        # is inefficient; further away the shanten alone decides (the kinds asked only then)
        ready = best == 0 and len(candidates) > 1
        useful = useful_after_discards(hand, len(melds), candidates, voids) if ready else {}
        seen: Sequence[int] = _NOTHING_SEEN
        if ready and visible is not None:
            seen = visible()
        choice, top = -1, None
        for t in candidates:
            counts[t] -= 1
            live = live_copies(useful[t], counts, seen) if ready else 0
            key = (-live, _isolation(counts, t) + 1, -t)
            counts[t] += 1
            if top is None or key < top:
                top, choice = key, t
        return choice

    def wants_pong(self, counts: list[int], melds: Melds, void: int | None, tile: int) -> bool:
        """A pong when the best discard after it leaves a lower shanten than the hand has now
        (the judge's measure, docs/decisions.md: ``call_worse`` compares the same two); the
        kong-happy style always, the flush chaser only of its suit."""
        if self.style.kong_happy:
            return True
        flush = self.flush_suit(counts, melds, void)
        if flush is not None and tile // 9 != flush:
            return False
        # after a pong a tile goes: compare with one tile fewer (the 11 left less the discard)
        before = shanten_of(counts, melds, void)
        ponged = [*melds, ("PENG", tile, 0)]
        counts[tile] -= 2
        kinds = [t for t in range(27) if counts[t]]
        left = discards_shanten(_counts34(counts), len(ponged), kinds, _voids(void, ponged)) if kinds else {}
        counts[tile] += 2
        return min(left.values(), default=99) < before

    def wants_kong(
        self,
        counts: list[int],
        melds: list[tuple[str, int, int]],
        void: int | None,
        tile: int,
        added: bool = False,
    ) -> bool:
        """A kong of ``tile`` (its copies leave the hand; an added kong turns a pong into a kong)
        when the shanten does not get worse; the kong-happy style always."""
        if self.style.kong_happy:
            return True
        before = shanten_of(counts, melds, void)
        held = counts[tile]
        counts[tile] = 0
        after = shanten_of(counts, [*melds, ("GANG", tile, 0)], void, len(melds) + (0 if added else 1))
        counts[tile] = held
        return after <= before

    def wants_win(self, flush_win: bool, on_discard: bool, wall_left: int) -> bool:
        """Every style wins when it can, but the flush chaser passes discard wins that are not
        清一色 while more than 20 tiles remain."""
        return not (self.style.flush and on_discard and not flush_win and wall_left > 20)
