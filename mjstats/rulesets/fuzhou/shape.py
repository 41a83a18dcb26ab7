"""Fuzhou's hand shapes for the simulator's bots and the integrity tests: the gold is wild."""

from __future__ import annotations

from mjstats.rules.hand import is_complete, partial_shanten, regular_shanten
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


def shape_for(gold: int | None) -> Shape:
    """The shape of a Fuzhou hand with ``gold`` wild (a hand before its gold is known has none)."""
    if gold is None:
        raise ValueError("a Fuzhou shape needs the gold")
    return FuzhouShape(gold)
