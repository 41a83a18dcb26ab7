"""Fuzhou's shanten for the statistics (``tenpai_at_draw``)."""

from __future__ import annotations

from mjstats.rulesets.fuzhou import shanten as fz_shanten
from mjstats.stats.holdings import UnreadableHand

__all__ = ["shanten"]

Meld = tuple[str, int, int]


def shanten(tiles: list[int], melds: list[Meld], gold: int | None, profile: str) -> int:
    """Shanten of a Fuzhou hand with its gold wild, under its profile (seed for an unknown one)."""
    # 16 - 3m tiles (0 = waiting) or 17 - 3m after a last draw (0 = one discard from it)
    if gold is None:
        raise UnreadableHand("Fuzhou hand without a gold")
    known = profile if profile in ("seed", "platform") else "seed"
    return fz_shanten(tiles, gold, melds, profile=known)
