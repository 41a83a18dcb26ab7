"""Outcome advantage: wins, deal-ins and score per subject against the table, adjusted for the
dealer (a dealer's chances differ, and under some rules dealers keep the deal after a win).

For each seat-hand the null mean of its wins (of its deal-ins, its score) is the run's mean for
that role (dealer or not) in that ruleset; a subject's excess is its count minus the sum of those
means. Where a hand holds several wins (血战到底, 一炮多响) a seat may win or deal in more than
once a hand: every win counts.

The unit of chance is the match, not the seat-hand: the players seated at a table (and their
skill) are fixed for a match and drawn afresh for the next, so a seat's wins in one match move
together, and a seat's luck in the draw of opponents adds to the chance of the hands. Counting
seat-hands as independent (a binomial variance) understates the spread, and on fair play with
players of unequal skill it flags seats that only met weaker tables. So the excess is summed per
match, and in each match the subject is compared with the others at its table: its excess minus
their mean excess (the seats of one table share a fixed number of wins a hand, most of all under
血战到底, so their counts move against each other). Those contrasts, one a match, are tested
against 0 with Student's t (matches - 1 df, two-sided), their spread estimated from the matches
themselves. With fewer than ``MIN_MATCHES`` matches the binomial variance and a normal null are
used, and the row says so. The effect (observed/expected, score difference a hand) has its 95%
interval from the same spread: with k others at a table the subject's own excess is k/(k + 1)
of its contrast (3/4 with four at a table, as in every ruleset by seat), and the interval takes
the mean of that share over the subject's matches.
By player these tests measure skill as much as luck: a strong player wins more on a fair
platform. By seat they should find nothing on a fair platform.
"""

from __future__ import annotations

import math
from collections import defaultdict

from mjstats.integrity.contrasts import TableContrast, t_over_matches, table_contrasts
from mjstats.integrity.distributions import t_quantile, z_p_value
from mjstats.integrity.rows import Z95, Row, subject_of, z_row
from mjstats.integrity.subjects import who
from mjstats.records import Hand

__all__ = ["Outcomes"]

NULL = "the run's rate for the role (dealer or not), same for every subject; t over matches"
NULL_FEW = (
    "the run's rate for the role (dealer or not), same for every subject "
    "(too few matches: binomial, normal)"
)
# matches a subject needs for the spread of its match excesses (else the binomial variance)
MIN_MATCHES = 8
# A summed score is far from normal over few hands (a single big win dominates it)
MIN_SCORE_HANDS = 200


