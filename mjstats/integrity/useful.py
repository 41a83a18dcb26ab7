"""Which tile kinds improve a hand: the kinds whose draw lowers the hand's shanten.

The ruleset's ``shape`` part decides, as the simulator's bots judge a hand (e.g. the regular
form and 七对 with the rarer forms left out for speed, which only makes "useful" narrower, never
the test wrong; or the regular form with every gold wild). Any fixed definition keeps
the draw test exact: under a fair wall the drawn tile is uniform over the remainder, whatever set
of kinds is called useful before the draw.

Speed: a shape may answer ``shanten_and_useful(counts, melds)`` from per-suit tables (a drawn
tile changes one suit, so each candidate is a table lookup and a merge, not a full shanten);
it returns the same kinds as trying each candidate below, which stays the path for any hand
the tables do not cover (tests/test_integrity_useful_speed.py compares the two).
"""

from __future__ import annotations

from functools import lru_cache

from mjstats.rulesets import get
from mjstats.sim.shapes import Shape

__all__ = ["near_kinds", "searched_answer", "shape_of", "useful_kinds", "waits"]

_Answer = tuple[int, frozenset[int]]  # (shanten before the draw, the useful kinds)


@lru_cache(maxsize=1 << 10)
def shape_of(ruleset: str, gold: int | None, void: int | None) -> Shape:
    """The ``ruleset``'s shape for a hand with ``gold`` (wild) and ``void`` (the seat's declared
    void suit 0-2, where the ruleset has one)."""
    spec = get(ruleset)
    if spec.shape is None:
        raise ValueError(f"ruleset {ruleset!r} has no shape part")
    shape: Shape = spec.load(spec.shape)(gold)
    return shape.voided(void) if void is not None else shape


def near_kinds(counts: tuple[int, ...]) -> set[int]:
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


def searched_answer(
    concealed: tuple[int, ...], melds: int, gold: int | None, shape: Shape, void: int | None
) -> _Answer:
    """Shanten and useful kinds by adding each candidate kind and taking the shanten again: the
    definition a shape's tables must agree with (tests/test_integrity_useful_speed.py), and the
    answer for a hand they do not cover."""
    counts = list(concealed)
    if gold is None:
        candidates: set[int] | range | list[int] = near_kinds(concealed)
    else:
        # a wild held can pair any new suited tile; without one only near kinds and the gold help
        candidates = range(34) if counts[gold] else near_kinds(concealed) | {gold}
    if void is not None:
        candidates = [k for k in candidates if k // 9 != void or k >= 27]
    before = shape.shanten(counts, melds)
    out = []
    for k in candidates:
        counts[k] += 1
        if shape.shanten(counts, melds) < before:
            out.append(k)
        counts[k] -= 1
    return before, frozenset(out)


@lru_cache(maxsize=1 << 16)
def _answer(
    concealed: tuple[int, ...], melds: int, gold: int | None, ruleset: str, void: int | None
) -> _Answer:
    """(shanten, useful kinds): from the shape's tables where it has them, else each kind tried."""
    shape = shape_of(ruleset, gold, void)
    found = shape.shanten_and_useful(concealed, melds)
    return found if found is not None else searched_answer(concealed, melds, gold, shape, void)


def useful_kinds(
    concealed: tuple[int, ...], melds: int, gold: int | None, ruleset: str, void: int | None = None
) -> frozenset[int]:
    """The kinds (0-33) whose addition lowers the shanten of ``concealed`` (the ruleset's hand
    size less 3 a meld), ``gold`` wild when given; never a kind of the ``void`` suit (a
    void-suit tile must go again: 定缺)."""
    return _answer(concealed, melds, gold, ruleset, void)[1]


def waits(
    concealed: tuple[int, ...], melds: int, gold: int | None, ruleset: str, void: int | None = None
) -> frozenset[int]:
    """The kinds that complete a ready hand (shanten 0): its winning tiles; empty when the hand
    is not ready (a hand holding a void-suit tile never is). Same forms as ``useful_kinds``."""
    before, useful = _answer(concealed, melds, gold, ruleset, void)
    return useful if before == 0 else frozenset()
