"""Draw fairness: does anyone draw improving tiles more (or less) often than a fair wall gives?

For every draw the chance that a fair wall gives an improving tile is exact: the useful tiles
still in the wall over all tiles still in the wall (``tracker``). The observed improving draws
of a subject are a sum of independent Bernoulli trials with those chances under the null (a
Poisson-binomial), so O - E over sqrt(sum p(1 - p)) is a z-score; two-sided p-value.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from mjstats.integrity.rows import Row, subject_of, z_row
from mjstats.integrity.subjects import who
from mjstats.integrity.tracker import InconsistentHand, draws_of
from mjstats.integrity.useful import useful_kinds
from mjstats.records import Hand

__all__ = ["DrawFairness", "draw_chances"]

KEEP_CHANCES = 2000  # past this many draws the count's variance is far above EXACT_BELOW
NULL = "Poisson-binomial: each draw uniform over the tiles still in the wall (exact chances)"


def draw_chances(hand: Hand) -> list[tuple[int, float, bool]]:
    """(seat, chance of an improving draw, whether the drawn tile improved) for every draw.
    Raises InconsistentHand for a record whose events contradict themselves."""
    out = []
    for d in draws_of(hand):
        useful = useful_kinds(d.concealed, d.melds, d.gold, hand.ruleset, d.void)
        total = sum(d.pool)
        if total <= 0:
            continue
        good = sum(d.pool[k] for k in useful)
        out.append((d.seat, good / total, d.drawn in useful))
    return out


class DrawFairness:
    """Accumulates observed and expected improving draws per (ruleset, subject)."""

    test = "draw.improving"

    def __init__(self, by: str) -> None:
        self.by = by
        # (ruleset, subject) -> [draws, observed, expected, variance]
        self.sums: dict[tuple[str, object], list[float]] = defaultdict(lambda: [0, 0, 0.0, 0.0])
        # each draw's chance while few (for the exact mid-p of a small count), then None
        self.chances: dict[tuple[str, object], list[float] | None] = defaultdict(list)
        self.skipped = 0  # hands whose events contradict themselves (left out whole)

    def add(self, hand: Hand, draws: Sequence[tuple[int, float, bool]] | bool | None = False) -> None:
        """Count ``hand``'s draws; ``draws`` given (mjstats.integrity.replays) saves the replay,
        None there meaning the hand's events contradict themselves."""
        if draws is False:
            try:
                draws = draw_chances(hand)
            except InconsistentHand:
                draws = None
        if draws is None:
            self.skipped += 1  # said in the run's notes; the audit names the fault
            return
        chances = draws
        for seat, p, hit in chances:
            key = (hand.ruleset, who(hand, seat, self.by))
            acc = self.sums[key]
            acc[0] += 1
            acc[1] += hit
            acc[2] += p
            acc[3] += p * (1 - p)
            kept = self.chances[key]
            if kept is not None:
                kept.append(p)
                if len(kept) > KEEP_CHANCES:
                    self.chances[key] = None

    def rows(self) -> list[Row]:
        out = []
        for (ruleset, subject), (n, obs, exp, var) in sorted(self.sums.items(), key=_order):
            out.append(
                z_row(
                    self.test,
                    ruleset,
                    self.by,
                    subject_of(self.by, subject),
                    observed=obs,
                    expected=exp,
                    variance=var,
                    n=int(n),
                    null=NULL,
                    chances=self.chances.get((ruleset, subject)),
                )
            )
        return out


def _order(item: tuple[tuple[str, object], list[float]]) -> tuple[str, str]:
    (ruleset, subject), _ = item
    return (ruleset, str(subject))
