"""Which tile kinds improve a hand: the kinds whose draw lowers the hand's shanten.

Guobiao: the regular form and 七对 (the forms players aim at; 十三幺 and the knitted forms are
left out for speed, which only makes "useful" narrower, never the test wrong). Fuzhou: the
regular form with every gold wild, as the simulator's bots judge it. Any fixed definition keeps
the draw test exact: under a fair wall the drawn tile is uniform over the remainder, whatever set
of kinds is called useful before the draw.
"""

from __future__ import annotations

from functools import lru_cache

from mjstats.sim.shapes import FuzhouShape, GuobiaoShape

__all__ = ["useful_kinds", "waits"]

_GUOBIAO = GuobiaoShape()


def _near(counts: tuple[int, ...]) -> set[int]:
    """Kinds that can join a held tile in a set: the same honour, or a suited tile within 2."""
    near: set[int] = set()
    for k, n in enumerate(counts):
        if n:
            if k < 27:
                low = k - k % 9
                near.update(range(max(low, k - 2), min(low + 9, k + 3)))
            else:
                near.add(k)
    return near


@lru_cache(maxsize=1 << 16)
def useful_kinds(concealed: tuple[int, ...], melds: int, gold: int | None) -> frozenset[int]:
    """The kinds (0-33) whose addition lowers the shanten of ``concealed`` (13 - 3m Guobiao
    tiles, or 16 - 3m Fuzhou tiles when ``gold`` is given)."""
    counts = list(concealed)
    if gold is None:
        shape = _GUOBIAO
        candidates: set[int] | range = _near(concealed)
    else:
        shape = FuzhouShape(gold)
        # a wild held can pair any new suited tile; without one only near kinds and the gold help
        candidates = range(34) if counts[gold] else _near(concealed) | {gold}
    before = shape.shanten(counts, melds)
    out = []
    for k in candidates:
        counts[k] += 1
        if shape.shanten(counts, melds) < before:
            out.append(k)
        counts[k] -= 1
    return frozenset(out)


@lru_cache(maxsize=1 << 16)
def waits(concealed: tuple[int, ...], melds: int, gold: int | None) -> frozenset[int]:
    """The kinds that complete a ready hand (shanten 0): its winning tiles; empty when the hand
    is not ready. Same forms as ``useful_kinds`` (Guobiao regular and 七对; Fuzhou regular with
    golds wild)."""
    shape = _GUOBIAO if gold is None else FuzhouShape(gold)
    if shape.shanten(list(concealed), melds) != 0:
        return frozenset()
    return useful_kinds(concealed, melds, gold)
