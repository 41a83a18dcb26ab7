"""The match as the unit of chance: each subject against the others at its table, and Student's t
over those per-match contrasts.

The outcome and streak tests share both steps. A subject's excess in a match is set against the
mean excess of the others seated with it (they share the table's fixed number of wins, so their
counts move against each other); the contrasts, one a match and independent between matches,
are tested against 0 with their spread estimated from the matches themselves.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from mjstats.integrity.distributions import t_sf

__all__ = ["MatchT", "TableContrast", "t_over_matches", "table_contrasts"]


@dataclass(frozen=True, slots=True)
class TableContrast:
    """One subject in one match: its excess less the others' mean excess (per measure), and
    ``others``, how many others sat at the table."""

    values: tuple[float, ...]
    others: int

    @property
    def own_share(self) -> float:
        """The share of the contrast that is the subject's own excess when the table's excesses
        sum to zero: with e + k o = 0 the contrast e - o is e (k + 1) / k, so e is k / (k + 1)
        of it (3/4 with four at a table)."""
        return self.others / (self.others + 1)


def table_contrasts(excess: Mapping[Hashable, Sequence[float]]) -> dict[Hashable, TableContrast]:
    """Per subject of one match (``excess``: its excess per measure), its contrast with the
    others at its table, in ``excess``'s order. Empty when the subject sits alone: nobody to
    compare with."""
    if len(excess) < 2:
        return {}
    k = len(excess) - 1
    width = len(next(iter(excess.values())))
    total = [sum(e[i] for e in excess.values()) for i in range(width)]
    return {
        subject: TableContrast(tuple(e[i] - (total[i] - e[i]) / k for i in range(width)), k)
        for subject, e in excess.items()
    }


@dataclass(frozen=True, slots=True)
class MatchT:
    """Student's t of per-match contrasts against 0: ``matches`` (m), their ``total``, their
    sample variance ``spread`` (m - 1 in the denominator), ``t`` = total / sqrt(m spread), the
    two-sided ``p_value`` on m - 1 degrees of freedom."""

    matches: int
    total: float
    spread: float
    t: float
    p_value: float

    @property
    def df(self) -> int:
        return self.matches - 1

    @property
    def mean(self) -> float:
        return self.total / self.matches

    @property
    def total_sd(self) -> float:
        """The standard deviation of the summed contrast (sqrt(m spread))."""
        return math.sqrt(self.matches * self.spread)

    @property
    def mean_se(self) -> float:
        """The standard error of the mean contrast (sqrt(spread / m))."""
        return math.sqrt(self.spread / self.matches)


def t_over_matches(contrasts: Sequence[float], min_matches: int) -> MatchT | None:
    """Student's t of ``contrasts`` (one a match) against 0, or None with fewer than
    ``min_matches`` (at least 2) or when every contrast is the same (no spread to judge by)."""
    m = len(contrasts)
    if m < max(min_matches, 2):
        return None
    total = sum(contrasts)
    mean = total / m
    spread = sum((c - mean) ** 2 for c in contrasts) / (m - 1)
    if spread <= 0:
        return None
    t = total / math.sqrt(m * spread)
    return MatchT(m, total, spread, t, min(1.0, 2.0 * t_sf(abs(t), m - 1)))
