"""Guobiao's hand shapes for the simulator's bots and the integrity tests."""

from __future__ import annotations

from mjstats.rules.hand import is_complete, regular_shanten
from mjstats.rulesets.guobiao.incremental import guobiao_shanten, guobiao_useful
from mjstats.sim.shapes import Shape

__all__ = ["GuobiaoShape", "shape_for"]


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

    def shanten_and_useful(self, counts: tuple[int, ...], melds: int) -> tuple[int, frozenset[int]] | None:
        """(shanten, the kinds near a held tile whose draw lowers it) of a 13 - 3m tile hand from
        the per-part tables of ``.incremental``: the answer ``mjstats.integrity.useful`` gets by
        trying each kind. None for another hand size (the straightforward path raises)."""
        groups = 4 - melds
        if not 0 <= groups <= 4 or sum(counts) != 3 * groups + 1:
            return None
        return guobiao_shanten(counts, melds), guobiao_useful(counts, melds)


_SHAPE = GuobiaoShape()


def shape_for(gold: int | None) -> Shape:
    """The shape of a Guobiao hand (no wilds: ``gold`` is ignored)."""
    return _SHAPE
