"""Guobiao's shanten for the statistics (``tenpai_at_draw``): fast where the regular form
decides, the full engine where a special form could still be waiting."""

from __future__ import annotations

from mjstats.rules.hand import regular_shanten
from mjstats.rulesets.guobiao.waits import KNITTED_STRAIGHTS, TERMINALS_AND_HONOURS
from mjstats.rulesets.guobiao.waits import shanten as gb_shanten
from mjstats.stats.holdings import UnreadableHand

__all__ = ["shanten"]

Meld = tuple[str, int, int]


def shanten(tiles: list[int], melds: list[Meld], gold: int | None, profile: str) -> int:
    """Shanten of a Guobiao hand at an exhaustive draw: 13 - 3m tiles (0 = waiting), or 14 - 3m
    after a last draw (0 = one discard from waiting); ``gold`` and ``profile`` are unused."""
    need = 13 - 3 * len(melds)
    if len(tiles) == need:
        # The engine's shanten is the least over the winning forms. Ask the melds + pair
        # form first (cheap); call the full engine only when a special form could still
        # be waiting: 6 pairs (七对), 12 terminal/honour kinds (十三幺), 13 kinds (全不靠),
        # 8 of a knitted straight's 9 tiles (组合龙). Tests check this equals the engine.
        counts = [0] * 34
        for t in tiles:
            counts[t] += 1
        if regular_shanten(counts, 4 - len(melds)) <= 0:
            return 0
        special = False
        if not melds:
            kinds = sum(1 for c in counts if c)
            special = (sum(c // 2 for c in counts) >= 6 or kinds >= 13
                       or sum(1 for t in TERMINALS_AND_HONOURS if counts[t]) >= 12)
        if not special and len(melds) <= 1:
            special = any(sum(1 for t in ks if counts[t]) >= 8 for ks in KNITTED_STRAIGHTS)
        return gb_shanten(tiles, melds) if special else 1
    if len(tiles) == need + 1:  # drew last and did not discard: the best discard
        return min(gb_shanten(tiles[:i] + tiles[i + 1:], melds)
                   for i in range(len(tiles)) if i == 0 or tiles[i] != tiles[i - 1])
    raise UnreadableHand(f"{len(tiles)} concealed tiles with {len(melds)} melds")
