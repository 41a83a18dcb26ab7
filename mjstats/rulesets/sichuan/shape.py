"""Sichuan's hand shapes for the integrity tests: 4 sets + pair or seven pairs, no void tile.

Shanten here is exact in the sense every mjstats shanten is (the four-copy limit aside): the
least number of tiles a hand must still take in (one a draw or claim, each exchanged for one of
its own) before it is complete, less one. A void-suit tile can never stay in a winning hand
(reference sichuan.md §2.3), so each one must go: a hand's shanten is that of its other tiles
with every void tile a free slot that still has to be filled by a real, non-void tile. The
other tiles with the void tiles as wilds reach exactly the winning hands the slots can fill, so
the regular form is ``regular_shanten(rest, wilds=V) + V`` (V void tiles): the wilds find the
best tiles to take in, and each still costs one exchange.
"""

from __future__ import annotations

from collections.abc import Sequence

from mjstats.rules.hand import regular_shanten

# the per-part tables of the melds + pair formula (clamped option masks, merges, thresholds)
from mjstats.rulesets.guobiao.incremental import _good, _least, _merge, _suit_draws, _suit_mask
from mjstats.sim.shapes import Shape

__all__ = ["SUITS", "SichuanShape", "seven_pairs_shanten", "shape_for", "void_shanten"]

SUITS = 3  # 万 0-8, 条 9-17, 筒 18-26 (mjstats.tiles); no honours in Sichuan (reference §1.1)
HAND_SETS = 4  # reference sichuan.md §3.1: 4 sets + 1 pair


def _split(counts: Sequence[int], void: int) -> tuple[list[int], int]:
    """The counts with the void suit emptied, and how many void tiles there were."""
    kept = list(counts)
    low = 9 * void
    void_tiles = sum(kept[low : low + 9])
    kept[low : low + 9] = [0] * 9
    return kept, void_tiles


def _pairs_shanten(pairs: int, odd: int) -> int:
    """``seven_pairs_shanten`` from the kept tiles' pairs (sum of c // 2) and odd counts."""
    pairs = min(7, pairs)
    return 13 - (2 * pairs + min(7 - pairs, odd))


def seven_pairs_shanten(kept: Sequence[int]) -> int:
    """Seven pairs (reference §3.1: a kind held four times is two pairs) from the non-void
    tiles ``kept``: 14 tiles to hold, less the ones already in place, less one. Held pairs stay
    (two tiles each, at most seven pairs); a kind held an odd number of times grows to a pair
    with one tile; every other pair takes two."""
    pairs = min(7, sum(c // 2 for c in kept))
    odd = sum(c % 2 for c in kept)
    in_place = 2 * pairs + min(7 - pairs, odd)
    return 13 - in_place


def void_shanten(counts: Sequence[int], melds: int, void: int) -> int:
    """Shanten of a 34-kind count vector with ``melds`` sets set down and suit ``void`` (0-2)
    declared void: every void tile must be exchanged (reference §2.3: a hand holding one cannot
    win). Seven pairs only with no meld (reference §3.1)."""
    kept, void_tiles = _split(counts, void)
    best = regular_shanten(kept, HAND_SETS - melds, wilds=void_tiles) + void_tiles
    if melds == 0:
        best = min(best, seven_pairs_shanten(kept))
    return best


class SichuanShape(Shape):
    """4 sets + pair or seven pairs with no tile of the seat's void suit (reference sichuan.md
    §3.1, §2.3). ``void`` None (before the declaration): the suit whose loss costs least."""

    def __init__(self, void: int | None = None) -> None:
        if void is not None and not 0 <= void < SUITS:
            raise ValueError(f"a Sichuan void suit is 0-2 (W, T, B), got {void}")
        self.void = void

    def shanten(self, counts: list[int], melds: int, *, wild: bool = True) -> int:
        if self.void is not None:
            return void_shanten(counts, melds, self.void)
        # reference §2.3 (缺一门): a winning hand lacks a suit; before the declaration the
        # best suit to give up is the one whose tiles cost the least to replace
        return min(void_shanten(counts, melds, s) for s in range(SUITS))

    def complete(self, counts: list[int], melds: int, *, wild: bool = True) -> bool:
        return self.shanten(counts, melds) == -1

    def shanten_and_useful(self, counts: tuple[int, ...], melds: int) -> tuple[int, frozenset[int]] | None:
        """(shanten, useful kinds) as ``mjstats.integrity.useful`` finds them by trying each kind
        near a held tile (none of a declared void suit), from per-suit tables. For void suit s
        with V tiles and F the formula of the two other suits the regular form is
        max(floor, F - V) + V (floor 0 at 3G + 1 tiles, -1 at 3G + 2), so a kind k of another
        suit takes it under B exactly when V - 1 < B and F(hand + k) < B; a tile of s itself
        makes it max(V, F). Seven pairs (reference §3.1, no meld) moves by one pair or one odd
        tile. None for another hand size or honours held (the straightforward path decides)."""
        groups = HAND_SETS - melds
        if not 0 <= groups <= HAND_SETS or sum(counts) != 3 * groups + 1 or any(counts[27:34]):
            return None
        slices = (counts[0:9], counts[9:18], counts[18:27])
        masks = [_suit_mask(part, groups) for part in slices]
        tiles = [sum(part) for part in slices]
        pairs = [sum(c // 2 for c in part) for part in slices]
        odds = [sum(c % 2 for c in part) for part in slices]
        seven_form = melds == 0
        voids = range(SUITS) if self.void is None else (self.void,)
        forms = {}  # void suit -> (formula of the other two suits, their seven pairs shanten)
        for v in voids:
            q, r = (x for x in range(SUITS) if x != v)
            formula = _least(_merge(masks[q], masks[r], groups), groups)
            seven = _pairs_shanten(pairs[q] + pairs[r], odds[q] + odds[r]) if seven_form else 99
            forms[v] = (formula, seven)
        before = min(min(max(0, f - tiles[v]) + tiles[v], seven) for v, (f, seven) in forms.items())
        out: set[int] = set()
        for v, (formula, seven) in forms.items():
            for q in range(SUITS):
                if not tiles[q]:
                    continue  # no held tile of the suit: no kind of it is near one
                draws = _suit_draws(slices[q], groups, 9 * q)
                if q == v:  # reference §2.3: one more void tile, one more slot to refill
                    # (a declared void suit's kinds are never candidates: 定缺)
                    if self.void is None and (max(tiles[v], formula) < before or seven < before):
                        out.update(k for k, _ in draws)
                    continue
                (r,) = (x for x in range(SUITS) if x not in (v, q))
                good = _good(masks[r], groups, before) if tiles[v] - 1 < before else 0
                kept_pairs, kept_odd = pairs[q] + pairs[r], odds[q] + odds[r]
                # an odd count pairs up, an even one adds a lone tile
                pair_up = seven_form and _pairs_shanten(kept_pairs + 1, kept_odd - 1) < before
                lone = seven_form and _pairs_shanten(kept_pairs, kept_odd + 1) < before
                out.update(k for k, mask in draws if mask & good or (pair_up if counts[k] % 2 else lone))
        return before, frozenset(out)

    def voided(self, void: int | None) -> Shape:
        return self if void == self.void else SichuanShape(void)


_NO_VOID = SichuanShape()


def shape_for(gold: int | None) -> Shape:
    """The shape of a Sichuan hand before its void is known (no wilds: ``gold`` is ignored);
    ``.voided(suit)`` gives a declared seat's."""
    return _NO_VOID
