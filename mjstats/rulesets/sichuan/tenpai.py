"""Sichuan's shanten for the statistics (``tenpai_at_draw``): the integrity shape's, with the
seat's declared void suit."""

from __future__ import annotations

from mjstats.rulesets.sichuan.shape import SichuanShape
from mjstats.stats.holdings import UnreadableHand

__all__ = ["shanten"]

Meld = tuple[str, int, int]
WIN_SIZE = 14  # reference sichuan.md §3.1: 4 sets + pair, melds counted as 3


def shanten(
    tiles: list[int], melds: list[Meld], gold: int | None, profile: str, *, void: int | None = None
) -> int:
    """Shanten of a Sichuan hand (0 = waiting) with ``void`` (0-2) the seat's declared void suit
    (None: no declaration, the suit cheapest to give up). A hand holding a void-suit tile is
    never waiting (reference §2.3); a meld of the void suit can never go, so the hand can never
    win (the audit names the fault): its shanten is past any hand's (99)."""
    n = len(melds)
    if len(tiles) + 3 * n not in (WIN_SIZE - 1, WIN_SIZE) or any(t >= 27 for t in tiles):
        raise UnreadableHand(f"a Sichuan hand of {len(tiles)} suited tiles and {n} melds")
    if void is not None and any(int(t) // 9 == void for _, t, _ in melds):
        return 99
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return SichuanShape(void).shanten(counts, n)
