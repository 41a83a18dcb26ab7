"""Outcome advantage: wins, deal-ins and score per subject against the table, adjusted for the
dealer (a dealer's chances differ, and under some rules dealers keep the deal after a win).

For each seat-hand the null mean of its wins (of its deal-ins) is the run's mean for that role
(dealer or not) in that ruleset, and its null variance the role's variance; a subject's wins are
a sum of those (a Poisson-binomial where a seat wins or deals in at most once a hand; z,
two-sided). Where a hand holds several wins (血战到底, 一炮多响) a seat may deal in more
than once a hand: every win counts, with the role's variance of the per-hand count. The score
test compares a subject's summed score with the role means, with the
role variances. By player these tests measure skill as much as luck: a strong player wins more
on a fair platform. By seat they should find nothing on a fair platform.
"""

from __future__ import annotations

import math
from collections import defaultdict

from mjstats.integrity.distributions import z_p_value
from mjstats.integrity.rows import Z95, Row, subject_of, z_row
from mjstats.integrity.subjects import who
from mjstats.records import Hand

__all__ = ["Outcomes"]

NULL = "the run's rate for the role (dealer or not), same for every subject"
# A summed score is far from normal over few hands (a single big win dominates it)
MIN_SCORE_HANDS = 200


class Outcomes:
    def __init__(self, by: str) -> None:
        self.by = by
        # (ruleset, subject, role) -> [seat-hands, wins, deal-ins, score sum]
        self.cells: dict[tuple[str, object, str], list[float]] = defaultdict(lambda: [0, 0, 0, 0.0])
        # (ruleset, role) -> [seat-hands, wins, deal-ins, score sum, score sum of squares,
        #                     wins squared, deal-ins squared] (per seat-hand)
        self.roles: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0, 0, 0.0, 0.0, 0, 0])

    def add(self, hand: Hand) -> None:
        r = hand.result
        for seat in range(4):
            role = "dealer" if seat == hand.dealer else "other"
            win = sum(1 for w in r.wins if w.winner == seat) if r.is_win else 0
            deal_in = sum(1 for w in r.wins if w.loser == seat and w.winner != seat) if r.is_win else 0
            score = r.scores[seat] if r.scores is not None and len(r.scores) == 4 else 0
            cell = self.cells[(hand.ruleset, who(hand, seat, self.by), role)]
            cell[0] += 1
            cell[1] += win
            cell[2] += deal_in
            cell[3] += score
            tot = self.roles[(hand.ruleset, role)]
            tot[0] += 1
            tot[1] += win
            tot[2] += deal_in
            tot[3] += score
            tot[4] += score * score
            tot[5] += win * win
            tot[6] += deal_in * deal_in

    def rows(self) -> list[Row]:
        per: dict[tuple[str, object], list[float]] = defaultdict(
            lambda: [0, 0, 0.0, 0.0, 0, 0.0, 0.0, 0.0, 0.0, 0.0]
        )
        for (ruleset, subject, role), (n, wins, deal_ins, score) in self.cells.items():
            tot = self.roles[(ruleset, role)]
            p_win, p_in = tot[1] / tot[0], tot[2] / tot[0]
            # the per-seat-hand variances (p(1 - p) where every count is 0 or 1)
            v_win = max(tot[5] / tot[0] - p_win * p_win, 0.0)
            v_in = max(tot[6] / tot[0] - p_in * p_in, 0.0)
            mean = tot[3] / tot[0]
            var = max(tot[4] / tot[0] - mean * mean, 0.0)
            acc = per[(ruleset, subject)]
            acc[0] += n
            acc[1] += wins
            acc[2] += n * p_win
            acc[3] += n * v_win
            acc[4] += deal_ins
            acc[5] += n * p_in
            acc[6] += n * v_in
            acc[7] += score
            acc[8] += n * mean
            acc[9] += n * var
        out = []
        for (ruleset, subject), a in sorted(per.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
            subj = subject_of(self.by, subject)
            n = int(a[0])
            out.append(
                z_row(
                    "outcome.win",
                    ruleset,
                    self.by,
                    subj,
                    observed=a[1],
                    expected=a[2],
                    variance=a[3],
                    n=n,
                    null=NULL,
                )
            )
            out.append(
                z_row(
                    "outcome.deal_in",
                    ruleset,
                    self.by,
                    subj,
                    observed=a[4],
                    expected=a[5],
                    variance=a[6],
                    n=n,
                    null=NULL,
                )
            )
            out.append(_score_row(ruleset, self.by, subj, n, observed=a[7], expected=a[8], variance=a[9]))
        return out


def _score_row(
    ruleset: str, by: str, subject: dict, n: int, *, observed: float, expected: float, variance: float
) -> Row:
    """A summed score against the role means: z two-sided, effect the mean difference a hand.
    Scores are zero-sum, so the expectation is near 0 or negative: no observed/expected here."""
    row = z_row(
        "outcome.score", ruleset, by, subject, observed=observed, expected=1, variance=1, n=n, null=NULL
    )
    row.update(expected=expected, statistic=None, p_value=None, effect=None)
    row.update(effect_low=None, effect_high=None)
    row["effect_name"] = "score difference a hand"
    if n < MIN_SCORE_HANDS:
        row["note"] = f"too small to judge: {n} hands ({MIN_SCORE_HANDS} needed for a score sum)"
        return row
    if variance <= 0:
        row["note"] = "too small to judge: every score of the role is the same"
        return row
    z = (observed - expected) / math.sqrt(variance)
    half = Z95 * math.sqrt(variance) / n
    diff = (observed - expected) / n
    row.update(
        statistic=z,
        p_value=z_p_value(z),
        effect=diff,
        effect_low=diff - half,
        effect_high=diff + half,
        note="",
    )
    return row
