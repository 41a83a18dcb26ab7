"""Fuzhou's hand shapes for the simulator's bots and the integrity tests: the gold is wild."""

from __future__ import annotations

from functools import cache, lru_cache

from mjstats.rules.hand import is_complete, partial_shanten, regular_shanten

# the per-part tables of the melds + pair formula (clamped option masks, merges, thresholds)
from mjstats.rulesets.guobiao.incremental import _good, _honour_mask, _least, _merge, _suit_draws, _suit_mask
from mjstats.sim.shapes import Shape

__all__ = ["FuzhouShape", "shape_for"]


class FuzhouShape(Shape):
    """5 melds + pair with every copy of the gold kind wild (reference fuzhou.md)."""

    def __init__(self, gold: int) -> None:
        self.gold = gold

    def shanten(self, counts: list[int], melds: int, *, wild: bool = True) -> int:
        if not wild:  # the gold at face value (the gold-throwing style's view)
            return partial_shanten(counts, 5 - melds)
        g = self.gold
        golds = counts[g]
        counts[g] = 0
        try:
            if golds and any(counts[27:34]):
                # golds with playable honours (platform profile): the exact search over every
                # kind each gold could stand for is too slow for a bot; each gold lowers the
                # shanten by at most one, which is the estimate used.
                size = sum(counts) + golds
                floor = -1 if size % 3 == 2 else 0
                return max(floor, partial_shanten(counts, 5 - melds) - golds)
            return regular_shanten(counts, 5 - melds, wilds=golds)
        finally:
            counts[g] = golds

    def complete(self, counts: list[int], melds: int, *, wild: bool = True) -> bool:
        if not wild:
            return is_complete(counts, 5 - melds)
        g = self.gold
        golds = counts[g]
        counts[g] = 0
        try:
            return is_complete(counts, 5 - melds, wilds=golds)
        finally:
            counts[g] = golds

    def shanten_and_useful(self, counts: tuple[int, ...], melds: int) -> tuple[int, frozenset[int]] | None:
        """(shanten, useful kinds) as ``mjstats.integrity.useful`` finds them by trying each
        candidate (every kind with a gold held, else the kinds near a held tile and the gold),
        from per-part tables. With g golds and F the formula of the other tiles both branches of
        ``shanten`` are max(floor, F - g), floor 0 at 3G + 1 tiles and -1 at 3G + 2; so a drawn
        gold helps when max(-1, F - g - 1) < shanten, and another kind k when
        F(hand + k) < shanten + g (-1 is under any shanten of a 3G + 1 tile hand). None for
        another hand size (the straightforward path raises)."""
        groups = 5 - melds
        if not 0 <= groups <= 5 or sum(counts) != 3 * groups + 1:
            return None
        g = self.gold
        golds = counts[g]
        rest = (*counts[:g], 0, *counts[g + 1 :])
        honours = rest[27:34]
        slices = (rest[0:9], rest[9:18], rest[18:27])
        a, b, c = (_suit_mask(part, groups) for part in slices)
        d = _honour_mask(tuple(sorted(n for n in honours if n)), groups)
        ab, cd = _merge(a, b, groups), _merge(c, d, groups)
        formula = _least(_merge(ab, cd, groups), groups)
        before = max(0, formula - golds)
        others = (_merge(b, cd, groups), _merge(a, cd, groups), _merge(ab, d, groups), _merge(ab, c, groups))
        out: list[int] = []
        for p in range(4):
            if p < 3:
                every = _every_rank if golds else _suit_draws  # a gold held pairs any suited kind
                draws = every(slices[p], groups, 9 * p)
            else:
                draws = _every_honour(honours, groups) if golds else _held_honours(honours, groups)
            if draws:
                good = _good(others[p], groups, before + golds)
                out.extend(k for k, mask in draws if mask & good and k != g)
        if max(-1, formula - golds - 1) < before:  # the gold drawn: one wild more
            out.append(g)
        return before, frozenset(out)

    def golden_shanten(self, counts: list[int], melds: int) -> int:
        """Shanten towards 金雀 (two golds as the pair): the other tiles and any further golds
        must make the melds. Needs two golds; a phantom pair of an absent honour stands for
        them, so the shared formula can be used as it is."""
        g = self.gold
        golds = counts[g]
        if golds < 2:
            return 99
        phantom = next(k for k in range(27, 34) if not counts[k])
        counts[g] = 0
        counts[phantom] = 2
        try:
            if golds == 2:
                return regular_shanten(counts, 5 - melds)
            size = sum(counts) + golds - 2
            floor = -1 if size % 3 == 2 else 0
            return max(floor, partial_shanten(counts, 5 - melds) - (golds - 2))
        finally:
            counts[phantom] = 0
            counts[g] = golds


@lru_cache(maxsize=1 << 16)
def _every_rank(suit: tuple[int, ...], groups: int, base: int) -> tuple[tuple[int, int], ...]:
    """Each kind of a suit (``base``: its first kind) with the suit's mask once one more is held."""
    return tuple((base + r, _suit_mask((*suit[:r], suit[r] + 1, *suit[r + 1 :]), groups)) for r in range(9))


@cache
def _every_honour(honours: tuple[int, ...], groups: int) -> tuple[tuple[int, int], ...]:
    """Each honour (``honours``: the 7 counts) with the honours' mask once one more is held."""
    out = []
    for i in range(7):
        grown = (*honours[:i], honours[i] + 1, *honours[i + 1 :])
        out.append((27 + i, _honour_mask(tuple(sorted(n for n in grown if n)), groups)))
    return tuple(out)


@cache
def _held_honours(honours: tuple[int, ...], groups: int) -> tuple[tuple[int, int], ...]:
    """The held honours only (a new lone honour is near no held tile)."""
    return tuple((k, mask) for k, mask in _every_honour(honours, groups) if honours[k - 27])


def shape_for(gold: int | None) -> Shape:
    """The shape of a Fuzhou hand with ``gold`` wild (a hand before its gold is known has none)."""
    if gold is None:
        raise ValueError("a Fuzhou shape needs the gold")
    return FuzhouShape(gold)
