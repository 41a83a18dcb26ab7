"""Fast hand-shape questions the bots and the game loops ask many times a turn, on count vectors.

Each ruleset package subclasses :class:`Shape` on the shared engine (``mjstats.rules.hand``). The
game loops use :meth:`Shape.complete` (exact) to decide whether a win is possible, then let the
rules engine score it; the bots use :meth:`Shape.shanten` (exact or a documented estimate).
"""

from __future__ import annotations

__all__ = ["Shape"]


class Shape:
    """Shape questions for one ruleset; ``melds`` is the number of exposed (or concealed) kongs
    and melds already set down. Count vectors have 34 entries (no flowers)."""

    def shanten(self, counts: list[int], melds: int, *, wild: bool = True) -> int:
        raise NotImplementedError

    def complete(self, counts: list[int], melds: int, *, wild: bool = True) -> bool:
        raise NotImplementedError

    def voided(self, void: int | None) -> Shape:
        """The same shape for a seat that declared suit ``void`` (0-2) void; rulesets without a
        void suit have only ``void=None``."""
        if void is not None:
            raise ValueError(f"{type(self).__name__} has no void suit")
        return self

    def shanten_and_useful(
        self, counts: tuple[int, ...], melds: int
    ) -> tuple[int, frozenset[int]] | None:
        """The shanten and the kinds whose draw lowers it, from tables faster than trying each
        kind; None where this shape has no such tables for the hand (the caller tries each
        kind: mjstats.integrity.useful)."""
        return None

    def golden_shanten(self, counts: list[int], melds: int) -> int:
        """Shanten towards a win with two wilds as the pair (金雀); 99 where the ruleset has no
        wilds (the gold-keeping style asks)."""
        return 99
