"""Fast hand-shape questions the bots and the game loops ask many times a turn, on count vectors.

Built on the shared engine (``mjstats.rules.hand``). The game loops use :meth:`complete` (exact)
to decide whether a win is possible, then let the rules engine score it; the bots use
:meth:`shanten` (exact for Guobiao regular + seven pairs and for Fuzhou suited hands, a close
estimate for Fuzhou hands mixing golds with playable honours, where exact is too slow).
"""

from __future__ import annotations

from mjstats.rules.hand import is_complete, partial_shanten, regular_shanten

__all__ = ["FuzhouShape", "GuobiaoShape", "Shape"]


class Shape:
    """Shape questions for one ruleset; ``melds`` is the number of exposed (or concealed) kongs
    and melds already set down. Count vectors have 34 entries (no flowers)."""

    def shanten(self, counts: list[int], melds: int, *, wild: bool = True) -> int:
        raise NotImplementedError

    def complete(self, counts: list[int], melds: int, *, wild: bool = True) -> bool:
        raise NotImplementedError


class GuobiaoShape(Shape):
    """4 melds + pair or 七对 (reference guobiao.md). The rarer forms (十三幺, 全不靠, 组合龙) are
    neither aimed at nor declared: declining a win is always legal, so records stay correct."""

    def shanten(self, counts: list[int], melds: int, *, wild: bool = True) -> int:
        best = regular_shanten(counts, 4 - melds)
        if melds == 0:
            # 七对: four of a kind count as two pairs (reference calculator, 四归一)
            pairs = 6 - counts.count(2) - counts.count(3) - 2 * counts.count(4)
            if pairs < best:
                best = pairs
        return best

    def complete(self, counts: list[int], melds: int, *, wild: bool = True) -> bool:
        if is_complete(counts, 4 - melds):
            return True
        return melds == 0 and all(c in (0, 2, 4) for c in counts)


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
