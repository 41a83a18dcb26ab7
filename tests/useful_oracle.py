"""The straightforward useful kinds, the oracle of ``mjstats.integrity.useful``'s table path:
every candidate kind added in turn and the ruleset shape's full shanten taken again (the
module's own search, which the shapes' tables must agree with)."""

from __future__ import annotations

from mjstats.integrity.useful import searched_answer, shape_of

__all__ = ["oracle_useful_kinds", "oracle_waits"]


def oracle_useful_kinds(
    concealed: tuple[int, ...], melds: int, gold: int | None, ruleset: str, void: int | None = None
) -> frozenset[int]:
    """The kinds whose addition lowers the shape's shanten, each candidate tried."""
    return searched_answer(concealed, melds, gold, shape_of(ruleset, gold, void), void)[1]


def oracle_waits(
    concealed: tuple[int, ...], melds: int, gold: int | None, ruleset: str, void: int | None = None
) -> frozenset[int]:
    """The useful kinds of a ready hand (shanten 0), else none."""
    before, useful = searched_answer(concealed, melds, gold, shape_of(ruleset, gold, void), void)
    return useful if before == 0 else frozenset()
