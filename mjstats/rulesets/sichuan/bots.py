"""Simulated Sichuan players: four deterministic styles (docs/simulation.md, Sichuan).

A bot sees its own tiles (27 counts), its melds, its void suit and the tiles visible on the
table; it only chooses among the moves the game offers (mjstats.rulesets.sichuan.game), so
every recorded action is legal. Hand quality is the melds + pair shanten of the tiles outside
the void suit (``mjstats.rules.hand.partial_shanten``, memoised per suit).
"""

from __future__ import annotations

from dataclasses import dataclass

from mjstats.errors import MjstatsError
from mjstats.rules.hand import partial_shanten

__all__ = ["SICHUAN_DEFAULT_STYLES", "SICHUAN_STYLES", "SichuanBot", "SichuanStyle", "sichuan_style"]

_HONOURS = [0] * 7


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
            "that leaves the lowest shanten; pongs and kongs only when that gets it closer; "
            "always wins",
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
            "outside it, claims only that suit, and passes discard wins that are not 清一色 "
            "while more than 20 tiles remain (a pass lock follows; never in the last four)",
            flush=True,
        ),
        SichuanStyle(
            "konger",
            "as greedy, but pongs every tile it can and declares every kong it can (direct, "
            "added and concealed), for the kong money",
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


def shanten_of(counts: list[int], melds: int, void: int | None) -> int:
    """Melds + pair shanten of the tiles outside the void suit (void tiles count one each)."""
    kept = list(counts)
    extra = 0
    if void is not None:
        extra = sum(kept[9 * void : 9 * void + 9])
        kept[9 * void : 9 * void + 9] = [0] * 9
    return partial_shanten(kept + _HONOURS, 4 - melds) + extra


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
            return min(range(3), key=lambda s: (shanten_of(counts, 0, s), sizes[s], s))
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

    def discard(self, counts: list[int], melds: list[tuple[str, int, int]], void: int | None) -> int:
        """The tile to throw: a void tile while any is held (the most isolated), then the lowest
        shanten (flush: tiles outside its suit first), ties the most isolated, then the highest."""
        n = len(melds)
        if void is not None:
            voids = [t for t in range(9 * void, 9 * void + 9) if counts[t]]
            if voids:
                return min(voids, key=lambda t: (_isolation(counts, t), -t))
        flush = self.flush_suit(counts, melds, void)
        if flush is not None:
            off = [t for t in range(27) if counts[t] and t // 9 != flush]
            if off:
                return min(off, key=lambda t: (_isolation(counts, t), -t))
        best: tuple[int, int, int] | None = None
        choice = -1
        for t in range(27):
            if not counts[t]:
                continue
            counts[t] -= 1
            key = (shanten_of(counts, n, void), _isolation(counts, t) + 1, -t)
            counts[t] += 1
            if best is None or key < best:
                best, choice = key, t
        return choice

    def _closer(self, counts: list[int], melds: int, void: int | None, tile: int, need: int) -> bool:
        """Whether melding ``need`` copies of ``tile`` (and the best discard) keeps or improves
        the shanten: strictly for greedy play, not worse for the kong-happy style."""
        before = shanten_of(counts, melds, void)
        counts[tile] -= need
        after = shanten_of(counts, melds + 1, void)
        counts[tile] += need
        return after <= before if self.style.kong_happy else after < before

    def wants_pong(
        self, counts: list[int], melds: list[tuple[str, int, int]], void: int | None, tile: int
    ) -> bool:
        if self.style.kong_happy:
            return True
        flush = self.flush_suit(counts, melds, void)
        if flush is not None and tile // 9 != flush:
            return False
        # after a pong a tile goes: compare with one tile fewer (the 11 left less the discard)
        before = shanten_of(counts, len(melds), void)
        counts[tile] -= 2
        after = min(
            (self._after_discard(counts, len(melds) + 1, void, t) for t in range(27) if counts[t]), default=99
        )
        counts[tile] += 2
        return after < before

    def _after_discard(self, counts: list[int], melds: int, void: int | None, t: int) -> int:
        counts[t] -= 1
        value = shanten_of(counts, melds, void)
        counts[t] += 1
        return value

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
        before = shanten_of(counts, len(melds), void)
        held = counts[tile]
        counts[tile] = 0
        after = shanten_of(counts, len(melds) + (0 if added else 1), void)
        counts[tile] = held
        return after <= before

    def wants_win(self, flush_win: bool, on_discard: bool, wall_left: int) -> bool:
        """Every style wins when it can, but the flush chaser passes discard wins that are not
        清一色 while more than 20 tiles remain."""
        return not (self.style.flush and on_discard and not flush_win and wall_left > 20)
