"""Streaks: does a subject win more often right after its own win than the fair baseline says?

``outcome.streak``: for every hand that follows the subject's win in the same match (the next
hand number) and in which the subject is not the dealer, the baseline is the subject's win rate
in that match as a non-dealer, counted on the match's other hands, leaving out both hands of the
pair (so neither the win that opens the pair nor the hand judged moves its own baseline). The
match holds the seated players and their styles fixed, so a strong player's many wins are no
streak.

Hands the subject deals after its win are left out: under rules where a winning dealer keeps the
deal (Fuzhou) or the first winner deals next (Sichuan), a dealer's hands go on while it wins and
stop when it loses, so its wins after wins among them follow from that stopping rule, not from
the shuffle; and the seat that deals first in every match has more such runs than the others.
With them in, fair Fuzhou play showed seat 0's excess at t = -5.4 over 100,000 hands (Sichuan:
-4.7); without them no seat is beyond |t| = 2.6 on the same hands (docs/integrity.md).

Under a fair platform each match's sum of (win - baseline) has the same mean for every subject
(not 0: fair simulated hands can show wins after wins above this baseline, from the rules, not
from any one player), and matches are independent: in each match the subject's excess minus the
mean excess of the others at the table, averaged over matches against its spread (Student t,
matches - 1 df, two-sided). Effect: that difference in wins a match, with its 95% interval. A
match where the subject sits alone (by player: every seat unnamed, or one name at every seat) has
nobody to compare with and is not counted, as in the outcome tests.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

from mjstats.integrity.contrasts import t_over_matches, table_contrasts
from mjstats.integrity.rows import Z95, Row, blank_row, subject_of
from mjstats.integrity.subjects import who
from mjstats.records import Hand

__all__ = ["Streaks"]

NULL = (
    "excess over the subject's win rate in the match as a non-dealer (without the pair's hands), "
    "the same for every subject: paired t over matches"
)
MIN_MATCHES = 30  # matches of the subject, for the spread between matches

# one hand of a match: (hand_no, {subject: role}, subjects who won)
_Played = tuple[int, dict[object, str], frozenset[object]]


class Streaks:
    """Keeps each match's hands (subject roles and winners) and judges them at the end."""

    test = "outcome.streak"

    def __init__(self, by: str) -> None:
        self.by = by
        self.matches: dict[tuple[str, str], list[_Played]] = defaultdict(list)

    def add(self, hand: Hand) -> None:
        r = hand.result
        winners = {w.winner for w in r.wins if w.winner is not None} if r.is_win else set()
        roles = {who(hand, s, self.by): "dealer" if s == hand.dealer else "other" for s in range(4)}
        won = frozenset(who(hand, s, self.by) for s in winners)
        self.matches[(hand.ruleset, hand.match_id)].append((hand.hand_no, roles, won))

    def rows(self) -> list[Row]:
        # (ruleset, subject) -> per match: (wins after a win, baselines, excess minus the others')
        per: dict[tuple[str, object], list[tuple[int, float, float]]] = defaultdict(list)
        for (ruleset, _), played in self.matches.items():
            played = sorted(played, key=lambda p: p[0])
            found = _match_sums(played)
            # every subject of the match, in the order first seen (a fixed order: deterministic sums)
            subjects = dict.fromkeys(s for _, roles, _ in played for s in roles)
            excess = {s: (found[s][0] - found[s][1] if s in found else 0.0,) for s in subjects}
            for s in subjects:
                per.setdefault((ruleset, s), [])  # a subject alone at its table still gets its row
            for s, contrast in table_contrasts(excess).items():
                o, e = found.get(s, (0, 0.0))
                per[(ruleset, s)].append((o, e, contrast.values[0]))
        return [
            self._row(ruleset, subject, matches)
            for (ruleset, subject), matches in sorted(per.items(), key=lambda kv: (kv[0][0], str(kv[0][1])))
        ]

    def _row(self, ruleset: str, subject: object, matches: list[tuple[int, float, float]]) -> Row:
        row = blank_row(self.test, ruleset, self.by, subject_of(self.by, subject), NULL, len(matches))
        row.update(
            observed=sum(o for o, _, _ in matches),
            expected=sum(e for _, e, _ in matches),
            statistic_name="t",
            effect_name="excess wins a match vs the others",
        )
        m = len(matches)
        if m < MIN_MATCHES:
            row["note"] = f"too small to judge: {m} matches ({MIN_MATCHES} needed)"
            return row
        judged = t_over_matches([d for _, _, d in matches], MIN_MATCHES)
        if judged is None:
            row["note"] = "too small to judge: no hand after a win differs from its baseline"
            return row
        mean, se = judged.mean, judged.mean_se
        row.update(
            statistic=judged.t,
            df=judged.df,
            p_value=judged.p_value,
            effect=mean,
            effect_low=mean - Z95 * se,
            effect_high=mean + Z95 * se,
        )
        return row


def _match_sums(played: list[_Played]) -> dict[object, tuple[int, float]]:
    """Per subject of one match (hands in order): wins in the hands right after its own win that
    it does not deal, and the sum of their baselines (its win rate in the match as a non-dealer,
    without the pair's two hands)."""
    # hands and wins per subject as a non-dealer: the only role a pair is judged in
    tally: dict[object, list[int]] = defaultdict(lambda: [0, 0])
    for _, roles, won in played:
        for subject, role in roles.items():
            if role == "other":
                cell = tally[subject]
                cell[0] += 1
                cell[1] += subject in won
    out: dict[object, tuple[int, float]] = {}
    for (no_before, roles_before, won_before), (no, roles, won) in itertools.pairwise(played):
        if no != no_before + 1:
            continue  # a hand missing from the match: no pair
        for subject in won_before:
            if roles.get(subject) != "other":
                continue  # absent, or dealing: a dealer's hands stop when it loses (module doc)
            hands, wins = tally[subject]
            before = roles_before.get(subject) == "other"  # the hand before was one of them too
            hands -= 1 + before
            wins -= (subject in won) + before  # it won the hand before
            if hands <= 0:
                continue  # no other hand of that role in the match: no baseline
            o, e = out.get(subject, (0, 0.0))
            out[subject] = (o + (subject in won), e + wins / hands)
    return out