class Outcomes:
    def __init__(self, by: str) -> None:
        self.by = by
        # (ruleset, role) -> [seat-hands, wins, deal-ins, score sum, score sum of squares,
        #                     wins squared, deal-ins squared] (per seat-hand)
        self.roles: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0, 0, 0.0, 0.0, 0, 0])
        # (ruleset, match) -> subject -> role -> [seat-hands, wins, deal-ins, score sum]
        self.matches: dict[tuple[str, str], dict[object, dict[str, list[float]]]] = defaultdict(dict)

    def add(self, hand: Hand) -> None:
        r = hand.result
        for seat in range(4):
            role = "dealer" if seat == hand.dealer else "other"
            win = sum(1 for w in r.wins if w.winner == seat) if r.is_win else 0
            deal_in = sum(1 for w in r.wins if w.loser == seat and w.winner != seat) if r.is_win else 0
            score = r.scores[seat] if r.scores is not None and len(r.scores) == 4 else 0
            subject = who(hand, seat, self.by)
            played = self.matches[(hand.ruleset, hand.match_id)].setdefault(subject, {})
            in_match = played.setdefault(role, [0, 0, 0, 0.0])
            in_match[0] += 1
            in_match[1] += win
            in_match[2] += deal_in
            in_match[3] += score
            tot = self.roles[(hand.ruleset, role)]
            tot[0] += 1
            tot[1] += win
            tot[2] += deal_in
            tot[3] += score
            tot[4] += score * score
            tot[5] += win * win
            tot[6] += deal_in * deal_in

    @property
    def cells(self) -> dict[tuple[str, object, str], list[float]]:
        """(ruleset, subject, role) -> [seat-hands, wins, deal-ins, score sum]: the matches'
        counts summed (every count is whole, so the sums are exact in any order)."""
        out: dict[tuple[str, object, str], list[float]] = {}
        for (ruleset, _), table in self.matches.items():
            for subject, roles in table.items():
                for role, counts in roles.items():
                    cell = out.setdefault((ruleset, subject, role), [0, 0, 0, 0.0])
                    for i, count in enumerate(counts):
                        cell[i] += count
        return out

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
        contrasts = self._contrasts()
        out = []
        for (ruleset, subject), a in sorted(per.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
            subj = subject_of(self.by, subject)
            n = int(a[0])
            matches = contrasts.get((ruleset, subject), [])
            for test, i, column in (("outcome.win", 1, 0), ("outcome.deal_in", 4, 1)):
                row = z_row(
                    test,
                    ruleset,
                    self.by,
                    subj,
                    observed=a[i],
                    expected=a[i + 1],
                    variance=a[i + 2],
                    n=n,
                    null=NULL_FEW,
                )
                out.append(_over_matches(row, matches, column))
            out.append(
                _score_row(
                    ruleset,
                    self.by,
                    subj,
                    n,
                    observed=a[7],
                    expected=a[8],
                    variance=a[9],
                    matches=matches,
                )
            )
        return out

    def _contrasts(self) -> dict[tuple[str, object], list[TableContrast]]:
        """Per (ruleset, subject), one entry a match (in match order): its (wins, deal-ins, score)
        minus their role means, against the same for the others at its table."""
        means = {}
        for (ruleset, role), tot in self.roles.items():
            if tot[0]:
                means[(ruleset, role)] = (tot[1] / tot[0], tot[2] / tot[0], tot[3] / tot[0])
        out: dict[tuple[str, object], list[TableContrast]] = defaultdict(list)
        for (ruleset, _), table in sorted(self.matches.items(), key=lambda kv: kv[0]):
            excess = {}
            for subject, roles in table.items():
                w = d = sc = 0.0
                for role, (n, wins, deal_ins, score) in roles.items():
                    p_win, p_in, mean = means[(ruleset, role)]
                    w += wins - n * p_win
                    d += deal_ins - n * p_in
                    sc += score - n * mean
                excess[subject] = (w, d, sc)
            for subject, contrast in table_contrasts(excess).items():
                out[(ruleset, subject)].append(contrast)
        return out


def _own_share(matches: list[TableContrast]) -> float:
    """The share of the summed contrast that is the subject's own summed excess: k/(k + 1) for k
    others at the table (the role means make the excesses sum to zero over the run), averaged
    over the matches (by seat k is always 3)."""
    return sum(c.own_share for c in matches) / len(matches)


def _over_matches(row: Row, matches: list[TableContrast], column: int) -> Row:
    """Judge a count row by its matches' contrasts in ``column`` (Student t, matches - 1 df)
    where it has enough matches; the row keeps its binomial normal (and says so) where it has
    too few."""
    if row["p_value"] is None:
        return row
    judged = t_over_matches([c.values[column] for c in matches], MIN_MATCHES)
    if judged is None:
        return row
    half = _own_share(matches) * t_quantile(0.975, judged.df) * judged.total_sd
    observed, expected = row["observed"], row["expected"]
    row.update(
        null=NULL,
        statistic_name="t",
        statistic=judged.t,
        df=judged.df,
        p_value=judged.p_value,
        effect=observed / expected,
        effect_low=(observed - half) / expected,
        effect_high=(observed + half) / expected,
    )
    return row


def _score_row(
    ruleset: str,
    by: str,
    subject: dict,
    n: int,
    *,
    observed: float,
    expected: float,
    variance: float,
    matches: list[TableContrast],
) -> Row:
    """A summed score against the role means: Student t over the matches' excesses (a normal z
    on the role variances with too few matches), two-sided; effect the mean difference a hand.
    Scores are zero-sum, so the expectation is near 0 or negative: no observed/expected here."""
    row = z_row(
        "outcome.score", ruleset, by, subject, observed=observed, expected=1, variance=1, n=n, null=NULL_FEW
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
    diff = (observed - expected) / n
    judged = t_over_matches([c.values[2] for c in matches], MIN_MATCHES)
    if judged is not None:
        half = _own_share(matches) * t_quantile(0.975, judged.df) * judged.total_sd / n
        row.update(null=NULL, statistic_name="t", statistic=judged.t, df=judged.df, p_value=judged.p_value)
    else:
        z = (observed - expected) / math.sqrt(variance)
        half = Z95 * math.sqrt(variance) / n
        row.update(statistic=z, p_value=z_p_value(z))
    row.update(effect=diff, effect_low=diff - half, effect_high=diff + half, note="")
    return row
