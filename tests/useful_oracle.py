"""The straightforward useful kinds, kept as the oracle of ``mjstats.integrity.useful``'s table
path: every candidate kind added in turn and the ruleset shape's full shanten taken again.
"""

from __future__ import annotations

from mjstats.rulesets import get
from mjstats.sim.shapes import Shape

__all__ = ["oracle_useful_kinds", "oracle_waits"]


def _shape(ruleset: str, gold: int | None, void: int | None) -> Shape:
    spec = get(ruleset)
    assert spec.shape is not None
    shape: Shape = spec.load(spec.shape)(gold)
    return shape.voided(void) if void is not None else shape


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


def oracle_useful_kinds(
    concealed: tuple[int, ...], melds: int, gold: int | None, ruleset: str, void: int | None = None
) -> frozenset[int]:
    """The kinds whose addition lowers the shape's shanten, each candidate tried."""
    counts = list(concealed)
    shape = _shape(ruleset, gold, void)
    if gold is None:
        candidates: set[int] | range | list[int] = _near(concealed)
    else:
        candidates = range(34) if counts[gold] else _near(concealed) | {gold}
    if void is not None:
        candidates = [k for k in candidates if k // 9 != void or k >= 27]
    before = shape.shanten(counts, melds)
    out = []
    for k in candidates:
        counts[k] += 1
        if shape.shanten(counts, melds) < before:
            out.append(k)
        counts[k] -= 1
    return frozenset(out)


def oracle_waits(
    concealed: tuple[int, ...], melds: int, gold: int | None, ruleset: str, void: int | None = None
) -> frozenset[int]:
    """The useful kinds of a ready hand (shanten 0), else none."""
    if _shape(ruleset, gold, void).shanten(list(concealed), melds) != 0:
        return frozenset()
    return oracle_useful_kinds(concealed, melds, gold, ruleset, void)
